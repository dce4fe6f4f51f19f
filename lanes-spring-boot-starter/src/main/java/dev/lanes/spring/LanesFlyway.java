package dev.lanes.spring;

import dev.lanes.Database;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.Set;
import javax.sql.DataSource;
import org.flywaydb.core.api.configuration.FluentConfiguration;

/**
 * Flyway on a Lanes database. Lanes' first writable open adds its identity table ({@code
 * _lanes_identity}), so Flyway would take a brand-new database for a non-empty schema without a
 * history and refuse to migrate it. Where that table is all the database holds, this baselines it
 * at version 0, before every migration, so that {@code V1} and the rest run. A database holding
 * anything else is left to Flyway's own rules (and its {@code baseline-on-migrate} setting).
 * Loaded only when Flyway is on the class path.
 */
final class LanesFlyway {
    static final String IDENTITY_TABLE = "_lanes_identity";

    private LanesFlyway() {}

    /**
     * Baselines {@code configuration} at 0 when its data source is a fresh Lanes database. The
     * database is opened first (its identity table is made by that open), then its tables are
     * read.
     *
     * @throws IllegalStateException when the tables of a Lanes database cannot be read: left to
     *     Flyway, a failure here (a reader's admission timing out on a loaded machine, say) came
     *     back as Flyway's "non-empty schema without a history table", which hid its cause
     */
    static FluentConfiguration baselineFresh(FluentConfiguration configuration) {
        DataSource dataSource = configuration.getDataSource();
        if (dataSource == null || configuration.isBaselineOnMigrate()) {
            return configuration;
        }
        Database db;
        try {
            if (!dataSource.isWrapperFor(Database.class)) {
                return configuration;
            }
            db = dataSource.unwrap(Database.class);
        } catch (SQLException e) {
            return configuration; // not Lanes' data source: Flyway's own rules apply
        }
        boolean fresh;
        try {
            db.whenReady().join();
            fresh = onlyLanesTables(dataSource);
        } catch (SQLException | RuntimeException e) {
            throw new IllegalStateException(db.path() + ": could not read the database's tables "
                    + "to tell whether it is new, so Flyway did not run: " + e.getMessage(), e);
        }
        if (!fresh) {
            return configuration;
        }
        return configuration.baselineOnMigrate(true).baselineVersion("0")
                .baselineDescription("empty Lanes database (" + IDENTITY_TABLE + " only)");
    }

    private static boolean onlyLanesTables(DataSource dataSource) throws SQLException {
        Set<String> tables = new HashSet<>();
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT name FROM sqlite_master WHERE type IN "
                        + "('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")) {
            while (rs.next()) {
                tables.add(rs.getString(1));
            }
        }
        return tables.equals(Set.of(IDENTITY_TABLE));
    }
}
