package dev.lanes.micrometer;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The names of the meters and their tag keys, and the rules that keep tag values bounded: the
 * one place the meter table of the package documentation is spelled in code. Stateless; the
 * table of statement kinds is immutable.
 */
final class MeterNames {
    static final String POOL_THREADS = "lanes.pool.threads";
    static final String POOL_BUSY = "lanes.pool.busy";
    static final String POOL_RUNNABLE = "lanes.pool.runnable";
    static final String POOL_MAX = "lanes.pool.max";
    static final String CONNECTIONS_OPEN = "lanes.connections.open";
    static final String CONNECTIONS_BUDGET = "lanes.connections.budget";
    static final String EVICTIONS = "lanes.connections.evictions";
    static final String REOPEN = "lanes.connections.reopen";
    static final String DATABASES = "lanes.databases";
    static final String QUEUE_DEPTH = "lanes.writer.queue.depth";
    static final String POISONED = "lanes.writer.poisoned";
    static final String TRANSACTION_OPEN = "lanes.transaction.open";
    static final String WAL_SIZE = "lanes.wal.size";
    static final String READERS_ACTIVE = "lanes.readers.active";
    static final String READERS_WAITING = "lanes.readers.waiting";
    static final String DISK_FREE = "lanes.disk.free";
    static final String DISK_RESERVE = "lanes.disk.reserve";
    static final String REQUEST_DURATION = "lanes.request.duration";
    static final String REPLAYS_COUNTER = "lanes.writer.replays";
    static final String QUEUE_WAIT = "lanes.writer.queue.wait";
    static final String COMMAND_DURATION = "lanes.command.duration";
    static final String GROUP_SIZE = "lanes.writer.group.size";
    static final String GROUP_DURATION = "lanes.writer.group.duration";
    static final String READER_WAIT = "lanes.reader.wait";
    static final String CHECKPOINT_DURATION = "lanes.checkpoint.duration";
    static final String CHECKPOINT_PAGES = "lanes.checkpoint.pages";
    static final String CHECKPOINT_BACKLOG = "lanes.checkpoint.backlog";
    static final String DISK_FLOOR_REFUSALS = "lanes.disk.floor.refusals";
    static final String CHANGE_LAG_TIMER = "lanes.change.lag";
    static final String ERRORS = "lanes.errors";
    static final String OVERLOADS = "lanes.writer.overloads";
    static final String SLOW_WRITES = "lanes.writer.slow";
    static final String CLOSE_DURATION = "lanes.close.duration";
    static final String CLOSE_TIMEOUTS = "lanes.close.timeouts";
    static final String CRASHES = "lanes.crashes";
    static final String UNCLEAN_CLOSES = "lanes.unclean.closes";

    static final String DB = "db";
    static final String OPERATION = "operation";
    static final String IN_TRANSACTION = "in_transaction";
    static final String STATEMENT_KIND = "statement_kind";
    static final String OUTCOME = "outcome";
    static final String CODE = "code";
    static final String STATE = "state";
    static final String MODE = "mode";
    static final String TRIGGER = "trigger";
    static final String RESULT = "result";

    /** The tag keys the meters set themselves, which a common tag may not reuse. */
    private static final Set<String> RESERVED = Set.of(DB, OPERATION, IN_TRANSACTION,
            STATEMENT_KIND, OUTCOME, CODE, STATE, MODE, TRIGGER, RESULT);

    /** The statement kinds that get a tag value of their own; everything else is "other". */
    private static final Map<String, String> STATEMENT_KINDS = statementKinds();
    private static final String OTHER_KIND = "other";

    private MeterNames() {}

    static boolean isReserved(String key) {
        return RESERVED.contains(key);
    }

    /** A reported value, or NaN for the SPI's "not reported" (a negative number). */
    static double reported(long value) {
        return value < 0 ? Double.NaN : value;
    }

    /**
     * The tag value of a statement kind as the runtime reports it ({@code INSERT}, {@code BODY}):
     * its lower-case form when it is a statement SQLite knows, else {@code other}. Allocates
     * nothing for the upper-case keywords the runtime reports.
     */
    static String kindTag(String statementKind) {
        if (statementKind == null) {
            return OTHER_KIND;
        }
        String kind = STATEMENT_KINDS.get(statementKind);
        if (kind == null) {
            kind = STATEMENT_KINDS.get(statementKind.toUpperCase(Locale.ROOT));
        }
        return kind != null ? kind : OTHER_KIND;
    }

    /** The tag value of an enum constant: its name in lower case. */
    static String lower(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }

    /** The {@code outcome} tag of a request: {@code success}, {@code committed}, ... */
    static String outcomeTag(dev.lanes.MetricsListener.Outcome outcome) {
        switch (outcome) {
            case SUCCEEDED:
                return "success";
            case FAILED:
                return "failure";
            default:
                return lower(outcome);
        }
    }

    private static Map<String, String> statementKinds() {
        Map<String, String> kinds = new HashMap<>();
        for (String keyword : new String[] {"BODY", "SELECT", "VALUES", "WITH", "INSERT", "REPLACE",
                "UPDATE", "DELETE", "CREATE", "DROP", "ALTER", "PRAGMA", "VACUUM", "ANALYZE",
                "REINDEX", "ATTACH", "DETACH", "EXPLAIN", "BEGIN", "COMMIT", "END", "ROLLBACK",
                "SAVEPOINT", "RELEASE"}) {
            kinds.put(keyword, keyword.toLowerCase(Locale.ROOT));
        }
        return Map.copyOf(kinds);
    }
}
