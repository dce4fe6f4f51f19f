package dev.lanes.cli.bench;

import dev.lanes.CheckpointMode;
import dev.lanes.Synchronous;
import dev.lanes.cli.DurationConverter;
import dev.lanes.cli.LanesSubcommand;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code lanes bench}: measures Lanes against the usual ways of using SQLite from many threads,
 * in one process, and prints tables (and optionally JSON and an HTML report). This class only
 * reads the flags and wires the pieces: {@link BenchSuite} plans the scenarios, each {@link
 * ScenarioBench} makes its runs with {@link WorkloadRunner}, {@link ReportTable}, {@link
 * JsonReport}, {@link HtmlReport} and {@link MarkdownReport} present them, and a {@link Progress}
 * shows how far it got. It exits {@value #SOAK_FAILED} when a soak failed its verdict, after
 * writing the reports. It joins the {@code lanes} command as a {@link LanesSubcommand}.
 */
@Command(
        name = "bench",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        header = "Measures Lanes against HikariCP and raw JDBC in the same process.",
        description = {
            "Scenarios (--scenario, default write):",
            "  write    single-row inserts from many writers through Lanes (db.execute) and"
                    + " through a HikariCP pool of " + HikariSystem.POOL_SIZE + " sqlite-jdbc"
                    + " connections, then a lone writer through Lanes and one raw connection.",
            "  read     point reads by primary key through db.query and through raw JDBC on as"
                    + " many connections, at 1 and --threads threads, alone and beside a writer.",
            "  rtw      read-then-write transactions on one counter: db.begin() against HikariCP"
                    + " with setAutoCommit(false); failures are counted by kind.",
            "  tenants  --databases tenant databases in one runtime, skewed to a hot set, reads"
                    + " and writes mixed; reports threads, connections, heap and RSS per database.",
            "  dqlite   single-row inserts on a 3-node dqlite cluster the bench starts on"
                    + " 127.0.0.1 (libdqlite installed with apt-get as root, else skipped):"
                    + " db.execute on Lanes' lane against one commit per write through the"
                    + " client on " + DqliteClientSystem.POOL_SIZE + " pooled sessions.",
            "  soak     --databases databases in one runtime under a mixed load for --duration"
                    + " (default 10m) with a connection budget, idle release and every checkpoint"
                    + " mode; samples heap after GC, RSS, descriptors, threads, connections and WAL"
                    + " bytes every 10s and exits 1 when one grows without bound. Not in the"
                    + " default set; --repeat and --warmup do not apply to it.",
            "  jdbc     the same JDBC code on db.dataSource() and on HikariCP / raw sqlite-jdbc:"
                    + " 64 threads' auto-commit inserts, 16 threads' and a lone thread's Spring"
                    + " TransactionTemplate + JdbcClient transactions, 32 threads' Hibernate"
                    + " units of work (find, query, persist), alone and in PetClinic's mix with"
                    + " read-only ones (Lanes' reader wait reported), 8 threads' point reads.",
            "  vt       " + VirtualThreadScenario.FEW + " and " + VirtualThreadScenario.MANY
                    + " clients on virtual threads (JDK 21+, else skipped): inserts through"
                    + " db.dataSource() and db.execute, db.begin() read-then-write transactions,"
                    + " against HikariCP on virtual threads; Lanes with its default write queue;"
                    + " counts jdk.VirtualThreadPinned events and the clients served in each"
                    + " window. Not in the default set.",
            "  fleet    --databases tenants on 3 lanes-fleet node processes (etcd, s3proxy and"
                    + " Litestream started on 127.0.0.1) written by --threads clients through any"
                    + " node, under kill -9, SIGSTOP, etcd's leader killed, a node added and a"
                    + " rolling restart; failover and move times, lost writes, at LOCAL and"
                    + " REPLICATED. Not in the default set; --duration is each phase.",
            "Every run uses fresh database files. Ratios above 1 mean Lanes is better.",
            "With --repeat N every configuration runs N times, Lanes and its baseline"
                    + " interleaved; rows then show medians, ratios the median (min-max) of the"
                    + " N repetition pairs."
        })
public final class BenchCommand implements Callable<Integer>, LanesSubcommand {
    /** The exit code of a bench whose soak found something growing without bound. */
    public static final int SOAK_FAILED = 1;

    @Spec
    private CommandSpec spec;

    @Option(names = "--scenario", paramLabel = "NAMES", split = ",",
            description = "Scenarios to run, comma-separated: write, read, rtw, tenants, jdbc,"
                    + " vt, dqlite, soak, fleet"
                    + " (default: write; tenants alone when only --databases is given).")
    private List<Scenario> scenarios;

    @Option(names = "--threads", paramLabel = "N",
            description = "Threads of every scenario's concurrent runs (default: write 64,"
                    + " read 8, rtw 16, tenants 16, dqlite 64, soak 8; jdbc 64, 16 and 8 by part;"
                    + " vt 1000 and 10000).")
    private Integer threads;

    @Option(names = "--writers", paramLabel = "COUNTS", split = ",",
            description = "Writer counts of the write scenario, comma-separated, e.g."
                    + " 1,16,64,1024: Lanes against HikariCP at each count above 1, against raw"
                    + " JDBC at 1 when listed, and against SQLite's C loop at --threads writers"
                    + " when listed, else at the most. The Markdown and HTML reports show p50, p99"
                    + " and p99.9 at each (default: --threads, else 64, and a lone writer).")
    private List<Integer> writers;

    @Option(names = "--duration", paramLabel = "TIME", converter = DurationConverter.class,
            description = "How long each run is measured, e.g. 5s, 500ms, 2m (default: 5s; a soak"
                    + " 10m). Each run also warms up for --warmup first, and every configuration"
                    + " runs Lanes and its baseline: the default bench (write at NORMAL and FULL,"
                    + " 64 writers and 1) makes 8 runs of 5s + 5s, about a minute and a half.")
    private Duration duration;

    // 5s, not less: in the first seconds the JIT compiler takes about a third of the CPU, and
    // Lanes, with more code to compile, runs first in each pair (the p99 of 64 writers at NORMAL
    // was 7.4-10.7x HikariCP's after 1s, 17x after 5s)
    @Option(names = "--warmup", paramLabel = "TIME", defaultValue = "5s",
            converter = DurationConverter.class,
            description = "Unmeasured work before each run's measurement; not in a soak"
                    + " (default: ${DEFAULT-VALUE}).")
    private Duration warmup;

    @Option(names = "--repeat", paramLabel = "N", defaultValue = "1",
            description = "Runs every configuration N times, Lanes and its baseline interleaved"
                    + " (A B A B ...), each run with its own warm-up and fresh files; reports the"
                    + " median of each figure and, per ratio, the median, min and max over the N"
                    + " repetition pairs (default: ${DEFAULT-VALUE}). Not with soak, which runs once.")
    private int repeat;

    @Option(names = "--synchronous", paramLabel = "LEVELS", split = ",",
            description = "Synchronous levels every scenario runs at, comma-separated:"
                    + " ${COMPLETION-CANDIDATES} (default: NORMAL,FULL for write and jdbc, NORMAL"
                    + " for the others).")
    private List<Synchronous> synchronous;

    @Option(names = "--databases", paramLabel = "N",
            description = "Databases of the tenants and soak scenarios (default: "
                    + BenchOptions.DEFAULT_DATABASES + ").")
    private Integer databases;

    @Option(names = "--checkpoint", paramLabel = "MODE",
            description = "Checkpoint mode of the databases Lanes opens in write, read, rtw,"
                    + " jdbc and tenants: DEDICATED (a background checkpointer, active while the"
                    + " database is written) or AUTO (SQLite's, inside the commit that crosses"
                    + " 1000 pages). Default: Lanes' own, DEDICATED but AUTO at FULL. The soak"
                    + " runs its own modes.")
    private CheckpointMode checkpoint;

    // hidden: only tests need a soak's samples closer together than the default
    @Option(names = "--sample-interval", paramLabel = "TIME", hidden = true, defaultValue = "10s",
            converter = DurationConverter.class)
    private Duration sampleInterval;

    @Option(names = "--dir", paramLabel = "DIR",
            description = "Where the scratch directory of database files goes; it is deleted"
                    + " afterwards (default: java.io.tmpdir). Its file system is what FULL measures.")
    private Path dir;

    @Option(names = "--json", paramLabel = "FILE",
            description = "Also write the results to FILE as JSON.")
    private Path json;

    @Option(names = "--report", paramLabel = "FILE.html",
            description = "Also write a self-contained HTML report with charts to FILE.html.")
    private Path report;

    @Option(names = "--markdown", paramLabel = "FILE.md",
            description = "Also write the results as one dated Markdown table, with this command"
                    + " and the machine, into FILE.md: between its generated-section markers when"
                    + " it has them (docs/benchmarks.md does), else appended.")
    private Path markdown;

    @Override
    public Integer call() throws Exception {
        BenchOptions options = options();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ReportTable table = new ReportTable(out, options.repeat());
        BenchReport result;
        try (ScratchDirectory scratch = ScratchDirectory.create(options.dir());
                Progress progress = Progress.forConsole(System.console() != null, out, err)) {
            BenchReport.Environment environment = BenchReport.Environment.describe(scratch.path());
            progress.print(() -> table.printHeader(options, environment));
            result = new BenchSuite(options, scratch.path()).run(environment, progress.around(table));
        }
        if (options.json() != null) {
            JsonReport.write(result, options.json());
            out.println();
            out.println("wrote " + options.json());
        }
        if (options.report() != null) {
            HtmlReport.write(result, options.report());
            out.println();
            out.println("wrote " + options.report());
        }
        if (options.markdown() != null) {
            MarkdownReport.write(result, command(), options.markdown());
            out.println();
            out.println("wrote " + options.markdown());
        }
        if (!result.soaksPassed()) {
            // the ! lines above say which series grew; a script needs only the exit code
            out.flush();
            return SOAK_FAILED;
        }
        out.flush();
        return 0;
    }

    /** This command line as typed through the launcher: {@code ./lanes bench --repeat 3 …}. */
    private String command() {
        StringBuilder line = new StringBuilder("./lanes");
        for (String arg : spec.commandLine().getParseResult().originalArgs()) {
            line.append(' ').append(arg.matches("[A-Za-z0-9_./,=:@%+-]+") ? arg : "'" + arg + "'");
        }
        return line.toString();
    }

    /** The options the flags ask for; package-private for tests. */
    BenchOptions options() {
        // "lanes bench --databases 10000" means the multi-tenant run, as the flag suggests
        List<Scenario> chosen = scenarios != null
                ? scenarios
                : databases != null ? List.of(Scenario.TENANTS) : List.of(Scenario.WRITE);
        try {
            return new BenchOptions(chosen, threads, duration, warmup, repeat, synchronous,
                    databases != null ? databases : BenchOptions.DEFAULT_DATABASES, checkpoint,
                    dir, json, report, markdown, sampleInterval, writers);
        } catch (IllegalArgumentException e) {
            // reported like any other bad flag: the message and the usage, exit code 2
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
    }
}
