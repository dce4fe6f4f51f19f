package dev.lanes.cli.inspect;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.lanes.LeaseStatus;
import java.util.List;

/**
 * What {@code lanes inspect} found out about one database file, as printed in JSON.
 *
 * @param path the absolute path of the database file
 * @param fileBytes the size of the database file
 * @param walBytes the size of its {@code -wal} file; 0 when there is none
 * @param pageSize SQLite's page size
 * @param pageCount pages in the database file
 * @param freelistCount pages on the freelist (unused, reclaimable by {@code VACUUM})
 * @param journalMode the journal mode ({@code wal}, {@code delete}…)
 * @param identity the UUID in {@code _lanes_identity}, or null when the table is absent (Lanes
 *     never opened the file writable, or identity checks were off)
 * @param lease whether a Lanes runtime holds the database's lease now
 * @param quickCheck the rows of {@code PRAGMA quick_check}: {@code ["ok"]} when it found nothing
 * @param sqliteVersion the SQLite library that read the file
 * @param sqliteJdbcVersion the sqlite-jdbc driver that loaded it
 * @param walResetMitigation whether that SQLite has the WAL-reset bug, so that a Lanes runtime
 *     on it runs every checkpoint on the writer connection (a newer sqlite-jdbc ends it); of this
 *     command's SQLite, which need not be the owner's
 */
public record Inspection(
        String path,
        long fileBytes,
        long walBytes,
        long pageSize,
        long pageCount,
        long freelistCount,
        String journalMode,
        String identity,
        LeaseStatus lease,
        List<String> quickCheck,
        String sqliteVersion,
        String sqliteJdbcVersion,
        boolean walResetMitigation) {

    public Inspection {
        quickCheck = List.copyOf(quickCheck);
    }

    /** Whether {@code quick_check} found the database sound. */
    @JsonProperty("ok")
    public boolean ok() {
        return quickCheck.equals(List.of("ok"));
    }
}
