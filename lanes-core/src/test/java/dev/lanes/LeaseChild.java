package dev.lanes;

import java.nio.file.Path;

/**
 * The second process of {@link LeaseTest}: opens the database given as its argument, writes one
 * row, closes, and reports on one line of standard output: {@code OPENED}, {@code LOCKED
 * <message>} when it was refused with {@link DatabaseLockedException}, or {@code FAILED <error>}.
 */
public final class LeaseChild {
    private LeaseChild() {}

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
