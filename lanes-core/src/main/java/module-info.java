/**
 * Lanes, a concurrency runtime for embedded SQLite: one writer lane per database with group
 * commit, read-only reader connections, one shared pool of platform threads, and honest
 * outcomes.
 *
 * <p>Only the public API is exported: {@code dev.lanes}, {@code dev.lanes.jmx} (the management
 * interfaces of {@code Lanes.builder().registerMBeans(true)}) and {@code dev.lanes.spi} (what a
 * cluster engine such as lanes-dqlite implements). Everything under {@code
 * dev.lanes.internal} is the implementation, cut by feature (see {@code ARCHITECTURE.md}).
 */
module dev.lanes {
    requires transitive java.sql;
    requires transitive java.management;
    requires transitive org.xerial.sqlitejdbc;
    requires org.slf4j;
    // @GuardedBy: read by ErrorProne at compile time, class retention, never needed at run time
    requires static com.google.errorprone.annotations;
    requires com.github.benmanes.caffeine;

    exports dev.lanes;
    exports dev.lanes.jmx;
    exports dev.lanes.spi;
}
