package dev.lanes.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.lanes.CapacityFloorException;
import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.Lanes;
import dev.lanes.MetricsListener.CheckpointTrigger;
import dev.lanes.MetricsListener.CheckpointType;
import dev.lanes.MetricsListener.Outcome;
import dev.lanes.MetricsListener;
import dev.lanes.Subscription;
import dev.lanes.Transaction;
import dev.lanes.WriteFailedException;
import dev.lanes.WriteOutcome;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Grafana dashboard and the Prometheus alert rules in {@code ops/} hold against the meters
 * this binding really publishes: every metric name in their PromQL is in the Prometheus scrape of
 * a real workload, and the rules pass {@code promtool check rules} (when promtool can be had).
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class OpsFilesTest {
    private static final Path OPS = Path.of("..", "ops").toAbsolutePath().normalize();
    private static final Path DASHBOARD = OPS.resolve("grafana/lanes-dashboard.json");
    private static final Path ALERTS = OPS.resolve("prometheus/lanes-alerts.yml");
    private static final Path OPERATIONS = OPS.resolveSibling("docs").resolve("operations.md");
    private static final Path PACKAGE_INFO =
            Path.of("src/main/java/dev/lanes/micrometer/package-info.java").toAbsolutePath();
    private static final Pattern METRIC = Pattern.compile("\\blanes_[a-z0-9_]+");

    /**
     * Names the dashboard and rules use that only listener methods lanes-core does not call
     * produce; {@link FakeCore} drives those methods so the names are still checked. The core
     * calls every method now, so a real workload publishes every name and this is empty; a
     * name added here says which meter still waits for the core.
     */
    private static final Set<String> AWAITING_CORE = Set.of();

    @TempDir
    Path dir;

    @Test
    void everyMetricTheDashboardAndTheRulesUseIsOneTheBindingPublishes() throws Exception {
        Set<String> used = new TreeSet<>(dashboardMetrics());
        used.addAll(alertMetrics());
        assertThat(used).as("metric names found in ops/").hasSizeGreaterThan(20);

        Published published = publish();
        Set<String> real = published.real();
        Set<String> all = published.all();
        Set<String> missing = new TreeSet<>(used);
        missing.removeAll(real);
        assertThat(missing).as("names ops/ uses that a real runtime does not publish, beyond "
                + "those awaiting the core").isSubsetOf(AWAITING_CORE);
        Set<String> nowReal = new TreeSet<>(AWAITING_CORE);
        nowReal.retainAll(real);
        assertThat(nowReal).as("published by a real runtime now: remove them from AWAITING_CORE")
                .isEmpty();
        assertThat(used).as("every AWAITING_CORE name is still used").containsAll(AWAITING_CORE);

        assertThat(all).containsAll(used);
    }

    /**
     * Every meter a workload makes the binding register is documented: in the meter table of
     * docs/operations.md (by its Prometheus name) and in the package Javadoc's table (by its own
     * name).
     */
    @Test
    void everyMeterTheBindingRegistersIsInTheGuideAndJavadocMeterTables() throws Exception {
        String guide = Files.readString(OPERATIONS);
        int from = guide.indexOf("## Meters");
        int to = guide.indexOf("## Tagging", from);
        assertThat(from).as("docs/operations.md has a meter table").isPositive();
        Set<String> guideNames = metricsIn(guide.substring(from, to));
        String javadoc = Files.readString(PACKAGE_INFO);

        Set<String> meters = publish().meters();
        assertThat(meters).as("meters registered").hasSizeGreaterThan(30);
        List<String> undocumented = new ArrayList<>();
        for (String meter : meters) {
            Pattern prometheus = Pattern.compile(Pattern.quote(meter.replace('.', '_'))
                    + "(_(seconds|bytes|writes|pages|threads))?(_(total|count|sum|max))?");
            if (guideNames.stream().noneMatch(n -> prometheus.matcher(n).matches())) {
                undocumented.add(meter + " (docs/operations.md)");
            }
            if (!javadoc.contains("<td>{@code " + meter + "}</td>")) {
                undocumented.add(meter + " (package-info.java)");
            }
        }
        assertThat(undocumented).as("meters missing from a meter table").isEmpty();
    }

    /** What a binding publishes for a real workload, and then for the fake core's events. */
    private record Published(Set<String> real, Set<String> all, Set<String> meters) {}

    private Published publish() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        MicrometerMetrics metrics = MicrometerMetrics.builder(registry).build();
        try (Lanes lanes = Lanes.builder().name("ops").maxThreads(2).maxOpenConnections(16)
                .metrics(metrics).build()) {
            realWorkload(lanes);
            Set<String> real = sampleNames(registry.scrape());
            fakeCoreEvents(metrics);
            Set<String> meters = new TreeSet<>();
            registry.getMeters().forEach(m -> meters.add(m.getId().getName()));
            return new Published(real, sampleNames(registry.scrape()), meters);
        }
    }

    @Test
    void theDashboardHasItsVariablesAndEveryPanelAQueryOnTheChosenDataSource() throws IOException {
        JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
        List<String> variables = new ArrayList<>();
        dashboard.get("templating").get("list").forEach(v -> variables.add(v.get("name").asText()));
        assertThat(variables).containsExactly("datasource", "db");
        assertThat(dashboard.get("templating").get("list").get(0).get("query").asText())
                .isEqualTo("prometheus");

        Set<Integer> ids = new HashSet<>();
        List<String> titles = new ArrayList<>();
        for (JsonNode panel : dashboard.get("panels")) {
            assertThat(ids.add(panel.get("id").asInt())).as("unique panel id").isTrue();
            if (panel.get("type").asText().equals("row")) {
                continue;
            }
            titles.add(panel.get("title").asText());
            assertThat(panel.get("datasource").get("uid").asText()).isEqualTo("${datasource}");
            assertThat(panel.get("description").asText()).isNotBlank();
            assertThat(panel.get("targets")).isNotEmpty();
            Set<String> refIds = new HashSet<>();
            for (JsonNode target : panel.get("targets")) {
                assertThat(refIds.add(target.get("refId").asText())).isTrue();
                assertThat(METRIC.matcher(target.get("expr").asText()).find())
                        .as(panel.get("title").asText()).isTrue();
            }
        }
        assertThat(titles).contains("Write queue depth", "Queue wait", "Group size",
                "Commit latency p99", "Outcomes by kind", "Errors by code",
                "UNKNOWN outcomes and replays", "WAL size", "Checkpoint results",
                "Readers in use and waiting", "Reader wait", "Connections against the budget",
                "Disk free against the reserve", "Pool threads and saturation");
    }

    @Test
    void everyAlertSaysWhatItMeansAndWhatToDo() throws IOException {
        List<String> names = new ArrayList<>();
        for (JsonNode rule : alertRules()) {
            String name = rule.get("alert").asText();
            names.add(name);
            assertThat(rule.get("expr").asText()).as(name).isNotBlank();
            assertThat(rule.path("labels").path("severity").asText()).as(name)
                    .isIn("warning", "critical");
            assertThat(rule.path("annotations").path("summary").asText()).as(name).isNotBlank();
            assertThat(rule.path("annotations").path("description").asText()).as(name)
                    .contains("What to do");
        }
        assertThat(names).contains("LanesWriterPoisoned", "LanesDatabaseDead",
                "LanesWriteQueueSaturated", "LanesWalLarge", "LanesDiskNearReserve",
                "LanesPoolSaturated");
        assertThat(alertRules()).filteredOn(r -> r.get("alert").asText()
                .equals("LanesWriteQueueSaturated")).singleElement()
                .satisfies(r -> assertThat(r.get("for").asText()).isEqualTo("1m"));
        assertThat(alertRules()).filteredOn(r -> r.get("alert").asText().equals("LanesWalLarge"))
                .singleElement().satisfies(r -> assertThat(r.get("for").asText()).isEqualTo("10m"));
    }

    @Test
    void promtoolAcceptsTheRulesAndEachAlertFiresOnlyOnItsFailure() throws Exception {
        Path promtool = promtool();
        assertThat(runPromtool(promtool, "check", "rules", ALERTS.toString())).contains("SUCCESS");

        // the cases compare labels only: promtool would compare the annotations to the letter
        com.fasterxml.jackson.databind.node.ObjectNode rules =
                (com.fasterxml.jackson.databind.node.ObjectNode) new YAMLMapper()
                        .readTree(ALERTS.toFile());
        for (JsonNode group : rules.get("groups")) {
            for (JsonNode rule : group.get("rules")) {
                ((com.fasterxml.jackson.databind.node.ObjectNode) rule).remove("annotations");
            }
        }
        new YAMLMapper().writeValue(dir.resolve("rules.yml").toFile(), rules);
        Path cases = dir.resolve("cases.yml");
        try (var in = OpsFilesTest.class.getResourceAsStream("/ops/lanes-alerts-cases.yml")) {
            Files.copy(in, cases);
        }
        String output = runPromtool(promtool, "test", "rules", cases.toString());
        assertThat(output).contains("SUCCESS");
        for (JsonNode rule : alertRules()) {
            assertThat(Files.readString(cases)).as("a case for every alert")
                    .contains("alertname: " + rule.get("alert").asText());
        }
    }

    private static String runPromtool(Path promtool, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(promtool.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(output).isZero();
        return output;
    }

    // ------------------------------------------------------------------ workloads

    /**
     * Writes, reads, a transaction, a checkpoint, a failure, a replayed write, a change
     * notification and a write refused at the disk floor, on a real runtime.
     */
    private void realWorkload(Lanes lanes) throws Exception {
        Database db = lanes.open(dir.resolve("ops.db"), DatabaseOptions.DEFAULTS);
        db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT NOT NULL)");
        CountDownLatch changed = new CountDownLatch(1);
        Subscription subscription = db.onChange(change -> changed.countDown());
        for (int i = 0; i < 20; i++) {
            db.execute("INSERT INTO t(v) VALUES (?)", "row" + i);
        }
        assertThat(db.query("SELECT count(*) AS n FROM t").get(0).getLong("n")).isEqualTo(20);
        try (Transaction tx = db.begin()) {
            tx.execute("UPDATE t SET v = 'x' WHERE id = 1");
            tx.commit();
        }
        assertThat(db.checkpoint().walFrames()).isPositive();
        WriteFailedException failed = catchThrowableOfType(WriteFailedException.class,
                () -> db.write(c -> {
                    throw new SQLException("the body refuses");
                }));
        assertThat(failed.outcome()).isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(changed.await(1, TimeUnit.MINUTES)).as("a change notification").isTrue();
        subscription.close();
        replayedWrite(db);
        refusedAtTheDiskFloor(lanes);
    }

    /**
     * A write whose group neighbour ends the shared transaction ({@code OR ROLLBACK}) runs
     * again in a fresh one: the lane is held so that the two queue into one group.
     */
    private static void replayedWrite(Database db) throws Exception {
        db.execute("CREATE TABLE taken(k INTEGER PRIMARY KEY)");
        db.execute("INSERT INTO taken(k) VALUES (1)");
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Boolean> blocker = db.writeAsync(c -> {
            running.countDown();
            return release.await(1, TimeUnit.MINUTES);
        });
        assertThat(running.await(1, TimeUnit.MINUTES)).isTrue();
        CompletableFuture<Integer> innocent = db.writeAsync(c -> {
            try (var s = c.prepareStatement("INSERT INTO t(v) VALUES ('innocent')")) {
                return s.executeUpdate();
            }
        });
        CompletableFuture<Integer> culprit = db.writeAsync(c -> {
            try (var s = c.createStatement()) {
                return s.executeUpdate("INSERT OR ROLLBACK INTO taken(k) VALUES (1)");
            }
        });
        release.countDown();
        assertThat(blocker.get(1, TimeUnit.MINUTES)).isTrue();
        assertThat(innocent.get(1, TimeUnit.MINUTES)).isEqualTo(1);
        assertThat(culprit).failsWithin(1, TimeUnit.MINUTES);
        assertThat(db.diagnostics().writer().counters().replays()).isEqualTo(1);
    }

    /** A database whose reserve exceeds the volume's free space refuses its first write. */
    private void refusedAtTheDiskFloor(Lanes lanes) throws IOException {
        long reserve = Files.getFileStore(dir).getUsableSpace() + (1L << 30);
        Database full = lanes.open(dir.resolve("full.db"),
                DatabaseOptions.builder().diskReserveBytes(reserve).build());
        assertThat(catchThrowableOfType(CapacityFloorException.class,
                () -> full.execute("CREATE TABLE t(v TEXT)"))).isNotNull();
    }

    /**
     * The newer listener methods' events, as the core calls them, for a database of their own:
     * with {@link #AWAITING_CORE} empty they add no name, and they keep every name covered if a
     * core that calls fewer methods is checked here.
     */
    private static void fakeCoreEvents(MetricsListener metrics) {
        String db = "fake.db";
        metrics.databaseOpened(db, new FakeCore.Db());
        FakeCore.write(metrics, db, null, Outcome.COMMITTED, null, true, 2, 1000, 2000);
        FakeCore.write(metrics, db, null, Outcome.UNKNOWN,
                new WriteFailedException(WriteOutcome.UNKNOWN, "lost", null), false, 2, 10, 20);
        metrics.checkpoint(db, CheckpointType.PASSIVE, CheckpointTrigger.DEDICATED, 1000, 10, 4,
                false, false);
        metrics.readerCheckout(db, 100, true);
        metrics.readerCheckout(db, 100, false);
        metrics.changeDelivered(db, 1000);
        metrics.diskFloorRefused(db, 1, 2);
    }

    // ------------------------------------------------------------------ names

    private static Set<String> dashboardMetrics() throws IOException {
        Set<String> names = new TreeSet<>();
        JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
        for (JsonNode expr : dashboard.findValues("expr")) {
            names.addAll(metricsIn(expr.asText()));
        }
        for (JsonNode variable : dashboard.get("templating").get("list")) {
            names.addAll(metricsIn(variable.path("definition").asText()));
        }
        return names;
    }

    private static Set<String> alertMetrics() throws IOException {
        Set<String> names = new TreeSet<>();
        for (JsonNode rule : alertRules()) {
            names.addAll(metricsIn(rule.get("expr").asText()));
        }
        return names;
    }

    private static List<JsonNode> alertRules() throws IOException {
        List<JsonNode> rules = new ArrayList<>();
        for (JsonNode group : new YAMLMapper().readTree(ALERTS.toFile()).get("groups")) {
            group.get("rules").forEach(rules::add);
        }
        return rules;
    }

    static Set<String> metricsIn(String promql) {
        Set<String> names = new TreeSet<>();
        Matcher m = METRIC.matcher(promql);
        while (m.find()) {
            names.add(m.group());
        }
        return names;
    }

    /** The metric names of a Prometheus text scrape's samples. */
    static Set<String> sampleNames(String scrape) {
        Set<String> names = new TreeSet<>();
        for (String line : scrape.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int end = 0;
            while (end < line.length() && line.charAt(end) != '{' && line.charAt(end) != ' ') {
                end++;
            }
            names.add(line.substring(0, end));
        }
        return names;
    }

    // ------------------------------------------------------------------ promtool

    /** promtool, installed by ops/scripts/install-promtool.sh when missing, or the test skips. */
    private static Path promtool() throws Exception {
        Path script = OPS.resolve("scripts/install-promtool.sh");
        Path target = Path.of("target", "promtool").toAbsolutePath();
        Process install = new ProcessBuilder("bash", script.toString(), target.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(install.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        boolean done = install.waitFor(3, TimeUnit.MINUTES);
        if (!done) {
            install.destroyForcibly();
        }
        String[] lines = out.strip().split("\n");
        Path promtool = Path.of(lines[lines.length - 1].strip());
        Assumptions.assumeTrue(done && install.exitValue() == 0 && Files.isExecutable(promtool),
                "promtool is not on the PATH and ops/scripts/install-promtool.sh could not provide"
                + " it (it needs apt-get and Debian's prometheus package, and root for apt-get "
                + "update); the rules were not checked by promtool");
        return promtool;
    }
}
