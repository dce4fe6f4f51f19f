package dev.lanes.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.Function;

/**
 * {@link PinnedEvents} against virtual threads that do and do not pin: a virtual thread that
 * blocks inside a SQL function, which SQLite's native code calls back into Java, cannot leave its
 * carrier (still so on JDK 24+, where {@code synchronized} no longer pins); one that sleeps in
 * plain Java code can. Needs JDK 21+.
 */
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class PinnedEventsTest {
    @TempDir
    Path dir;

    private ThreadFactory virtual;

    @BeforeEach
    void virtualThreads() {
        virtual = VirtualThreads.factory();
        assumeTrue(virtual != null, "no virtual threads before JDK 21");
    }

    @Test
    void aVirtualThreadBlockedUnderNativeCodeIsCounted() throws Exception {
        try (Connection c = connectionWithPause();
                PinnedEvents pinned = PinnedEvents.start(dir.resolve("pinned.jfr"))) {
            Instant from = Instant.now();
            runOnVirtualThread(() -> pause(c));

            assertThat(pinned.countWithin(from, Instant.now())).isPositive();
        }
        assertThat(dir).isEmptyDirectory();
    }

    @Test
    void aVirtualThreadThatParksInJavaIsNot() throws Exception {
        try (PinnedEvents pinned = PinnedEvents.start(dir.resolve("free.jfr"))) {
            Instant from = Instant.now();
            runOnVirtualThread(() -> Thread.sleep(2));

            assertThat(pinned.countWithin(from, Instant.now())).isZero();
        }
    }

    @Test
    void onlyTheEventsOfTheWindowCount() throws Exception {
        try (Connection c = connectionWithPause();
                PinnedEvents pinned = PinnedEvents.start(dir.resolve("before.jfr"))) {
            runOnVirtualThread(() -> pause(c));
            // the window opens after the pinned call returned
            Instant from = Instant.now();

            assertThat(pinned.countWithin(from, from.plusSeconds(60))).isZero();
        }
    }

    /** A connection with {@code pause()}, a SQL function that sleeps 2 ms in Java. */
    private static Connection connectionWithPause() throws SQLException {
        Connection c = DriverManager.getConnection("jdbc:sqlite::memory:");
        Function.create(c, "pause", new Function() {
            @Override
            protected void xFunc() throws SQLException {
                try {
                    Thread.sleep(2);
                } catch (InterruptedException e) {
                    throw new SQLException(e);
                }
                result(1);
            }
        });
        return c;
    }

    /** Runs {@code pause()}: SQLite's native code calls the function, which then sleeps. */
    private static void pause(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT pause()")) {
            rs.next();
        }
    }

    /** Something a virtual thread does, which may throw. */
    @FunctionalInterface
    private interface Body {
        void run() throws Exception;
    }

    private void runOnVirtualThread(Body body) throws Exception {
        AtomicReference<Exception> failure = new AtomicReference<>();
        Thread t = virtual.newThread(() -> {
            try {
                body.run();
            } catch (Exception e) {
                failure.set(e);
            }
        });
        t.start();
        t.join();
        if (failure.get() != null) {
            throw failure.get();
        }
    }
}
