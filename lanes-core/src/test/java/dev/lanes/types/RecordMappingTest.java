package dev.lanes.types;

import static dev.lanes.types.ConversionErrorsTest.mappingFailure;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lanes.MappingException;
import dev.lanes.ReadOptions;
import dev.lanes.Row;
import dev.lanes.RowMapper;
import dev.lanes.Transaction;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code db.queryAs}, {@code db.query(RowMapper, …)}, {@code db.queryOne…} and their {@link
 * Transaction} forms: records filled by column name ({@code snake_case} to {@code camelCase}),
 * converted by the typed getters' rules, and every way a result can fail to fit.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RecordMappingTest extends TypesFixture {
    enum Status { ACTIVE, SUSPENDED }

    record Person(long id, String fullName, Instant createdAt, Boolean active, Status status,
            UUID token, BigDecimal balance, LocalDate born, byte[] avatar, Integer score,
            double ratio, boolean verified, LocalDateTime lastSeen, OffsetDateTime meetingAt,
            int visits, Long referrerId, Object raw) {}

    record IdAndName(long id, String fullName) {}

    record Checked(long id, String fullName) {
        Checked {
            if (fullName.isBlank()) {
                throw new IllegalArgumentException("fullName must not be blank");
            }
        }
    }

    record Tagged(long id, List<String> tags) {}

    record Outer(long id, IdAndName inner) {}

    record Box<T>(T value) {}

    record Weird(long id, Map<String, Integer> counts) {}

    record Empty() {}

    static final UUID TOKEN = UUID.fromString("00112233-4455-6677-8899-aabbccddeeff");
    static final Instant CREATED = Instant.parse("2024-05-06T07:08:09.123456789Z");

    @BeforeEach
    void createPeople() {
        db.execute("CREATE TABLE person(id INTEGER PRIMARY KEY, full_name TEXT, created_at TEXT, "
                + "active BOOLEAN, status TEXT, token TEXT, balance TEXT, born DATE, avatar BLOB, "
                + "score INTEGER, ratio REAL, verified INTEGER, last_seen TEXT, meeting_at TEXT, "
                + "visits INTEGER, referrer_id INTEGER, raw)");
        db.execute("INSERT INTO person VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                1, "Ann Lee", CREATED, true, Status.ACTIVE, TOKEN, new BigDecimal("1234.50"),
                LocalDate.parse("1990-02-03"), new byte[] {1, 2, 3}, 7, 0.25, false,
                LocalDateTime.parse("2024-05-06T08:00"), OffsetDateTime.parse("2024-06-01T10:00+02:00"),
                3, null, "anything");
        db.execute("INSERT INTO person(id, full_name, created_at, ratio, verified, visits, raw) "
                + "VALUES (2, 'Bob', unixepoch('2020-01-01'), 1, 1, 0, 5)");
    }

    @Test
    void everyComponentTypeFillsFromItsSnakeCaseColumn() {
        List<Person> people = db.queryAs(Person.class, "SELECT * FROM person ORDER BY id");

        assertThat(people).hasSize(2);
        Person ann = people.get(0);
        assertThat(ann.id()).isEqualTo(1L);
        assertThat(ann.fullName()).isEqualTo("Ann Lee");
        assertThat(ann.createdAt()).isEqualTo(CREATED);
        assertThat(ann.active()).isTrue();
        assertThat(ann.status()).isEqualTo(Status.ACTIVE);
        assertThat(ann.token()).isEqualTo(TOKEN);
        assertThat(ann.balance()).isEqualTo(new BigDecimal("1234.50"));
        assertThat(ann.born()).isEqualTo(LocalDate.parse("1990-02-03"));
        assertThat(ann.avatar()).containsExactly(1, 2, 3);
        assertThat(ann.score()).isEqualTo(7);
        assertThat(ann.ratio()).isEqualTo(0.25);
        assertThat(ann.verified()).isFalse();
        assertThat(ann.lastSeen()).isEqualTo(LocalDateTime.parse("2024-05-06T08:00"));
        assertThat(ann.meetingAt()).isEqualTo(OffsetDateTime.parse("2024-06-01T10:00+02:00"));
        assertThat(ann.visits()).isEqualTo(3);
        assertThat(ann.referrerId()).isNull();
        assertThat(ann.raw()).isEqualTo("anything");
        Person bob = people.get(1);
        assertThat(bob.createdAt()).isEqualTo(Instant.parse("2020-01-01T00:00:00Z"));
        assertThat(bob.active()).isNull();
        assertThat(bob.status()).isNull();
        assertThat(bob.ratio()).isEqualTo(1.0);
        assertThat(bob.verified()).isTrue();
        assertThat(bob.raw()).isEqualTo(5L);
    }

    @Test
    void exactNamesMatchIgnoringCaseAndExtraColumnsAreIgnored() {
        List<IdAndName> rows = db.queryAs(IdAndName.class, "SELECT 'x' AS extra, full_name AS "
                + "FULLNAME, id, created_at, 42 AS more FROM person WHERE id = ?", 1);
        assertThat(rows).containsExactly(new IdAndName(1, "Ann Lee"));
        // an exact name wins over a snake_case one
        assertThat(db.queryAs(IdAndName.class, "SELECT 'snake' AS full_name, id, "
                + "'exact' AS fullName FROM person WHERE id = 1")).containsExactly(
                new IdAndName(1, "exact"));
        assertThat(db.queryAs(Empty.class, "SELECT 1 AS a UNION ALL SELECT 2"))
                .containsExactly(new Empty(), new Empty());
    }

    @Test
    void aNullIntoAPrimitiveFailsNamingTheColumnTheComponentAndTheRecord() {
        db.execute("UPDATE person SET visits = NULL WHERE id = 2");
        mappingFailure(() -> db.queryAs(Person.class, "SELECT * FROM person"), "record Person",
                "component 'visits'", "column 'visits' is NULL", "int", "Integer");
    }

    @Test
    void aMissingColumnFailsNamingTheComponentAndTheRecord() {
        MappingException e = mappingFailure(() -> db.queryAs(IdAndName.class,
                "SELECT id, full_name AS name FROM person"), "record IdAndName",
                "component 'fullName'", "fullName or full_name", "[id, name]");
        assertThat(e.getMessage()).doesNotContain("Ann");
        // an empty result has no row to check
        assertThat(db.queryAs(IdAndName.class, "SELECT id FROM person WHERE id < 0")).isEmpty();
    }

    @Test
    void anUnconvertibleColumnFailsNamingItsTypeAndTheTarget() {
        db.execute("UPDATE person SET created_at = 'last tuesday' WHERE id = 2");
        mappingFailure(() -> db.queryAs(Person.class, "SELECT * FROM person ORDER BY id"),
                "record Person", "component 'createdAt'", "column 'created_at'",
                "TEXT 'last tuesday'", "Instant");
        mappingFailure(() -> db.queryAs(IdAndName.class, "SELECT 'one' AS id, 'x' AS full_name"),
                "component 'id'", "TEXT 'one'", "whole number");
    }

    @Test
    void twoColumnsForOneComponentAreAnError() {
        mappingFailure(() -> db.queryAs(IdAndName.class, "SELECT a.id, a.full_name, b.id "
                + "FROM person a JOIN person b ON b.id = a.id"), "component 'id'",
                "column 0 ('id') and column 2 ('id')", "alias");
    }

    @Test
    void componentTypesNoColumnCanHoldAreRefusedBeforeTheQueryRuns() {
        // the SQL names no table: had the query run, it would fail differently
        String noSuchTable = "SELECT * FROM no_such_table";
        assertThatThrownBy(() -> db.queryAs(Tagged.class, noSuchTable))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("component 'tags'")
                .hasMessageContaining("java.util.List<java.lang.String>")
                .hasMessageContaining("generic");
        assertThatThrownBy(() -> db.queryAs(Weird.class, noSuchTable))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("counts");
        assertThatThrownBy(() -> db.queryAs(Outer.class, noSuchTable))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("component 'inner'").hasMessageContaining("nested");
        assertThatThrownBy(() -> db.queryOneAs(Box.class, noSuchTable))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("type variable");
        assertThatThrownBy(() -> RowMapper.forRecord(Tagged.class))
                .isInstanceOf(IllegalArgumentException.class);
        // and every time, not just the first
        assertThatThrownBy(() -> db.queryAs(Tagged.class, noSuchTable))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    @SuppressWarnings({"unchecked", "rawtypes"})
    void aClassThatIsNotARecordIsRefused() {
        Class raw = String.class;
        assertThatThrownBy(() -> db.queryAs(raw, "SELECT 1"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("java.lang.String is not a record");
        assertThatThrownBy(() -> db.queryAs(null, "SELECT 1"))
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    void theRecordsOwnValidationPassesThroughUnchanged() {
        db.execute("INSERT INTO person(id, full_name, ratio, verified, visits) VALUES (3, ' ', 0, 0, 0)");
        assertThatThrownBy(() -> db.queryAs(Checked.class, "SELECT id, full_name FROM person"))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessage("fullName must not be blank");
    }

    @Test
    void queryOneGivesTheOnlyRowOrEmptyAndRefusesMore() {
        assertThat(db.queryOne("SELECT full_name FROM person WHERE id = ?", 1))
                .map(r -> r.getString("full_name")).contains("Ann Lee");
        assertThat(db.queryOne("SELECT * FROM person WHERE id = ?", 99)).isEmpty();
        assertThat(db.queryOne(r -> r.getString("full_name"), "SELECT full_name FROM person "
                + "WHERE id = ?", 2)).contains("Bob");
        assertThat(db.queryOne(r -> r.getString("status"), "SELECT status FROM person WHERE "
                + "id = 2")).isEmpty(); // the mapper gave null
        assertThat(db.queryOneAs(IdAndName.class, "SELECT id, full_name FROM person WHERE id = ?",
                1)).contains(new IdAndName(1, "Ann Lee"));
        assertThat(db.queryOneAs(IdAndName.class, "SELECT id, full_name FROM person WHERE id = ?",
                99)).isEmpty();
        mappingFailure(() -> db.queryOne("SELECT * FROM person"),
                "expected at most one row, but the query returned 2", "SELECT * FROM person");
        mappingFailure(() -> db.queryOne(r -> r.getLong("id"), "SELECT id FROM person"),
                "returned 2");
        mappingFailure(() -> db.queryOneAs(IdAndName.class, "SELECT id, full_name FROM person"),
                "returned 2");
    }

    @Test
    void rowMappersMapEveryRowInOrder() {
        assertThat(db.query(r -> r.getString("full_name") + "#" + r.getInt("visits"),
                "SELECT * FROM person ORDER BY id DESC")).containsExactly("Bob#0", "Ann Lee#3");
        assertThat(db.query(r -> r.getLong(0), "SELECT id FROM person WHERE id > ?", 5)).isEmpty();
        assertThatThrownBy(() -> db.query((RowMapper<Object>) null, "SELECT 1"))
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    void readOptionsFormsApplyTheirTimeoutAndMapAlike() {
        ReadOptions options = ReadOptions.timeout(Duration.ofSeconds(30));
        assertThat(db.reading(options).queryAs(IdAndName.class, "SELECT id, full_name FROM person "
                + "ORDER BY id")).extracting(IdAndName::fullName).containsExactly("Ann Lee", "Bob");
        assertThat(db.reading(options).query(r -> r.getLong("id"), "SELECT id FROM person ORDER BY id"))
                .containsExactly(1L, 2L);
        assertThat(db.reading(options).queryOne("SELECT id FROM person WHERE id = 2")).isPresent();
        assertThat(db.reading(options).queryOne(r -> r.getLong("id"), "SELECT id FROM person "
                + "WHERE id = 2")).contains(2L);
        assertThat(db.reading(options).queryOneAs(IdAndName.class, "SELECT id, full_name FROM person "
                + "WHERE id = 2")).contains(new IdAndName(2, "Bob"));
        // a timeout that passes stops the read, as for query(options, …)
        assertThatThrownBy(() -> db.reading(ReadOptions.timeout(Duration.ofMillis(50))).queryAs(
                IdAndName.class, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) "
                + "SELECT i AS id, 'x' AS full_name FROM n WHERE i < 0"))
                .isInstanceOf(dev.lanes.DeadlineExceededException.class);
    }

    @Test
    void aTransactionMapsItsOwnUncommittedRowsAndSurvivesAMappingFailure() {
        try (Transaction tx = db.begin()) {
            tx.execute("INSERT INTO person(id, full_name, created_at, ratio, verified, visits) "
                    + "VALUES (?, ?, ?, 0, 0, 0)", 3, "Cy", Instant.EPOCH);
            assertThat(tx.queryAs(IdAndName.class, "SELECT id, full_name FROM person ORDER BY id"))
                    .extracting(IdAndName::fullName).containsExactly("Ann Lee", "Bob", "Cy");
            assertThat(tx.queryOneAs(IdAndName.class, "SELECT id, full_name FROM person WHERE "
                    + "id = 3")).contains(new IdAndName(3, "Cy"));
            assertThat(tx.queryOne(r -> r.getInstant("created_at"), "SELECT created_at FROM "
                    + "person WHERE id = 3")).contains(Instant.EPOCH);
            assertThat(tx.queryOne("SELECT id FROM person WHERE id = 4")).isEmpty();
            assertThat(tx.query(r -> r.getLong("id"), "SELECT id FROM person")).hasSize(3);
            mappingFailure(() -> tx.queryAs(IdAndName.class, "SELECT created_at AS id, "
                    + "full_name FROM person WHERE id = 3"), "component 'id'", "TEXT");
            assertThat(tx.isOpen()).isTrue();
            tx.commit();
        }
        assertThat(db.queryOneAs(IdAndName.class, "SELECT id, full_name FROM person WHERE id = 3"))
                .contains(new IdAndName(3, "Cy"));
    }

    @Test
    void aSharedRecordMapperFollowsEachResultsColumnOrderAcrossThreads() throws Exception {
        RowMapper<IdAndName> mapper = RowMapper.forRecord(IdAndName.class);
        List<String> queries = List.of("SELECT id, full_name FROM person WHERE id = ?",
                "SELECT full_name, 'x' AS pad, id FROM person WHERE id = ?",
                "SELECT upper(full_name) AS FULL_NAME, id FROM person WHERE id = ?");
        int threads = 4;
        CyclicBarrier start = new CyclicBarrier(threads);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<List<IdAndName>>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int offset = t;
                futures.add(pool.submit(() -> {
                    start.await(30, TimeUnit.SECONDS);
                    List<IdAndName> seen = new ArrayList<>();
                    for (int i = 0; i < 300; i++) {
                        int q = (i + offset) % queries.size();
                        long id = 1 + (i % 2);
                        seen.add(db.query(mapper, queries.get(q), id).get(0));
                    }
                    return seen;
                }));
            }
            for (Future<List<IdAndName>> f : futures) {
                for (IdAndName p : f.get(30, TimeUnit.SECONDS)) {
                    assertThat(p.fullName()).isIn("Ann Lee", "Bob", "ANN LEE", "BOB");
                    assertThat(p.fullName().equalsIgnoreCase("Ann Lee")).isEqualTo(p.id() == 1);
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aRecordMapperWorksOnRowsBuiltByHand() {
        Row row = Row.of(List.of("FULL_NAME", "Id"), new Object[] {"Zed", 9L});
        assertThat(RowMapper.forRecord(IdAndName.class).map(row)).isEqualTo(new IdAndName(9, "Zed"));
    }
}
