package dev.lanes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The tests' runtime extension ({@link TestRuntime}) itself, driven through its callbacks as
 * JUnit drives them: it closes what a test started and deletes its directory, and it fails the
 * test whose runtime did not close in time or that left a non-daemon thread running.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TestRuntimeTest {
    /** The one thing {@link TestRuntime#beforeEach} asks of the context: the test class. */
    private static final ExtensionContext CONTEXT = (ExtensionContext) Proxy.newProxyInstance(
            ExtensionContext.class.getClassLoader(), new Class<?>[] {ExtensionContext.class},
            (proxy, method, args) -> {
                if (method.getName().equals("getRequiredTestClass")) {
                    return TestRuntimeTest.class;
                }
                throw new UnsupportedOperationException(method.getName());
            });

    /** Starts a thread that waits for {@code stop}. */
    private static Thread waitingFor(CountDownLatch stop, String name, boolean daemon) {
        Thread t = new Thread(() -> {
            try {
                stop.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, name);
        t.setDaemon(daemon);
        t.start();
        return t;
    }

    @Test
    void aCleanTestGetsItsRuntimeOnFirstUseAndLeavesNothingBehind() throws Exception {
        TestRuntime runtime = TestRuntime.builder().name("clean").maxThreads(2).build();
        runtime.beforeEach(CONTEXT);
        Path dir = runtime.dir();
        assertThat(dir).isDirectory();
        Database db = runtime.openWithTable("a.db");
        db.execute("INSERT INTO t(v) VALUES ('x')");
        assertThat(runtime.lanes()).as("one runtime per test").isSameAs(runtime.lanes());
        assertThat(db.path()).isEqualTo(runtime.path("a.db").toRealPath());
        Lanes other = runtime.another();
        Database elsewhere = other.open(runtime.path("b.db"));
        assertThatThrownBy(() -> runtime.start(Lanes.builder()))
                .isInstanceOf(IllegalStateException.class);

        runtime.afterEach(CONTEXT);

        assertThat(db.state()).isEqualTo(DatabaseState.CLOSED);
        assertThat(elsewhere.state()).isEqualTo(DatabaseState.CLOSED);
        assertThat(Files.exists(dir)).as("the directory is deleted").isFalse();
    }

    @Test
    void aTestWhoseRuntimeDidNotCloseInTimeFails() throws Exception {
        TestRuntime runtime = TestRuntime.create();
        runtime.beforeEach(CONTEXT);
        Database db = runtime.openWithTable("stuck.db", DatabaseOptions.builder()
                .closeTimeout(Duration.ofMillis(50)).build());
        TestLanes.Blocker blocker = TestLanes.block(db); // a write the test never released
        try {
            assertThatThrownBy(() -> runtime.afterEach(CONTEXT))
                    .isInstanceOf(AssertionError.class)
                    .hasMessageContaining("did not close cleanly")
                    .hasCauseInstanceOf(CloseTimeoutException.class);
        } finally {
            blocker.release();
        }
        TestLanes.awaitTrue("the close to finish once released",
                () -> db.state() == DatabaseState.CLOSED);
    }

    @Test
    void aTestThatLeftANonDaemonThreadRunningFailsNamingIt() throws Exception {
        TestRuntime runtime = TestRuntime.builder().threadGrace(Duration.ofMillis(100)).build();
        runtime.beforeEach(CONTEXT);
        CountDownLatch stop = new CountDownLatch(1);
        Thread leaked = waitingFor(stop, "leaked-by-the-test", false);
        try {
            assertThatThrownBy(() -> runtime.afterEach(CONTEXT))
                    .isInstanceOf(AssertionError.class)
                    .hasMessageContaining("non-daemon threads")
                    .hasMessageContaining("leaked-by-the-test");
        } finally {
            stop.countDown();
            leaked.join(TestLanes.WAIT.toMillis());
        }
    }

    @Test
    void aDaemonThreadOrOneThatEndsSoonIsNoLeak() throws Exception {
        TestRuntime runtime = TestRuntime.builder().threadGrace(Duration.ofSeconds(10)).build();
        runtime.beforeEach(CONTEXT);
        CountDownLatch stop = new CountDownLatch(1);
        waitingFor(stop, "daemon-of-the-test", true);
        Thread ending = new Thread(() -> {}, "ends-at-once");
        ending.start();
        try {
            assertThatCode(() -> runtime.afterEach(CONTEXT)).doesNotThrowAnyException();
        } finally {
            stop.countDown();
        }
    }

    @Test
    void theRuntimeIsUsableOnlyInsideATest() {
        TestRuntime runtime = TestRuntime.create();
        assertThatThrownBy(runtime::lanes).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("@RegisterExtension");
        assertThatThrownBy(runtime::clock).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("system clock");
    }
}
