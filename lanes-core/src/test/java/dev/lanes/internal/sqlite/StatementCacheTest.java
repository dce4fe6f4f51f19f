package dev.lanes.internal.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The prepared-statement cache of one connection ({@link StatementCache}): least recently used
 * out first (also when the most recent one is found without its map), nothing kept at capacity
 * 0, a statement that failed prepared afresh. On an in-memory
 * SQLite connection, so that what is closed really is closed.
 */
class StatementCacheTest {
    private Connection connection;

    @BeforeEach
    void open() throws SQLException {
        connection = DriverManager.getConnection("jdbc:sqlite::memory:");
        try (var s = connection.createStatement()) {
            s.execute("CREATE TABLE t(v)");
        }
    }

    @AfterEach
    void close() throws SQLException {
        connection.close();
    }

    @Test
    void aCachedStatementIsReusedAndTheLeastRecentlyUsedOneIsClosedPastTheCapacity()
            throws SQLException {
        StatementCache cache = new StatementCache(connection, 2);
        PreparedStatement a = cache.get("SELECT 1");
        PreparedStatement b = cache.get("SELECT 2");
        assertThat(cache.get("SELECT 1")).as("reused").isSameAs(a); // a is now the most recent
        PreparedStatement c = cache.get("SELECT 3");

        assertThat(cache.size()).isEqualTo(2);
        assertThat(b.isClosed()).as("the least recently used, closed on its way out").isTrue();
        assertThat(a.isClosed()).isFalse();
        assertThat(cache.get("SELECT 1")).isSameAs(a);
        assertThat(cache.get("SELECT 3")).isSameAs(c);
        PreparedStatement b2 = cache.get("SELECT 2");
        assertThat(b2).as("prepared again").isNotSameAs(b);
        assertThat(b2.isClosed()).isFalse();
        assertThat(cache.connection()).isSameAs(connection);
    }

