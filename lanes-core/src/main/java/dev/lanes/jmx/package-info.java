/**
 * Management beans (JMX MXBeans) of a Lanes runtime and its databases, for JConsole, VisualVM,
 * a JMX exporter or any JMX client.
 *
 * <p>Off by default; switch them on when building the runtime:
 *
 * <pre>{@code
 * Lanes lanes = Lanes.builder().name("orders")
 *         .registerMBeans(true)          // on the platform MBean server, unless
 *         // .mbeanServer(server)        // another server is given
 *         // .maxDatabaseMBeans(1_000)   // the default cap on database beans
 *         .build();
 * }</pre>
 *
 * <h2>Names</h2>
 * <ul>
 *   <li>{@code dev.lanes:type=Runtime,name=<runtime>}: one {@link
 *       dev.lanes.jmx.LanesRuntimeMXBean} per runtime, registered when it is built and
 *       unregistered when its close completes;
 *   <li>{@code dev.lanes:type=Database,runtime=<runtime>,name=<database>}: one {@link
 *       dev.lanes.jmx.LanesDatabaseMXBean} per open database, registered when it opens and
 *       unregistered when its close completes (its connections are closed).
 * </ul>
 * {@code <runtime>} is {@link dev.lanes.Lanes.Builder#name(String)}; {@code <database>} is the
 * name the runtime gives the database in errors, logs and metrics (its file name, with a short
 * hash when two open databases share one). A value holding a character an {@link
 * javax.management.ObjectName} does not allow unquoted ({@code , = : " * ?} or a line break) is
 * quoted with {@link javax.management.ObjectName#quote(String)}; {@link LanesObjectNames} builds
 * the names.
 *
 * <h2>Limits</h2>
 * A runtime registers at most {@link dev.lanes.Lanes.Builder#maxDatabaseMBeans(int)} database
 * beans at a time (1,000 by default): past the cap, databases open without a bean and one
 * warning says so. A name already registered on the server (another runtime of the same name)
 * is skipped with a warning; when the runtime's own bean is skipped so, none of its databases
 * registers either, so that no bean is ever mistaken for another runtime's.
 *
 * <p>Every attribute is read from the diagnostics records ({@link dev.lanes.RuntimeDiagnostics},
 * {@link dev.lanes.DatabaseDiagnostics}) when it is read: no SQL runs, and no value is cached.
 * Operations that fail throw standard exceptions ({@link IllegalStateException}, {@link
 * IllegalArgumentException}) whose message is the {@link dev.lanes.LanesException}'s, prefixed
 * by its {@link dev.lanes.ErrorCode}, so that a client without Lanes on its class path can read
 * it.
 */
package dev.lanes.jmx;
