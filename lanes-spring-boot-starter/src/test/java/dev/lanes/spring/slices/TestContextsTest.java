package dev.lanes.spring.slices;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lanes.Database;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.jdbc.test.autoconfigure.JdbcTest;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

/**
 * Spring's test framework keeps the contexts of a run open in its cache, one JVM for all: a
 * {@code @JdbcTest} and a {@code @SpringBootTest} of one application, whose configuration names
 * one database file, each get a database of their own, deleted when the context closes; a path the
 * test class sets itself is used as it is; and with fresh databases turned off the second context
 * fails, saying why and what to do.
 */
@Tag("slow")
@Timeout(180)
class TestContextsTest {

    @Test
    void aSliceAndASpringBootTestOfOneApplicationEachGetAFreshDatabaseDeletedAtClose()
            throws Exception {
        Path sliceDirectory;
        Path bootDirectory;
        try (var slice = TestContexts.load(Slice.class);
                var boot = TestContexts.load(Boot.class)) {
            Database sliceDb = JdbcSlicesTest.onLanes(slice);
            Database bootDb = JdbcSlicesTest.onLanes(boot);
            assertThat(sliceDb).isNotSameAs(bootDb);
            assertThat(sliceDb.path()).isNotEqualTo(bootDb.path());
            sliceDirectory = sliceDb.path().getParent().getParent();
            bootDirectory = bootDb.path().getParent().getParent();
            assertThat(sliceDirectory.getFileName().toString()).startsWith("lanes-test-");

            // both ran the application's schema.sql; what one writes the other does not see
            slice.test().jdbc.sql("INSERT INTO pet(name) VALUES ('only in the slice')").update();
            assertThat(boot.test().jdbc.sql("SELECT count(*) FROM pet").query(Integer.class)
                    .single()).isZero();
            assertThat(slice.test().jdbc.sql("SELECT count(*) FROM pet").query(Integer.class)
                    .single()).isOne();
            assertThat(sliceDirectory).isDirectory();
        }
        assertThat(sliceDirectory).doesNotExist();
        assertThat(bootDirectory).doesNotExist();
        assertThat(JdbcSlicesTest.CONFIGURED).doesNotExist();
    }

    @Test
    void aPathTheTestClassSetsItselfIsUsedAsItIs() throws Exception {
        Path own = Files.createTempDirectory("lanes-own-").resolve("own.db");
        OwnPath.file = own;
        try (var loaded = TestContexts.load(OwnPath.class)) {
            assertThat(loaded.lanes().path()).isEqualTo(own.toRealPath());
        }
        assertThat(own).exists(); // the test's own file is the test's to delete
    }

    @Test
    void withFreshDatabasesOffASecondContextOnTheSameFileFailsSayingWhy() throws Exception {
        try (var first = TestContexts.load(ConfiguredFileSlice.class)) {
            assertThat(first.lanes().path())
                    .isEqualTo(JdbcSlicesTest.CONFIGURED.toRealPath());
            assertThatThrownBy(() -> TestContexts.load(ConfiguredFileBoot.class))
                    .satisfies(e -> assertThat(messages(e))
                            .contains("already open in this JVM")
                            .contains("lanes.datasource.path=target/slices/app.db")
                            .contains("lanes.test.fresh-databases=false")
                            .contains("give each test class a file of its own"));
        } finally {
            Files.deleteIfExists(JdbcSlicesTest.CONFIGURED);
        }
    }

    private static String messages(Throwable failure) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            all.append(t.getMessage()).append('\n');
        }
        return all.toString();
    }

    @JdbcTest
    @ActiveProfiles("slices")
    static class Slice {
        @Autowired
        JdbcClient jdbc;
    }

    @SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
    @ActiveProfiles("slices")
    static class Boot {
        @Autowired
        JdbcClient jdbc;
    }

    @JdbcTest
    @ActiveProfiles("slices")
    static class OwnPath {
        static volatile Path file;

        @DynamicPropertySource
        static void path(DynamicPropertyRegistry registry) {
            registry.add("lanes.datasource.path", () -> file.toString());
        }
    }

    @JdbcTest
    @ActiveProfiles("slices")
    @TestPropertySource(properties = "lanes.test.fresh-databases=false")
    static class ConfiguredFileSlice {}

    @SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
    @ActiveProfiles("slices")
    @TestPropertySource(properties = "lanes.test.fresh-databases=false")
    static class ConfiguredFileBoot {}
}
