package dev.lanes.internal.sqlite;

import dev.lanes.UnsupportedDriverException;
import dev.lanes.internal.util.LogNames;
import java.io.IOException;
import java.io.InputStream;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteConfig;

/**
 * The sqlite-jdbc driver and the SQLite library of this process, found once: the driver's
 * version and whether Lanes supports it, SQLite's version ({@code sqlite_version()}), and whether
 * that SQLite has the WAL-reset bug.
 *
 * <h2>The supported range</h2>
 * sqlite-jdbc {@value #OLDEST} (what Spring Boot 4.0 manages) and later: the suite runs on
 * {@value #OLDEST} and on {@value #NEWEST_TESTED} (the version Lanes declares). A later driver is
 * taken as long as it still has every internal member {@link DriverInternals} calls; an older
 * one, or one that lost such a member, is refused at open ({@link #require()}) with a message
 * that says how to bring a supported one in.
 *
 * <h2>The WAL-reset bug</h2>
 * SQLite 3.7.0 up to 3.51.2 (fixed in 3.51.3, and in the 3.44.6 and 3.50.7 patch releases) can
 * corrupt a WAL database or lose commits when a checkpoint starts right after a complete one and
 * a commit on another connection restarts the WAL while it runs (sqlite.org/wal.html,
 * "walresetbug"). On such a SQLite the runtime never lets a connection other than the writer
 * checkpoint; see ARCHITECTURE.md, "The WAL-reset bug".
 *
 * <p>The facts are read once per process (the driver and its native library are one per class
 * loader) on first use, by class initialization, so thread-safe; the warning is logged once.
 */
public final class SqliteLibrary {
    private static final Logger log = LoggerFactory.getLogger(LogNames.LIFECYCLE);

    /** The oldest sqlite-jdbc Lanes supports: the version Spring Boot 4.0 manages. */
    public static final String OLDEST = "3.50.3.0";
    /** The newest sqlite-jdbc Lanes is tested on: the version it declares. */
    public static final String NEWEST_TESTED = "3.54.1.0";
    /** What {@link Facts#driverVersion()} and {@link Facts#sqliteVersion()} say when not known. */
    public static final String UNKNOWN = "unknown";

    private static final AtomicBoolean WARNED = new AtomicBoolean();

    private SqliteLibrary() {}

    /**
     * What was found.
     *
     * @param driverVersion the sqlite-jdbc version, such as {@code 3.54.1.0}
     * @param sqliteVersion the version of the SQLite library it runs, such as {@code 3.54.1}
     * @param walResetBug whether that SQLite has the WAL-reset bug (also when its version could
     *     not be read)
     * @param refusal why the driver cannot be used, the message of the exception; null when it
     *     can
     */
    public record Facts(String driverVersion, String sqliteVersion, boolean walResetBug,
            String refusal) {}

    /** Found on first use. */
    private static final class Holder {
        static final Facts FACTS = find();
    }

    /** The facts of this process's driver and SQLite. */
    public static Facts facts() {
        return Holder.FACTS;
    }

    /**
     * Refuses a driver Lanes cannot run on; on a SQLite with the WAL-reset bug, warns once per
     * process. Called by every open before any connection is made.
     *
     * @throws UnsupportedDriverException when the driver is outside the supported range
     */
    public static Facts require() {
        Facts f = facts();
        if (f.refusal() != null) {
            throw new UnsupportedDriverException(f.refusal());
        }
        if (f.walResetBug() && WARNED.compareAndSet(false, true)) {
            log.warn("SQLite {} (sqlite-jdbc {}) has the WAL-reset bug, which can corrupt a WAL "
                    + "database or lose commits when a checkpoint races a commit of another "
                    + "connection (https://sqlite.org/wal.html#walresetbug; fixed in SQLite "
                    + "3.51.3). Lanes runs every checkpoint on each database's writer connection "
                    + "meanwhile, where it waits for the writes and they wait for it. {}",
                    f.sqliteVersion(), f.driverVersion(), upgrade());
        }
        return f;
    }

    private static Facts find() {
        String driver = driverVersion();
        String missing = driver.equals(UNKNOWN) || compare(driver, OLDEST) >= 0
                ? internalsMissing() : null;
        String refusal = null;
        if (!driver.equals(UNKNOWN) && compare(driver, OLDEST) < 0) {
            refusal = "sqlite-jdbc " + driver + " is on the class path, but Lanes needs "
                    + range() + ". " + upgrade();
        } else if (missing != null) {
            refusal = "sqlite-jdbc " + driver + " is on the class path and lacks " + missing
                    + ", which Lanes uses; Lanes supports " + range() + ". " + upgrade();
        }
        if (refusal != null) {
            return new Facts(driver, UNKNOWN, true, refusal);
        }
        String sqlite = sqliteVersion();
        return new Facts(driver, sqlite, sqlite.equals(UNKNOWN) || hasWalResetBug(sqlite), null);
    }

