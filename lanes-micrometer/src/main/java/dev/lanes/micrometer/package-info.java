/**
 * Lanes on Micrometer: {@link dev.lanes.micrometer.MicrometerMetrics} binds the runtime's
 * metrics SPI to a {@code MeterRegistry} and, optionally, its requests to an {@code
 * ObservationRegistry}; {@link dev.lanes.micrometer.DatabaseTagging} bounds the series of a
 * runtime with many databases; {@link dev.lanes.micrometer.LanesObservationConvention} and its
 * default name the observations. Those are the public types; every other class of the package is
 * package-private (meter names, the directory of meters per database, the gauge bindings, the
 * folded gauges, the ranking). The package depends on {@code dev.lanes} (the SPI), Micrometer
 * and SLF4J only.
 *
 * <h2>Meters</h2>
 * {@link dev.lanes.micrometer.MicrometerMetrics} publishes these meters. Every meter carries
 * the common tags given to the builder. Database meters also carry {@code db}: the database's
 * file name as the runtime names it in errors and logs (made unique per runtime with a short
 * hash suffix when two open databases share a file name), or, for the databases the {@link
 * dev.lanes.micrometer.DatabaseTagging} policy gives no meters of their own, {@code _other}
 * ({@code _all} under {@link dev.lanes.micrometer.DatabaseTagging#aggregated()}). The gauges of
 * {@code _other} and
 * {@code _all} fold the databases they stand for as the last column says. Prometheus names add
 * the unit and suffixes: {@code lanes.wal.size} is {@code lanes_wal_size_bytes}, the timer {@code
 * lanes.request.duration} is {@code lanes_request_duration_seconds_count}, {@code _sum}, {@code
 * _max} and, with a percentile, {@code lanes_request_duration_seconds{quantile="0.99"}}.
 * <table>
 * <caption>Meters</caption>
 * <tr><th>name</th><th>type</th><th>tags</th><th>what</th><th>folded</th></tr>
 * <tr><td>{@code lanes.pool.threads}</td><td>gauge</td><td></td>
 *     <td>pool threads alive</td><td></td></tr>
 * <tr><td>{@code lanes.pool.busy}</td><td>gauge</td><td></td>
 *     <td>pool threads running a turn</td><td></td></tr>
 * <tr><td>{@code lanes.pool.runnable}</td><td>gauge</td><td></td>
 *     <td>databases waiting for a pool thread</td><td></td></tr>
 * <tr><td>{@code lanes.pool.max}</td><td>gauge</td><td></td>
 *     <td>the cap on pool threads ({@code maxThreads})</td><td></td></tr>
 * <tr><td>{@code lanes.connections.open}</td><td>gauge</td><td></td>
 *     <td>SQLite connections open in the runtime</td><td></td></tr>
 * <tr><td>{@code lanes.connections.budget}</td><td>gauge</td><td></td>
 *     <td>{@code maxOpenConnections}; NaN when there is no cap</td><td></td></tr>
 * <tr><td>{@code lanes.connections.evictions}</td><td>counter</td><td></td>
 *     <td>idle databases whose connections the budget closed</td><td></td></tr>
 * <tr><td>{@code lanes.connections.reopen}</td><td>timer</td><td></td>
 *     <td>an evicted database reopening its writer connection</td><td></td></tr>
 * <tr><td>{@code lanes.databases}</td><td>gauge</td><td>state</td>
 *     <td>open databases by state: {@code running}, {@code closing}, {@code dead}, and {@code
 *     poisoned} (running with a poisoned writer, counted in {@code running} too)</td>
 *     <td></td></tr>
 * <tr><td>{@code lanes.writer.queue.depth}</td><td>gauge</td><td>db</td>
 *     <td>writes waiting in the queue</td><td>sum</td></tr>
 * <tr><td>{@code lanes.writer.poisoned}</td><td>gauge</td><td>db</td>
 *     <td>1 while the writer refuses work after an unverifiable rollback, else 0</td>
 *     <td>sum (how many)</td></tr>
 * <tr><td>{@code lanes.transaction.open}</td><td>gauge</td><td>db</td>
 *     <td>1 while an interactive transaction pins the writer, else 0</td>
 *     <td>sum (how many)</td></tr>
 * <tr><td>{@code lanes.wal.size}</td><td>gauge</td><td>db</td>
 *     <td>bytes of the {@code -wal} file</td><td>max</td></tr>
 * <tr><td>{@code lanes.readers.active}</td><td>gauge</td><td>db</td>
 *     <td>reader connections checked out by reads</td><td>sum</td></tr>
 * <tr><td>{@code lanes.readers.waiting}</td><td>gauge</td><td>db</td>
 *     <td>reads waiting for a reader connection</td><td>sum</td></tr>
 * <tr><td>{@code lanes.disk.free}</td><td>gauge</td><td>db</td>
 *     <td>free bytes on the volume, as the latest write turn sampled them</td><td>min</td></tr>
 * <tr><td>{@code lanes.disk.reserve}</td><td>gauge</td><td>db</td>
 *     <td>{@code diskReserveBytes}: writes are refused at or below it</td><td>max</td></tr>
 * <tr><td>{@code lanes.request.duration}</td><td>timer, p99</td><td>db, operation,
 *     outcome</td><td>a request from submission to its outcome; {@code operation=transaction}
 *     is an interactive transaction from {@code begin()} to the end of its commit or
 *     rollback</td><td></td></tr>
 * <tr><td>{@code lanes.writer.replays}</td><td>counter</td><td>db</td>
 *     <td>requests whose body ran again after a neighbour ended their group's
 *     transaction</td><td></td></tr>
 * <tr><td>{@code lanes.writer.queue.wait}</td><td>timer, p99</td><td>db</td>
 *     <td>from a request's submission until its turn began, a wait for room in a full queue
 *     included</td><td></td></tr>
 * <tr><td>{@code lanes.command.duration}</td><td>timer</td><td>db, operation, in_transaction,
 *     statement_kind, outcome</td><td>one command's body or statement</td><td></td></tr>
 * <tr><td>{@code lanes.writer.group.size}</td><td>distribution summary</td><td>db</td>
 *     <td>writes committed by one transaction (group commit)</td><td></td></tr>
 * <tr><td>{@code lanes.writer.group.duration}</td><td>timer</td><td>db</td>
 *     <td>one group's transaction, from {@code BEGIN IMMEDIATE} to the end of {@code
 *     COMMIT}</td><td></td></tr>
 * <tr><td>{@code lanes.reader.wait}</td><td>timer, p99</td><td>db, outcome</td>
 *     <td>a read's wait for a reader connection; {@code outcome} {@code acquired} or {@code
 *     not_acquired}</td><td></td></tr>
 * <tr><td>{@code lanes.checkpoint.duration}</td><td>timer</td><td>db, mode, trigger,
 *     result</td><td>one {@code PRAGMA wal_checkpoint}; {@code mode} {@code passive}, {@code
 *     restart}, {@code truncate}; {@code trigger} {@code auto}, {@code dedicated}, {@code
 *     manual}; {@code result} {@code complete}, {@code partial} (frames left), {@code busy},
 *     {@code failed}</td><td></td></tr>
 * <tr><td>{@code lanes.checkpoint.pages}</td><td>distribution summary</td><td>db, mode,
 *     trigger</td><td>WAL frames in the database file after a checkpoint</td><td></td></tr>
 * <tr><td>{@code lanes.checkpoint.backlog}</td><td>distribution summary</td><td>db, mode,
 *     trigger</td><td>WAL frames a checkpoint left behind</td><td></td></tr>
 * <tr><td>{@code lanes.disk.floor.refusals}</td><td>counter</td><td>db</td>
 *     <td>write turns refused at the disk reserve</td><td></td></tr>
 * <tr><td>{@code lanes.change.lag}</td><td>timer</td><td>db</td>
 *     <td>from a commit until its change notification reached a subscriber</td><td></td></tr>
 * <tr><td>{@code lanes.errors}</td><td>counter</td><td>db, code</td>
 *     <td>failed requests, by {@link dev.lanes.ErrorCode}</td><td></td></tr>
 * <tr><td>{@code lanes.writer.overloads}</td><td>counter</td><td>db</td>
 *     <td>writes refused because the queue was full</td><td></td></tr>
 * <tr><td>{@code lanes.writer.slow}</td><td>counter</td><td>db</td>
 *     <td>slow-write warnings: turns with a write slower than {@code slowWriteThreshold}</td>
 *     <td></td></tr>
 * <tr><td>{@code lanes.close.duration}</td><td>timer</td><td>db</td>
 *     <td>from the close request until the connections were closed</td><td></td></tr>
 * <tr><td>{@code lanes.close.timeouts}</td><td>counter</td><td>db</td>
 *     <td>{@code close()} calls that gave up waiting (the close went on)</td><td></td></tr>
 * <tr><td>{@code lanes.crashes}</td><td>counter</td><td>db</td>
 *     <td>turns that failed with an unexpected error (a defect)</td><td></td></tr>
 * <tr><td>{@code lanes.unclean.closes}</td><td>counter</td><td>db</td>
 *     <td>databases garbage-collected without {@code close()}</td><td></td></tr>
 * </table>
 * Tag values are lower case: {@code operation} is {@code write}, {@code read}, {@code
 * maintenance} or {@code transaction}; {@code in_transaction} is {@code true} or {@code false};
 * {@code statement_kind} is the statement's first keyword ({@code insert}, {@code select}, …),
 * {@code body} for a function body, or {@code other} for a keyword outside the SQL statements
 * SQLite knows (so malformed SQL cannot grow the number of series); {@code outcome} of a command
 * or read is {@code success} or {@code failure}, of a write, maintenance request or transaction
 * {@code committed}, {@code rolled_back}, {@code not_started} or {@code unknown}; {@code code}
 * is the {@link dev.lanes.ErrorCode} name ({@code write_failed}, {@code overloaded}, …). A
 * gauge whose value the runtime does not report (an older core) reads NaN. The three timers
 * marked p99 publish that percentile ({@link
 * dev.lanes.micrometer.MicrometerMetrics.Builder#percentiles(double...)}); no timer publishes a
 * histogram unless a {@link io.micrometer.core.instrument.config.MeterFilter} of the registry
 * turns one on. The counters and timers registered on first use appear with their first event;
 * the rest exist from the database's open.
 */
package dev.lanes.micrometer;
