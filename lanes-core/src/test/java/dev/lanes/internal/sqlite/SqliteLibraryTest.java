package dev.lanes.internal.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.TestLanes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * What the runtime finds out about the driver and SQLite of the process ({@link SqliteLibrary}):
 * the versions as the driver under test has them, whether SQLite has the WAL-reset bug, and the
 * supported range as the build declares it.
 */
class SqliteLibraryTest {
    /** The driver these tests run on: the declared one, or the one the build put in its place. */
    private static String driverUnderTest() {
        return System.getProperty("lanes.test.sqlite-jdbc", SqliteLibrary.NEWEST_TESTED);
    }

    @Test
    void theFactsAreThoseOfTheDriverAndSqliteOnTheClassPath() throws Exception {
        String sqlite = TestLanes.sqliteVersion();
        SqliteLibrary.Facts facts = SqliteLibrary.require();
        assertThat(facts.driverVersion()).isEqualTo(driverUnderTest());
        assertThat(facts.sqliteVersion()).isEqualTo(sqlite);
        assertThat(facts.walResetBug()).isEqualTo(SqliteLibrary.hasWalResetBug(sqlite));
        assertThat(facts.refusal()).isNull();
    }

    @Test
    void theWalResetBugIsInEverySqliteFrom370UpTo3512ButThePatchedOnes() {
        assertThat(SqliteLibrary.hasWalResetBug("3.6.23")).as("before WAL").isFalse();
        assertThat(SqliteLibrary.hasWalResetBug("3.7.0")).isTrue();
        assertThat(SqliteLibrary.hasWalResetBug("3.44.5")).isTrue();
        assertThat(SqliteLibrary.hasWalResetBug("3.44.6")).as("backport").isFalse();
        assertThat(SqliteLibrary.hasWalResetBug("3.49.1")).isTrue();
        assertThat(SqliteLibrary.hasWalResetBug("3.50.3")).as("Spring Boot 4.0's").isTrue();
        assertThat(SqliteLibrary.hasWalResetBug("3.50.6")).isTrue();
        assertThat(SqliteLibrary.hasWalResetBug("3.50.7")).as("backport").isFalse();
        assertThat(SqliteLibrary.hasWalResetBug("3.51.2")).isTrue();
        assertThat(SqliteLibrary.hasWalResetBug("3.51.3")).as("the fix").isFalse();
        assertThat(SqliteLibrary.hasWalResetBug("3.52.0")).isFalse();
        assertThat(SqliteLibrary.hasWalResetBug("3.53.4")).as("Spring Boot 4.1's").isFalse();
        assertThat(SqliteLibrary.hasWalResetBug("3.54.1")).isFalse();
        assertThat(SqliteLibrary.hasWalResetBug("unknown")).as("unreadable: assumed").isTrue();
    }

    @Test
    void versionsCompareNumberByNumber() {
        assertThat(SqliteLibrary.compare("3.49.1.0", SqliteLibrary.OLDEST)).isNegative();
        assertThat(SqliteLibrary.compare("3.50.3.0", SqliteLibrary.OLDEST)).isZero();
        assertThat(SqliteLibrary.compare("3.50.3", SqliteLibrary.OLDEST)).isZero();
        assertThat(SqliteLibrary.compare("3.100.0.0", SqliteLibrary.OLDEST)).isPositive();
        assertThat(SqliteLibrary.compare("3.53.2.1", "3.53.2.0")).isPositive();
    }

    @Test
    void theUpgradeAdviceNamesTheNewestTestedDriverForMavenBootAndGradle() {
        String v = SqliteLibrary.NEWEST_TESTED;
        assertThat(SqliteLibrary.upgrade())
                .contains("<dependency><groupId>org.xerial</groupId><artifactId>sqlite-jdbc"
                        + "</artifactId><version>" + v + "</version></dependency>")
                .contains("<sqlite-jdbc.version>" + v + "</sqlite-jdbc.version>")
                .contains("implementation(\"org.xerial:sqlite-jdbc:" + v + "\")");
        assertThat(SqliteLibrary.range()).contains(SqliteLibrary.OLDEST, v);
    }

    /** The range in the code is the one the build tests: the root pom's two versions. */
    @Test
    void theRangeIsTheOneTheBuildDeclares() throws Exception {
        String pom = Files.readString(Path.of("..", "pom.xml"));
        assertThat(property(pom, "sqlite-jdbc.version")).isEqualTo(SqliteLibrary.NEWEST_TESTED);
        assertThat(property(pom, "sqlite-jdbc.oldest.version")).isEqualTo(SqliteLibrary.OLDEST);
    }

    private static String property(String pom, String name) {
        Matcher m = Pattern.compile("<" + Pattern.quote(name) + ">([^<]+)</").matcher(pom);
        assertThat(m.find()).as("<%s> in the root pom", name).isTrue();
        return m.group(1).trim();
    }
}
