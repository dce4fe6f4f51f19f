package dev.lanes;

import java.nio.file.Path;

/**
 * The child JVM of {@link DriverRangeTest}: an application that depends on lanes-core and
 * whichever sqlite-jdbc its class path has. It opens two databases in two runtimes, writes,
 * reads and checkpoints, and prints on standard output what came of it: {@code OPENED} and the
 * runtime's {@code SQLITE} facts, or {@code REFUSED} with the exception's type, code and message.
 */
public final class DriverRangeChild {
    private DriverRangeChild() {}

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        try (Lanes first = Lanes.builder().name("first").build();
                Lanes second = Lanes.builder().name("second").build()) {
            try {
                Database a = first.open(dir.resolve("a.db"));
                a.execute("CREATE TABLE t(v TEXT)");
                a.execute("INSERT INTO t(v) VALUES (?)", "x");
                Database b = second.open(dir.resolve("b.db"));
                b.execute("CREATE TABLE t(v TEXT)");
                System.out.println("ROWS " + a.query("SELECT count(*) AS n FROM t").size());
                System.out.println("CHECKPOINT " + a.checkpoint().complete());
                System.out.println("SQLITE " + first.diagnostics().sqlite());
                System.out.println("OPENED");
            } catch (LanesException e) {
                System.out.println("REFUSED " + e.getClass().getName() + " " + e.code() + " "
                        + e.outcome());
                System.out.println("MESSAGE " + e.getMessage());
            }
        }
    }
}
