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

    abstract static class OnAnotherDatabase {
        @Autowired
        ApplicationContext context;

        @Autowired
        DataSource dataSource;

        @Autowired
        VetRepository vets;

        /** The URL the application's data source must have. */
        abstract String url();

        @Test
        void theOtherDatabaseIsTheApplicationsDatabase() throws Exception {
            assertThat(dataSource.isWrapperFor(Database.class)).isFalse();
            try (Connection c = dataSource.getConnection()) {
                assertThat(c.getMetaData().getDatabaseProductName()).isEqualTo("H2");
                assertThat(c.getMetaData().getURL()).isEqualTo(url());
            }
            assertThat(context.getBeanNamesForType(Database.class)).isEmpty();
            assertThat(vets.findAll()).hasSize(2); // db/h2/data.sql
        }
    }

    @Nested
    @SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
    @ActiveProfiles("h2")
    class Profile extends OnAnotherDatabase {
        @Override
        String url() {
            return "jdbc:h2:mem:clinic";
        }
    }

    @Nested
    @SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE,
            properties = "database=h2")
    @Import(ConnectionDetails.Container.class)
    class ConnectionDetails extends OnAnotherDatabase {
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

        @Override
        String url() {
            return "jdbc:h2:mem:container";
        }
    }
}
