package dev.lanes.jdbcit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.InvalidRequestException;
import dev.lanes.OverloadedException;
import dev.lanes.Transaction;
import dev.lanes.WriteOutcome;
import dev.lanes.internal.engine.DatabaseImpl;
import dev.lanes.internal.sqlite.FaultInjector;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.dao.ConcurrencyFailureException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.dao.InvalidDataAccessApiUsageException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.jdbc.BadSqlGrammarException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * {@code db.dataSource()} under Spring JDBC: {@code JdbcTemplate}, {@code JdbcClient} and {@code
 * TransactionTemplate} over a {@code DataSourceTransactionManager}, as a Spring application wires
 * them with the one bean {@code dataSource = db.dataSource()}.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SpringJdbcTest {
    private static final int THREADS = 16;
    private static final int PER_THREAD = 50;

    @RegisterExtension final LanesFixture fixture = new LanesFixture();

    /** The beans of a Spring application on one database. */
    private static final class Spring {
        final DataSource dataSource;
        final JdbcTemplate jdbc;
        final JdbcClient client;
        final DataSourceTransactionManager manager;
        final TransactionTemplate tx;

        Spring(Database db) {
            dataSource = db.dataSource();
            jdbc = new JdbcTemplate(dataSource);
            client = JdbcClient.create(dataSource);
            manager = new DataSourceTransactionManager(dataSource);
            tx = new TransactionTemplate(manager);
        }

        TransactionTemplate with(int propagation, boolean readOnly) {
            TransactionTemplate t = new TransactionTemplate(manager);
            t.setPropagationBehavior(propagation);
            t.setReadOnly(readOnly);
            return t;
        }
    }

    private Database counterDatabase(String name) {
        Database db = fixture.open(name);
        db.execute("CREATE TABLE counter(id INTEGER PRIMARY KEY, n INTEGER NOT NULL)");
        db.execute("INSERT INTO counter(id, n) VALUES (1, 0)");
        return db;
    }

    @Test
    void readThenWriteTransactionsFromSixteenThreadsLoseNoIncrement() throws Exception {
        Database db = counterDatabase("counter.db");
        Spring spring = new Spring(db);
        List<Integer> committed = fixture.onThreads(THREADS, thread -> {
            int done = 0;
            for (int i = 0; i < PER_THREAD; i++) {
                spring.tx.executeWithoutResult(status -> {
                    long n = spring.client.sql("SELECT n FROM counter WHERE id = 1")
                            .query(Long.class).single();
                    spring.jdbc.update("UPDATE counter SET n = ? WHERE id = 1", n + 1);
                });
                done++; // a failure would have been thrown out of the thread
            }
            return done;
        });
        assertThat(committed).containsOnly(PER_THREAD);
        assertThat(spring.jdbc.queryForObject("SELECT n FROM counter WHERE id = 1", Long.class))
                .as("every transaction read the latest value: none lost")
                .isEqualTo((long) THREADS * PER_THREAD);
        assertThat(db.isTransactionOpen()).isFalse();
    }

    @Test
    void aReadOnlyTransactionRunsOnAReaderAndLeavesTheLaneFree() throws Exception {
        Database db = counterDatabase("readonly.db");
        Spring spring = new Spring(db);
        long acquisitionsBefore = db.diagnostics().readers().acquisitions();
        TransactionTemplate readOnly = spring.with(TransactionDefinition.PROPAGATION_REQUIRED,
                true);
        ExecutorService other = Executors.newSingleThreadExecutor();
        fixture.closeAfter(other::shutdownNow);
        long[] seen = readOnly.execute(status -> {
            long first = spring.client.sql("SELECT n FROM counter WHERE id = 1")
                    .query(Long.class).single();
            boolean pinned = db.isTransactionOpen();
            int checkouts = db.diagnostics().readers().currentCheckouts();
            // the lane is free: another thread's write commits while this transaction is open
            int written = join(CompletableFuture.supplyAsync(
                    () -> db.execute("UPDATE counter SET n = n + 1 WHERE id = 1"), other));
            long second = spring.jdbc.queryForObject("SELECT n FROM counter WHERE id = 1",
                    Long.class);
            return new long[] {first, pinned ? 1 : 0, checkouts, written, second};
        });
        assertThat(seen[1]).as("the read-only transaction pinned the lane").isZero();
        assertThat(seen[2]).as("it holds one reader for its snapshot").isEqualTo(1);
        assertThat(seen[3]).as("the other thread's write committed meanwhile").isEqualTo(1);
        assertThat(seen[4]).as("one snapshot: the later write is not seen inside")
                .isEqualTo(seen[0]);
        assertThat(db.diagnostics().readers().acquisitions() - acquisitionsBefore)
                .as("the transaction ran on a reader").isGreaterThanOrEqualTo(1);
        assertThat(db.diagnostics().readers().currentCheckouts())
                .as("the reader came back at commit").isZero();
        assertThat(spring.jdbc.queryForObject("SELECT n FROM counter WHERE id = 1", Long.class))
                .isEqualTo(seen[0] + 1);
    }

    @Test
    void nestedRollsBackToItsSavepointOnly() {
        Database db = counterDatabase("nested.db");
        Spring spring = new Spring(db);
        db.execute("CREATE TABLE log(v TEXT)");
        TransactionTemplate nested = spring.with(TransactionDefinition.PROPAGATION_NESTED, false);
        spring.tx.executeWithoutResult(outer -> {
            spring.jdbc.update("INSERT INTO log(v) VALUES ('outer-before')");
            nested.executeWithoutResult(inner -> {
                spring.jdbc.update("INSERT INTO log(v) VALUES ('inner')");
                inner.setRollbackOnly();
            });
            Throwable thrown = catchThrowable(() -> nested.executeWithoutResult(inner -> {
                spring.jdbc.update("INSERT INTO log(v) VALUES ('inner-thrown')");
                throw new IllegalStateException("inner body failed");
            }));
            assertThat(thrown).hasMessage("inner body failed");
            nested.executeWithoutResult(inner ->
                    spring.jdbc.update("INSERT INTO log(v) VALUES ('inner-kept')"));
            spring.jdbc.update("INSERT INTO log(v) VALUES ('outer-after')");
        });
        assertThat(spring.jdbc.queryForList("SELECT v FROM log ORDER BY rowid", String.class))
                .containsExactly("outer-before", "inner-kept", "outer-after");
    }

    @Test
    void requiresNewOnTheSameDatabaseFailsAtOnceInsteadOfWaitingForItself() {
        Database db = counterDatabase("requires-new.db");
        Spring spring = new Spring(db);
        TransactionTemplate requiresNew =
                spring.with(TransactionDefinition.PROPAGATION_REQUIRES_NEW, false);
        Throwable[] inner = new Throwable[1];
        spring.tx.executeWithoutResult(outer -> {
            spring.jdbc.update("UPDATE counter SET n = 10 WHERE id = 1");
            inner[0] = catchThrowable(() -> requiresNew.executeWithoutResult(status ->
                    spring.jdbc.update("UPDATE counter SET n = 99 WHERE id = 1")));
            // the outer transaction goes on
            spring.jdbc.update("UPDATE counter SET n = n + 1 WHERE id = 1");
        });
        assertThat(inner[0]).as("refused, not hanging").isNotNull();
        assertThat(inner[0]).as("a misuse of the API, not bad SQL")
                .isInstanceOf(InvalidDataAccessApiUsageException.class);
        assertThat(rootLanesCause(inner[0])).isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("this thread holds an open transaction");
        assertThat(spring.jdbc.queryForObject("SELECT n FROM counter WHERE id = 1", Long.class))
                .as("the outer transaction committed, the inner one never ran").isEqualTo(11);
    }

    @Test
    void aDuplicateKeyIsADuplicateKeyException() {
        Database db = counterDatabase("duplicate.db");
        Spring spring = new Spring(db);
        Throwable autoCommit = catchThrowable(() ->
                spring.jdbc.update("INSERT INTO counter(id, n) VALUES (1, 5)"));
        assertThat(autoCommit).isInstanceOf(DuplicateKeyException.class);
        db.execute("CREATE TABLE users(id INTEGER PRIMARY KEY, email TEXT UNIQUE)");
        spring.jdbc.update("INSERT INTO users(email) VALUES ('a@example.com')");
        Throwable inTransaction = catchThrowable(() -> spring.tx.executeWithoutResult(s ->
                spring.jdbc.update("INSERT INTO users(email) VALUES ('a@example.com')")));
        assertThat(inTransaction).as("a unique index, inside a transaction")
                .isInstanceOf(DuplicateKeyException.class);
        assertThat(spring.jdbc.queryForObject("SELECT count(*) FROM users", Long.class))
                .isEqualTo(1);
    }

    @Test
    void aMissingTableIsBadSqlGrammar() {
        Database db = counterDatabase("grammar.db");
        Spring spring = new Spring(db);
        assertThat(catchThrowable(() -> spring.jdbc.queryForList("SELECT * FROM nowhere")))
                .as("a read").isInstanceOf(BadSqlGrammarException.class);
        assertThat(catchThrowable(() -> spring.jdbc.update("INSERT INTO nowhere VALUES (1)")))
                .as("a write").isInstanceOf(BadSqlGrammarException.class);
        assertThat(catchThrowable(() -> spring.tx.executeWithoutResult(s ->
                spring.jdbc.update("UPDATE nowhere SET x = 1"))))
                .as("in a transaction").isInstanceOf(BadSqlGrammarException.class);
        assertThat(catchThrowable(() -> spring.jdbc.update("UPDAT counter SET n = 1")))
                .as("a syntax error").isInstanceOf(BadSqlGrammarException.class);
    }

    @Test
    void aFullWriteQueueIsATransientDataAccessException() throws Exception {
        Database db = fixture.open("overloaded.db",
                DatabaseOptions.builder().writeQueueCapacity(1)
                .writeQueueTimeout(Duration.ZERO).build());
        db.execute("CREATE TABLE counter(id INTEGER PRIMARY KEY, n INTEGER NOT NULL)");
        db.execute("INSERT INTO counter(id, n) VALUES (1, 0)");
        Spring spring = new Spring(db);
        ExecutorService others = Executors.newFixedThreadPool(2);
        fixture.closeAfter(others::shutdownNow);
        CountDownLatch pinned = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        // one thread holds the lane in a transaction; a second one's write fills the queue
        CompletableFuture<Void> holder = CompletableFuture.runAsync(() -> {
            try (Transaction t = db.begin()) {
                t.execute("UPDATE counter SET n = n + 1 WHERE id = 1");
                pinned.countDown();
                await(release);
                t.commit();
            }
        }, others);
        assertThat(pinned.await(LanesFixture.WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        CompletableFuture<Integer> queued = CompletableFuture.supplyAsync(
                () -> spring.jdbc.update("UPDATE counter SET n = n + 1 WHERE id = 1"), others);
        LanesFixture.awaitCondition("a write in the queue",
                () -> db.diagnostics().writer().queued() == 1);

        Throwable refused = catchThrowable(() ->
                spring.jdbc.update("UPDATE counter SET n = n + 100 WHERE id = 1"));
        assertThat(refused).isInstanceOf(TransientDataAccessException.class);
        assertThat(rootLanesCause(refused)).isInstanceOf(OverloadedException.class);

        release.countDown();
        join(holder);
        assertThat(join(queued)).isEqualTo(1);
        assertThat(spring.jdbc.queryForObject("SELECT n FROM counter WHERE id = 1", Long.class))
                .as("the refused write never ran").isEqualTo(2);
    }

    @Test
    void aCommitWhoseOutcomeIsUnknownIsNotTransient() throws Exception {
        Database db = counterDatabase("unknown.db");
        Spring spring = new Spring(db);
        AtomicBoolean syncFails = new AtomicBoolean();
        ((DatabaseImpl) db).faults(new FaultInjector() {
            @Override
            public void before(Point point) {}

            @Override
            public void after(Point point) throws SQLException {
                if (point == Point.COMMIT && syncFails.compareAndSet(true, false)) {
                    throw new SQLiteException("[SQLITE_IOERR_FSYNC] injected",
                            SQLiteErrorCode.SQLITE_IOERR_FSYNC);
                }
            }
        });
        syncFails.set(true);
        Throwable unknown = catchThrowable(() ->
                spring.jdbc.update("UPDATE counter SET n = n + 1 WHERE id = 1"));
        // the write may have persisted: a retry must not be automatic
        assertThat(unknown).isInstanceOf(RecoverableDataAccessException.class)
                .isNotInstanceOf(TransientDataAccessException.class);
        assertThat(((SQLException) unknown.getCause()).getSQLState()).isEqualTo("40003");
        assertThat(((dev.lanes.LanesException) rootLanesCause(unknown)).outcome())
                .isEqualTo(WriteOutcome.UNKNOWN);
    }

    @Test
    void aTransactionRolledBackUnderneathIsAConcurrencyFailureToRetry() throws Exception {
        Database db = fixture.open("idle.db", DatabaseOptions.builder()
                .transactionIdleTimeout(Duration.ofMillis(100)).build());
        db.execute("CREATE TABLE counter(id INTEGER PRIMARY KEY, n INTEGER NOT NULL)");
        db.execute("INSERT INTO counter(id, n) VALUES (1, 0)");
        Spring spring = new Spring(db);
        Throwable rolledBack = catchThrowable(() -> spring.tx.executeWithoutResult(status -> {
            spring.jdbc.update("UPDATE counter SET n = 5 WHERE id = 1");
            try {
                LanesFixture.awaitCondition("the idle timeout", () -> !db.isTransactionOpen());
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            spring.jdbc.update("UPDATE counter SET n = 6 WHERE id = 1");
        }));
        assertThat(rolledBack).isInstanceOf(ConcurrencyFailureException.class);
        assertThat(((dev.lanes.LanesException) rootLanesCause(rolledBack)).outcome())
                .isEqualTo(WriteOutcome.ROLLED_BACK);
        assertThat(spring.jdbc.queryForObject("SELECT n FROM counter WHERE id = 1", Long.class))
                .as("nothing of it persisted").isZero();
    }

    private static Throwable rootLanesCause(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof dev.lanes.LanesException) {
                return c;
            }
        }
        return null;
    }

    private static <T> T join(CompletableFuture<T> f) {
        try {
            return f.get(LanesFixture.WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(LanesFixture.WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("timed out");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
