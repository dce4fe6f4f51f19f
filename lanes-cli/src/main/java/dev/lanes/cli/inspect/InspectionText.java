package dev.lanes.cli.inspect;

import dev.lanes.LeaseStatus;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * Prints an {@link Inspection} as a two-column table for people ({@code lanes inspect --text});
 * the JSON form is for scripts.
 */
final class InspectionText {
    private static final String ROW = "%-16s %s%n";

    private InspectionText() {}

    static void print(Inspection i, PrintWriter out) {
        row(out, "database", i.path());
        row(out, "file size", bytes(i.fileBytes()));
        row(out, "WAL size", bytes(i.walBytes()));
        row(out, "page size", String.format(Locale.ROOT, "%,d bytes", i.pageSize()));
        row(out, "pages", String.format(Locale.ROOT, "%,d (%,d on the freelist)", i.pageCount(),
                i.freelistCount()));
        row(out, "journal mode", i.journalMode());
        row(out, "identity", i.identity() == null ? "none (no _lanes_identity table)" : i.identity());
        LeaseStatus lease = i.lease();
        String leaseText;
        if (!lease.lockFileExists()) {
            leaseText = "not held (no lock file)";
        } else if (lease.held()) {
            leaseText = "held" + (lease.holderPid() == null ? "" : " by process " + lease.holderPid());
        } else {
            leaseText = "not held";
        }
        row(out, "lease", leaseText);
        row(out, "lock file", lease.lockFile() + ", byte " + lease.lockOffset());
        row(out, "quick_check", String.join("; ", i.quickCheck()));
        row(out, "SQLite", i.sqliteVersion() + " (sqlite-jdbc " + i.sqliteJdbcVersion() + ")");
        row(out, "WAL-reset bug", i.walResetMitigation()
                ? "yes: Lanes runs every checkpoint on the writer; upgrade sqlite-jdbc"
                : "no");
        out.flush();
    }

    private static void row(PrintWriter out, String name, String value) {
        out.printf(Locale.ROOT, ROW, name, value);
    }

    private static String bytes(long bytes) {
        return String.format(Locale.ROOT, "%,d bytes", bytes);
    }
}