    /** {@link DriverInternals#missing()}, or the class the adapter itself could not load with. */
    private static String internalsMissing() {
        try {
            return DriverInternals.missing();
        } catch (LinkageError e) {
            return "a class of org.sqlite.core (" + e + ")";
        }
    }

    /** The supported range, in words. */
    static String range() {
        return "org.xerial:sqlite-jdbc " + OLDEST + " or later (tested on " + OLDEST + " and "
                + NEWEST_TESTED + ")";
    }

    /** How to bring in the newest tested driver, with Maven, Spring Boot and Gradle. */
    static String upgrade() {
        return "Upgrade it: with Maven, <dependency><groupId>org.xerial</groupId>"
                + "<artifactId>sqlite-jdbc</artifactId><version>" + NEWEST_TESTED
                + "</version></dependency>; under Spring Boot's parent, "
                + "<sqlite-jdbc.version>" + NEWEST_TESTED + "</sqlite-jdbc.version> in "
                + "<properties>; with Gradle, implementation(\"org.xerial:sqlite-jdbc:"
                + NEWEST_TESTED + "\").";
    }

    /**
     * Whether SQLite {@code version} ({@code sqlite_version()}, such as {@code 3.50.3}) has the
     * WAL-reset bug: 3.7.0 up to 3.51.2, but for the fixed patch releases 3.44.6 and 3.50.7 and
     * their later patches.
     */
    public static boolean hasWalResetBug(String version) {
        int[] v = parse(version);
        if (v.length < 2 || v[0] != 3) {
            return v.length == 0 || v[0] < 3; // unreadable, or older than WAL itself: not fixed
        }
        int minor = v[1];
        int patch = v.length > 2 ? v[2] : 0;
        if (minor < 7) {
            return false; // no WAL before 3.7.0
        }
        if (minor == 44) {
            return patch < 6;
        }
        if (minor == 50) {
            return patch < 7;
        }
        return minor < 51 || (minor == 51 && patch < 3);
    }

    /** Compares two dotted versions number by number; a missing number counts as 0. */
    static int compare(String a, String b) {
        int[] x = parse(a);
        int[] y = parse(b);
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            int c = Integer.compare(i < x.length ? x[i] : 0, i < y.length ? y[i] : 0);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    /** The leading dotted numbers of {@code version}; empty when it starts with none. */
    private static int[] parse(String version) {
        String[] parts = version.trim().split("\\.");
        int[] numbers = new int[parts.length];
        int n = 0;
        for (String part : parts) {
            int end = 0;
            while (end < part.length() && Character.isDigit(part.charAt(end)) && end < 9) {
                end++;
            }
            if (end == 0) {
                break;
            }
            numbers[n++] = Integer.parseInt(part.substring(0, end));
            if (end < part.length()) {
                break; // a suffix such as -SNAPSHOT ends the numbers
            }
        }
        return java.util.Arrays.copyOf(numbers, n);
    }

    /**
     * The driver's version from the {@code sqlite-jdbc.properties} its jar carries (four
     * numbers; the driver's own {@code getVersion()} gives three), {@link #UNKNOWN} without one.
     */
    private static String driverVersion() {
        try (InputStream in = org.sqlite.JDBC.class.getResourceAsStream(
                "/sqlite-jdbc.properties")) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                String v = p.getProperty("version");
                if (v != null && !v.isBlank()) {
                    return v.trim();
                }
            }
        } catch (IOException | RuntimeException e) {
            log.debug("cannot read sqlite-jdbc's version: {}", e.toString());
        }
        return UNKNOWN;
    }

    /** {@code sqlite_version()} on an in-memory connection; {@link #UNKNOWN} when it fails. */
    private static String sqliteVersion() {
        try (Connection c = new SQLiteConfig().createConnection("jdbc:sqlite::memory:");
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT sqlite_version()")) {
            return rs.next() ? rs.getString(1) : UNKNOWN;
        } catch (SQLException | RuntimeException | LinkageError e) {
            // the writer's own open reports why SQLite cannot run; until then, assume the bug
            log.debug("cannot read SQLite's version: {}", e.toString());
            return UNKNOWN;
        }
    }
}
