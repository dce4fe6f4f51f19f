package dev.lanes;

/**
 * The SQLite a runtime runs on: the version of the SQLite library, of the sqlite-jdbc driver that
 * loads it, and whether the runtime confines checkpoints to guard against SQLite's WAL-reset bug.
 *
 * <p>SQLite 3.7.0 up to 3.51.2 (fixed in 3.51.3, 3.50.7 and 3.44.6) has the WAL-reset bug: a
 * checkpoint that races a commit of another connection can corrupt a WAL database or lose
 * commits (<a href="https://sqlite.org/wal.html#walresetbug">sqlite.org</a>). On such a SQLite,
 * Lanes runs every checkpoint of a database on its writer connection, where no commit can run
 * beside it, and logs one warning per process; upgrading the driver (the {@code
 * sqlite-jdbc.version} property under Spring Boot) ends both.
 *
 * @param sqliteVersion the SQLite library's {@code sqlite_version()}, such as {@code 3.54.1};
 *     {@code unknown} when it could not be read
 * @param driverVersion the version of {@code org.xerial:sqlite-jdbc}, such as {@code 3.54.1.0};
 *     {@code unknown} when its jar does not say
 * @param walResetMitigation whether every checkpoint runs on the writer connection because this
 *     SQLite has the WAL-reset bug
 */
public record SqliteInfo(String sqliteVersion, String driverVersion, boolean walResetMitigation) {
    /**
     * The SQLite of this process, as a runtime opened now would run on it. Loads SQLite's native
     * library if it is not loaded yet; never throws for a driver Lanes does not support (an
     * open does).
     */
    public static SqliteInfo current() {
        return dev.lanes.internal.engine.LanesRuntime.sqliteInfo(false);
    }
}
