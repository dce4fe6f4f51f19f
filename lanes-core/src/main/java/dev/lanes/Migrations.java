package dev.lanes;

import java.sql.Connection;
import java.sql.ResultSet;
import java.util.List;
import java.util.Objects;

/**
 * Versioned schema migrations, for {@link DatabaseOptions.Builder#initializer(SqlFunction)}.
 * Script {@code i} (zero-based) brings the schema from version {@code i} to {@code i + 1}; the
 * version lives in {@code PRAGMA user_version}. At open, the scripts the database has not seen
 * run in order, each followed by its version bump, all inside the initializer's one transaction:
 * if any script fails, nothing of this open's migrations persists and the database keeps the
 * version it had. A database whose version is newer than the scripts known here fails to open
 * rather than being used by older code.
 *
 * <pre>{@code
 * DatabaseOptions.builder().initializer(Migrations.of(List.of(
 *         "CREATE TABLE account(id INTEGER PRIMARY KEY, balance INTEGER NOT NULL)",
 *         "ALTER TABLE account ADD COLUMN owner TEXT")))
 * }</pre>
 *
 * <p>Scripts may hold several statements separated by semicolons; transaction control inside
 * them is refused.
 */
public final class Migrations implements SqlFunction<Integer> {
    private final List<String> scripts;

    private Migrations(List<String> scripts) {
        this.scripts = scripts;
    }

    /** Migrations from these scripts, in order; script {@code i} produces version {@code i+1}. */
    public static Migrations of(List<String> scripts) {
        Objects.requireNonNull(scripts, "scripts");
        for (int i = 0; i < scripts.size(); i++) {
            if (scripts.get(i) == null || scripts.get(i).isBlank()) {
                throw new IllegalArgumentException("migration script " + i + " is blank");
            }
        }
        return new Migrations(List.copyOf(scripts));
    }

    /** The schema version the scripts lead to. */
    public int latestVersion() {
        return scripts.size();
    }

    /**
     * Applies the missing scripts and returns the resulting version.
     *
     * @throws IllegalStateException when the database is newer than these scripts
     */
    @Override
    public Integer apply(Connection c) throws Exception {
        int version;
        try (java.sql.Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("PRAGMA user_version")) {
            rs.next();
            version = rs.getInt(1);
        }
        if (version > scripts.size()) {
            throw new IllegalStateException("the database's schema version " + version
                    + " is newer than the " + scripts.size() + " migrations this code knows; "
                    + "refusing to use it rather than risk a downgrade");
        }
        for (int v = version; v < scripts.size(); v++) {
            int statement = 0;
            try (java.sql.Statement s = c.createStatement()) {
                for (String sql : dev.lanes.internal.sql.text.StatementShape.of(scripts.get(v))
                        .statements()) {
                    s.execute(sql);
                    statement++;
                }
                s.execute("PRAGMA user_version = " + (v + 1));
            } catch (Exception e) {
                throw new IllegalStateException("migration " + v + " (to version " + (v + 1)
                        + ") failed at statement " + statement + ": " + e.getMessage(), e);
            }
        }
        return scripts.size();
    }

    /** Migrations are equal when their scripts are: a database opened twice with them is one. */
    @Override
    public boolean equals(Object o) {
        return o instanceof Migrations && ((Migrations) o).scripts.equals(scripts);
    }

    @Override
    public int hashCode() {
        return scripts.hashCode();
    }

    @Override
    public String toString() {
        return "Migrations[" + scripts.size() + " scripts]";
    }
}
