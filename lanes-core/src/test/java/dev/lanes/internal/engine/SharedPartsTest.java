package dev.lanes.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.TestRuntime;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * From inside: what many idle databases need not keep a copy each of is
 * shared, and what they may never use is made once, on first use, the same for every caller.
 * {@code IdleFootprintTest} holds the bytes; this holds that sharing changes nothing a caller
 * sees.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SharedPartsTest {
    @RegisterExtension final TestRuntime runtime = TestRuntime.create();

    @Test
    void databasesOpenedWithEqualOptionsShareOneInstanceAndKeepTheirValues() {
        DatabaseOptions first = DatabaseOptions.builder().readers(2)
                .busyTimeout(Duration.ofMillis(700)).build();
        DatabaseOptions equal = DatabaseOptions.builder().readers(2)
                .busyTimeout(Duration.ofMillis(700)).build();
        DatabaseOptions other = DatabaseOptions.builder().readers(3).build();
        DatabaseImpl a = (DatabaseImpl) runtime.open("a.db", first);
        DatabaseImpl b = (DatabaseImpl) runtime.open("b.db", equal);
        DatabaseImpl c = (DatabaseImpl) runtime.open("c.db", other);
        DatabaseImpl d = (DatabaseImpl) runtime.lanes().open(runtime.path("d.db"));
        DatabaseImpl e = (DatabaseImpl) runtime.lanes().open(runtime.path("e.db"));

        assertThat(b.options()).isSameAs(a.options()).isEqualTo(equal);
        assertThat(c.options()).isEqualTo(other).isNotEqualTo(first);
        assertThat(e.options()).as("the defaults, built once").isSameAs(d.options())
                .isEqualTo(DatabaseOptions.builder().build());
        assertThat(b.diagnostics().readers().readers()).isEqualTo(2);
        assertThat(c.diagnostics().readers().readers()).isEqualTo(3);
        // an open of an open database still compares with what it was opened with
        assertThat(runtime.lanes().open(runtime.path("b.db"), first)).isSameAs(b);
    }

    @Test
    void everyCallerGetsTheSameDataSourceWhenManyAskFirstAtOnce() throws Exception {
        Database db = runtime.open("jdbc.db");
        int threads = 8;
        CyclicBarrier start = new CyclicBarrier(threads);
        CountDownLatch done = new CountDownLatch(threads);
        Set<DataSource> seen = ConcurrentHashMap.newKeySet();
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(() -> {
                try {
                    start.await();
                    seen.add(db.dataSource());
                } catch (Exception ex) {
                    throw new IllegalStateException(ex);
                } finally {
                    done.countDown();
                }
            });
            t.start();
        }
        done.await();
        assertThat(seen).hasSize(1);
        assertThat(seen).containsExactly(db.dataSource());
        try (var c = db.dataSource().getConnection();
                var s = c.createStatement();
                var rs = s.executeQuery("SELECT 41 + 1")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getInt(1)).isEqualTo(42);
        }
    }
}
