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

    /** Baselines {@code configuration} at 0 when its data source is a fresh Lanes database. */
    static FluentConfiguration baselineFresh(FluentConfiguration configuration) {
        DataSource dataSource = configuration.getDataSource();
        if (dataSource == null || configuration.isBaselineOnMigrate()) {
            return configuration;
        }
        try {
            if (!dataSource.isWrapperFor(Database.class) || !onlyLanesTables(dataSource)) {
                return configuration;
            }
        } catch (SQLException e) {
            return configuration; // Flyway will meet the same failure and report it
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
