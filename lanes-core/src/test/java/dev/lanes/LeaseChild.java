package dev.lanes;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The second process of {@link LeaseTest}: opens the database given as its argument, writes one
 * row, closes, and reports on one line of standard output: {@code OPENED}, {@code LOCKED
 * <message>} when it was refused with {@link DatabaseLockedException}, or {@code FAILED <error>}.
 */
public final class LeaseChild {
    private LeaseChild() {}

    /**
     * Runs this child on {@code db} in a new JVM and returns its one line of output; its standard
     * error goes to a file in {@code scratch}, quoted when it reports nothing.
     */
    /** How long a child may take to start, open and report before the test fails. */
    static final long CHILD_WAIT_SECONDS = 180;

    public static String runOn(Path db, Path scratch) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path err = Files.createTempFile(scratch, "child", ".err");
        Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                LeaseChild.class.getName(), db.toString())
                .redirectError(err.toFile())
                .start();
        // a bound, not an ordering: a JVM that starts, opens and reports on a loaded machine
        boolean ended = child.waitFor(CHILD_WAIT_SECONDS, TimeUnit.SECONDS);
        if (!ended) {
            child.destroyForcibly();
        }
        assertThat(ended).as("the child ended").isTrue();
        String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
                .trim();
        assertThat(out).as("the child's report (stderr: %s)", Files.readString(err)).isNotEmpty();
        return out;
    }

    public static void main(String[] args) {
        Path path = Path.of(args[0]);
        try (Lanes lanes = Lanes.builder().name("lease-child").maxThreads(2).build()) {
            Database db = lanes.open(path);
            db.execute("CREATE TABLE IF NOT EXISTS t(id INTEGER PRIMARY KEY, v TEXT)");
            db.execute("INSERT INTO t(v) VALUES ('from-child')");
            db.close();
            System.out.println("OPENED");
        } catch (DatabaseLockedException e) {
            System.out.println("LOCKED " + e.getMessage());
        } catch (RuntimeException e) {
            System.out.println("FAILED " + e);
        }
        System.out.flush();
    }
}
