package dev.lanes.internal.cluster;

import dev.lanes.DatabaseOptions;
import dev.lanes.InvalidRequestException;
import dev.lanes.WriteOutcome;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * Which {@link DatabaseOptions} a cluster database can honour. The rule: an option that only a
 * local file has is refused at {@code openCluster}, naming it, when it is set to anything but its
 * default, since asking for it expects behaviour a cluster cannot give; the resource hints that
 * merely do not apply are ignored (listed in {@link #IGNORED}); all others apply as on a local
 * database. Stateless.
 */
final class ClusterOptions {
    /** An option a cluster refuses unless it has its default, and why. */
    private record Refused(String name, Function<DatabaseOptions, Object> value, String why) {}

    private static final List<Refused> REFUSED = List.of(
            new Refused("synchronous", DatabaseOptions::synchronous, "durability is the "
                    + "cluster's: a write is acknowledged once a majority of nodes has it"),
            new Refused("checkpointMode", DatabaseOptions::checkpointMode, "the nodes "
                    + "checkpoint their own files"),
            new Refused("identityCheck", DatabaseOptions::identityCheck, "there is no local "
                    + "file whose identity could be checked"),
            new Refused("diskReserveBytes", DatabaseOptions::diskReserveBytes, "the disks are "
                    + "the nodes'"),
            new Refused("initializer", DatabaseOptions::initializer, "a cluster database runs "
                    + "no initializer; run the schema with executeScript or write after "
                    + "openCluster"),
            new Refused("connection setup (pragma, function, aggregate, collation, extension, "
                    + "onConnect)", DatabaseOptions::connectionSetup, "the connections are the "
                    + "nodes', which Lanes does not open"),
            new Refused("commitFence", DatabaseOptions::commitFence, "a cluster's commit is "
                    + "the cluster's (its leader and quorum decide who writes)"));

    /** Options that a cluster database ignores: they steer resources it does not have. */
    static final List<String> IGNORED = List.of("statementCacheSize", "idleRelease");

    private ClusterOptions() {}

    /**
     * Refuses options a cluster cannot honour, naming the first.
     *
     * @throws InvalidRequestException naming the option
     */
    static void check(String name, DatabaseOptions options) {
        DatabaseOptions defaults = DatabaseOptions.builder().build();
        for (Refused r : REFUSED) {
            Object asked = r.value().apply(options);
            if (!Objects.equals(asked, r.value().apply(defaults))) {
                throw new InvalidRequestException(WriteOutcome.NOT_STARTED, name + ": option "
                        + r.name() + " (" + asked + ") is refused on a cluster database: "
                        + r.why() + ". Leave it at its default; nothing was opened", null);
            }
        }
    }
}