    @Test
    void aReleasedStatementStaysCachedWithItsParametersCleared() throws SQLException {
        StatementCache cache = new StatementCache(connection, 4);
        PreparedStatement insert = cache.get("INSERT INTO t(v) VALUES (?)");
        insert.setString(1, "x");
        insert.executeUpdate();
        cache.release("INSERT INTO t(v) VALUES (?)", insert);

        assertThat(insert.isClosed()).isFalse();
        assertThat(cache.get("INSERT INTO t(v) VALUES (?)")).isSameAs(insert);
        insert.executeUpdate(); // the parameter was cleared: binds NULL
        try (var s = connection.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*), count(v) FROM t")) {
            rs.next();
            assertThat(rs.getInt(1)).isEqualTo(2);
            assertThat(rs.getInt(2)).as("the second insert bound nothing").isEqualTo(1);
        }
    }

    @Test
    void atCapacityZeroNothingIsKeptAndEveryStatementIsClosedAfterUse() throws SQLException {
        StatementCache cache = new StatementCache(connection, 0);
        PreparedStatement first = cache.get("SELECT 1");
        cache.release("SELECT 1", first);
        assertThat(first.isClosed()).isTrue();
        PreparedStatement query = cache.get("SELECT 1");
        assertThat(query).isNotSameAs(first);
        query.executeQuery().close();
        cache.done("SELECT 1", query);
        assertThat(query.isClosed()).isTrue();
        assertThat(cache.size()).isZero();
    }

    @Test
    void aStatementThatFailedIsEvictedAndClosedSoTheNextUsePreparesItAgain() throws SQLException {
        StatementCache cache = new StatementCache(connection, 4);
        PreparedStatement s = cache.get("SELECT 1");
        cache.evict("SELECT 1", s);
        assertThat(s.isClosed()).isTrue();
        assertThat(cache.size()).isZero();
        PreparedStatement again = cache.get("SELECT 1");
        assertThat(again).isNotSameAs(s);

        // A statement that is not the cached one for its SQL is closed, and the cached one kept.
        PreparedStatement stray = connection.prepareStatement("SELECT 1");
        cache.evict("SELECT 1", stray);
        assertThat(stray.isClosed()).isTrue();
        assertThat(cache.get("SELECT 1")).isSameAs(again);
    }

    @Test
    void aCachedStatementClosedUnderneathIsPreparedAgain() throws SQLException {
        StatementCache cache = new StatementCache(connection, 4);
        PreparedStatement s = cache.get("SELECT 1");
        s.close();
        PreparedStatement again = cache.get("SELECT 1");
        assertThat(again).isNotSameAs(s);
        assertThat(again.isClosed()).isFalse();
        assertThat(cache.get("SELECT 1")).isSameAs(again);
    }

    @Test
    void aQueryDoneWithItsResultSetKeepsACachedStatementAndClosesAStrayOne() throws SQLException {
        StatementCache cache = new StatementCache(connection, 4);
        PreparedStatement cached = cache.get("SELECT ?");
        cached.setInt(1, 7);
        cached.executeQuery().close();
        cache.done("SELECT ?", cached);
        assertThat(cached.isClosed()).isFalse();
        PreparedStatement stray = connection.prepareStatement("SELECT ?");
        cache.done("SELECT ?", stray);
        assertThat(stray.isClosed()).isTrue();
        assertThat(cache.get("SELECT ?")).isSameAs(cached);
    }

    @Test
    void theMostRecentStatementFoundAgainKeepsTheLeastRecentlyUsedOrder() throws SQLException {
        StatementCache cache = new StatementCache(connection, 2);
        PreparedStatement a = cache.get("SELECT 1");
        PreparedStatement b = cache.get("SELECT 2");
        assertThat(cache.get("SELECT 2")).isSameAs(b); // b again: still the most recent
        assertThat(cache.get("SELECT 1")).isSameAs(a); // a is now the most recent
        assertThat(cache.get("SELECT 1")).isSameAs(a);
        cache.get("SELECT 3");

        assertThat(b.isClosed()).as("b, the least recently used, went out").isTrue();
        assertThat(a.isClosed()).isFalse();
        String sameText = new String("SELECT 1"); // equal, not the same string
        assertThat(cache.get(sameText)).isSameAs(a);
        cache.done(sameText, a);
        assertThat(a.isClosed()).as("still the cached one under an equal text").isFalse();
    }

    /**
     * Random gets, releases, queries done and evictions, with equal texts that are not always
     * the same string, against a plain access-ordered map as the model: the same statements
     * stay cached, in the same order, and every statement that left is closed.
     */
    @Test
    void underAnyMixOfUsesTheCacheHoldsWhatALeastRecentlyUsedMapHolds() throws SQLException {
        int capacity = 3;
        StatementCache cache = new StatementCache(connection, capacity);
        Map<String, PreparedStatement> model = new LinkedHashMap<>(16, 0.75f, true);
        List<PreparedStatement> left = new ArrayList<>();
        Random random = new Random(42);
        String[] texts = {"SELECT 1", "SELECT 2", "SELECT 3", "SELECT 4", "SELECT 5"};
        for (int step = 0; step < 2_000; step++) {
            String text = texts[random.nextInt(texts.length)];
            String sql = random.nextInt(4) == 0 ? new String(text) : text;
            PreparedStatement s = cache.get(sql);
            PreparedStatement cached = model.get(sql);
            if (cached != null) {
                assertThat(s).as("step %d: %s from the cache", step, sql).isSameAs(cached);
            } else {
                model.put(sql, s);
                if (model.size() > capacity) {
                    String eldest = model.keySet().iterator().next();
                    left.add(model.remove(eldest));
                }
            }
            switch (random.nextInt(3)) {
                case 0 -> cache.release(sql, s);
                case 1 -> cache.done(sql, s);
                default -> {
                    if (random.nextInt(10) == 0) {
                        cache.evict(sql, s);
                        model.remove(sql);
                        left.add(s);
                    }
                }
            }
            model.get(sql); // release and done count as a use, as the cache's lookup does
            assertThat(cache.size()).as("step %d", step).isEqualTo(model.size());
        }
        for (PreparedStatement gone : left) {
            assertThat(gone.isClosed()).isTrue();
        }
        for (String text : texts) { // filled to capacity, so that one more text evicts one
            if (model.size() < capacity && !model.containsKey(text)) {
                model.put(text, cache.get(text));
            }
        }
        List<String> order = new ArrayList<>(model.keySet());
        for (String sql : order) { // least recent first; each get keeps it cached
            assertThat(cache.get(sql)).isSameAs(model.get(sql));
            assertThat(cache.get(sql).isClosed()).isFalse();
        }
        PreparedStatement newest = cache.get("SELECT 99");
        assertThat(model.get(order.get(0)).isClosed())
                .as("the least recently used of the model went out first").isTrue();
        assertThat(newest.isClosed()).isFalse();
    }

    @Test
    void closingTheCacheClosesEveryStatementInIt() throws SQLException {
        StatementCache cache = new StatementCache(connection, 4);
        PreparedStatement a = cache.get("SELECT 1");
        PreparedStatement b = cache.get("SELECT 2");
        cache.close();
        assertThat(a.isClosed()).isTrue();
        assertThat(b.isClosed()).isTrue();
        assertThat(cache.size()).isZero();
    }
}
