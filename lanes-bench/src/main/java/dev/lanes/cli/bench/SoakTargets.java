package dev.lanes.cli.bench;

import dev.lanes.CheckpointMode;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Which of a soak's databases each request goes to, and who checkpoints each. {@value
 * #EXTERNAL_PERCENT} % of requests go to the {@code EXTERNAL} databases, so that their WAL grows
 * between the external checkpointer's passes; {@value #HOT_PERCENT} % to a hot window of
 * {@value #HOT_SET_PERCENT} % of the databases that moves on to the next ones every rotation, so
 * that databases that were hot go quiet, are released after their idle time and lose their
 * connections to the budget; the rest to any database, uniformly, so that cold databases are
 * reopened now and then.
 *
 * <p>Checkpoints: one database in every {@value #DATABASES_PER_EXTERNAL} (at least one) is
 * {@code EXTERNAL}, spread over the range; of the others, every {@value #DEDICATED_EVERY}th is
 * {@code DEDICATED}, the rest {@code AUTO}.
 *
 * <p>Immutable.
 */
final class SoakTargets {
    static final int EXTERNAL_PERCENT = 5;
    static final int HOT_PERCENT = 80;
    static final int HOT_SET_PERCENT = 10;
    static final int DATABASES_PER_EXTERNAL = 250;
    static final int DEDICATED_EVERY = 4;

    private final int databases;
    private final int hot;
    private final long rotationNanos;
    private final int[] external;

    /** The targets of {@code databases} databases whose hot window moves every {@code rotationNanos}. */
    SoakTargets(int databases, long rotationNanos) {
        if (databases < 1) {
            throw new IllegalArgumentException("a soak needs a database at least, had " + databases);
        }
        this.databases = databases;
        this.hot = Math.max(1, (int) Math.round(databases * HOT_SET_PERCENT / 100.0));
        this.rotationNanos = rotationNanos;
        int count = Math.max(1, databases / DATABASES_PER_EXTERNAL);
        int stride = databases / count;
        this.external = new int[count];
        for (int k = 0; k < count; k++) {
            // not index 0, which is DEDICATED: the first of each stretch but one
            external[k] = Math.min(databases - 1, k * stride + 1);
        }
    }

    int databases() {
        return databases;
    }

    /** The size of the hot window. */
    int hotDatabases() {
        return hot;
    }

    /** The indexes of the {@code EXTERNAL} databases, ascending. */
    List<Integer> external() {
        List<Integer> list = new ArrayList<>(external.length);
        for (int i : external) {
            list.add(i);
        }
        return list;
    }

    /** Who checkpoints database {@code index}. */
    CheckpointMode checkpointMode(int index) {
        for (int e : external) {
            if (e == index) {
                return CheckpointMode.EXTERNAL;
            }
        }
        return index % DEDICATED_EVERY == 0 ? CheckpointMode.DEDICATED : CheckpointMode.AUTO;
    }

    /** How many databases {@code mode} checkpoints. */
    int count(CheckpointMode mode) {
        int n = 0;
        for (int i = 0; i < databases; i++) {
            if (checkpointMode(i) == mode) {
                n++;
            }
        }
        return n;
    }

    /** The first database of the hot window {@code elapsedNanos} after the load started. */
    int hotStart(long elapsedNanos) {
        long rotation = rotationNanos > 0 ? elapsedNanos / rotationNanos : 0;
        return (int) ((rotation * hot) % databases);
    }

    /** The database a request goes to, {@code elapsedNanos} after the load started. */
    int pick(SplittableRandom random, long elapsedNanos) {
        int roll = random.nextInt(100);
        if (roll < EXTERNAL_PERCENT) {
            return external[random.nextInt(external.length)];
        }
        if (roll < EXTERNAL_PERCENT + HOT_PERCENT) {
            return (hotStart(elapsedNanos) + random.nextInt(hot)) % databases;
        }
        return random.nextInt(databases);
    }
}
