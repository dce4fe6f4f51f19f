package dev.lanes;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.slf4j.LoggerFactory;

/**
 * What the runtime logs under some of its logger names while the capture is open, for tests
 * that assert on the log. The runtime logs under concept names ({@link #RUNTIME_LOGGERS}), never
 * class names, so a test names the concept it watches:
 *
 * <pre>{@code
 * try (LogCapture log = LogCapture.of("dev.lanes.writer")) {
 *     ...
 *     assertThat(log.messages(Level.WARN)).anyMatch(m -> m.contains("slow write"));
 * }
 * }</pre>
 *
 * <p>Events are appended on whichever thread logs and read by the test: the list is
 * copy-on-write.
 */
public final class LogCapture implements AutoCloseable {
    /**
     * Every logger name of the runtime, as docs/operations.md lists them; {@code LogNamesTest}
     * holds them to the runtime's own list.
     */
    public static final List<String> RUNTIME_LOGGERS = List.of("dev.lanes.writer",
            "dev.lanes.reads", "dev.lanes.pool", "dev.lanes.lifecycle", "dev.lanes.files",
            "dev.lanes.notify", "dev.lanes.metrics", "dev.lanes.jdbc");

    private final List<Logger> loggers = new ArrayList<>();
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
    private boolean quiet;

    private LogCapture(List<String> names) {
        appender.list = new CopyOnWriteArrayList<>();
        appender.start();
        for (String name : names) {
            if (!RUNTIME_LOGGERS.contains(name)) {
                throw new IllegalArgumentException(name + " is not one of the runtime's logger "
                        + "names " + RUNTIME_LOGGERS);
            }
            Logger logger = (Logger) LoggerFactory.getLogger(name);
            logger.addAppender(appender);
            loggers.add(logger);
        }
    }

    /** Starts capturing what is logged under {@code names}, each of {@link #RUNTIME_LOGGERS}. */
    public static LogCapture of(String... names) {
        return new LogCapture(List.of(names));
    }

    /** Starts capturing everything the runtime logs. */
    public static LogCapture everything() {
        return new LogCapture(RUNTIME_LOGGERS);
    }

    /** Keeps the captured events off the console (they are expected, and noisy). */
    public LogCapture quiet() {
        quiet = true;
        loggers.forEach(l -> l.setAdditive(false));
        return this;
    }

    /** Everything captured so far, in order. */
    public List<ILoggingEvent> events() {
        return appender.list;
    }

    /** The formatted messages captured at exactly {@code level}, in order. */
    public List<String> messages(Level level) {
        return appender.list.stream().filter(e -> e.getLevel() == level)
                .map(ILoggingEvent::getFormattedMessage).collect(Collectors.toList());
    }

    /**
     * The events at {@code level} about database {@code db} (the runtime's messages start with
     * its name and a colon) whose message contains {@code text}, in order.
     */
    public List<ILoggingEvent> events(Level level, String db, String text) {
        return appender.list.stream().filter(e -> e.getLevel() == level)
                .filter(e -> e.getFormattedMessage().startsWith(db + ": ")
                        && e.getFormattedMessage().contains(text))
                .collect(Collectors.toList());
    }

    /** Forgets what was captured so far. */
    public void clear() {
        appender.list.clear();
    }

    @Override
    public void close() {
        for (Logger l : loggers) {
            l.detachAppender(appender);
            if (quiet) {
                l.setAdditive(true);
            }
        }
        appender.stop();
    }
}
