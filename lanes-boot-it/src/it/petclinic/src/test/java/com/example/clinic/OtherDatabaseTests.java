package com.example.clinic;

import static org.assertj.core.api.Assertions.assertThat;

import com.example.clinic.vet.VetRepository;
import dev.lanes.Database;
import java.sql.Connection;
import javax.sql.DataSource;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.jdbc.autoconfigure.JdbcConnectionDetails;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ActiveProfiles;

/**
 * The application pointed at another database, by a profile (as PetClinic's mysql and postgres
 * profiles do) or by connection details (as a Testcontainers {@code @ServiceConnection} gives):
 * that database is the application's, and Lanes opens no file.
 */
class OtherDatabaseTests {

    static void runsOnH2(ApplicationContext context, DataSource dataSource) throws Exception {
        assertThat(dataSource.isWrapperFor(Database.class)).isFalse();
        try (Connection c = dataSource.getConnection()) {
            assertThat(c.getMetaData().getDatabaseProductName()).isEqualTo("H2");
        }
        assertThat(context.getBeanNamesForType(Database.class)).isEmpty();
    }

    @Nested
    @SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
    @ActiveProfiles("h2")
    class Profile {
        @Autowired
        ApplicationContext context;

        @Autowired
        DataSource dataSource;

        @Autowired
        VetRepository vets;

        @Test
        void theProfilesDatabaseIsTheApplicationsDatabase() throws Exception {
            runsOnH2(context, dataSource);
            assertThat(vets.findAll()).hasSize(2);
        }
    }

    @Nested
    @SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE,
            properties = "database=h2")
    @Import(ConnectionDetails.Container.class)
    class ConnectionDetails {
        @TestConfiguration(proxyBeanMethods = false)
        static class Container {
            @Bean
            JdbcConnectionDetails containerDatabase() {
                return new JdbcConnectionDetails() {
                    @Override
                    public String getUsername() {
                        return "sa";
                    }

                    @Override
                    public String getPassword() {
                        return "";
                    }

                    @Override
                    public String getJdbcUrl() {
                        return "jdbc:h2:mem:container";
                    }
                };
            }
        }

        @Autowired
        ApplicationContext context;

        @Autowired
        DataSource dataSource;

        @Autowired
        VetRepository vets;

        @Test
        void theConnectionDetailsAreTheApplicationsDatabase() throws Exception {
            runsOnH2(context, dataSource);
            try (Connection c = dataSource.getConnection()) {
                assertThat(c.getMetaData().getURL()).isEqualTo("jdbc:h2:mem:container");
            }
            assertThat(vets.findAll()).hasSize(2);
        }
    }
}
