package dev.lanes.cli.inspect;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lanes.LeaseStatus;
import java.io.Console;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code lanes inspect --watch}: samples a live database every interval ({@link WatchSample})
 * and shows it, rewritten in place on a terminal, one line per sample otherwise, or one JSON
 * object per line with {@code --json}. Reads only, like the rest of {@code inspect}.
 */
final class Watch {
    private static final String ROW = "%-14s %s";
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("HH:mm:ss.SSS", Locale.ROOT);

    private Watch() {}

    /** How samples are shown. */
    interface Screen {
        void show(WatchSample sample);
    }

    /**
     * Samples {@code database} {@code count} times (0: until interrupted, as by Ctrl-C), {@code
     * interval} apart, onto {@code screen}.
     */
    static void run(Path database, Duration interval, long count, Screen screen)
            throws IOException {
        for (long n = 1; count == 0 || n <= count; n++) {
            screen.show(WatchSample.take(database));
            if (count != 0 && n == count) {
                return;
            }
            try {
                Thread.sleep(Math.max(1, interval.toMillis()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Whether standard output is a terminal, so that the screen may move the cursor. */
    static boolean onTerminal() {
        Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            // JDK 22+ returns a console for redirected output too; isTerminal() tells them apart
            return (Boolean) Console.class.getMethod("isTerminal").invoke(console);
        } catch (ReflectiveOperationException e) {
            return true; // before JDK 22 a console exists only on a terminal
        }
    }

    /** The rows a person reads, label and value. */
    static List<String[]> rows(Path database, WatchSample s) {
        return List.of(
                new String[] {"time", TIME.format(s.at().atZone(ZoneId.systemDefault()))},
                new String[] {"database", database + ", " + bytes(s.fileBytes())},
                new String[] {"WAL", wal(s)},
                new String[] {"checkpoints", checkpoints(s.walIndex())},
                new String[] {"lease", lease(s.lease())});
    }

    private static String wal(WatchSample s) {
        if (s.walModified() == null) {
            return "none";
        }
        Duration age = Duration.between(s.walModified(), s.at());
        return bytes(s.walBytes()) + ", changed " + String.format(Locale.ROOT, "%.1f s",
                Math.max(0, age.toMillis()) / 1000.0) + " ago";
    }

    private static String checkpoints(WalIndex index) {
        if (index == null) {
            return "unknown (no wal-index, or it changed while read)";
        }
        if (index.backlogFrames() == 0) {
            return String.format(Locale.ROOT, "caught up: %,d of %,d frames in the database file",
                    index.checkpointedFrames(), index.walFrames());
        }
        return String.format(Locale.ROOT, "%,d of %,d frames in the database file, %,d behind "
                + "(%s)", index.checkpointedFrames(), index.walFrames(), index.backlogFrames(),
                bytes(index.backlogFrames() * index.pageSize()));
    }

    static String lease(LeaseStatus lease) {
        if (!lease.lockFileExists()) {
            return "not held (no lock file)";
        }
        if (lease.held()) {
            return "held" + (lease.holderPid() == null ? "" : " by process " + lease.holderPid());
        }
        return "not held";
    }

    private static String bytes(long bytes) {
        return String.format(Locale.ROOT, "%,d bytes", bytes);
    }

    /** One line per sample, for logs and pipes. */
    static Screen lines(Path database, PrintWriter out) {
        return s -> {
            StringBuilder line = new StringBuilder();
            for (String[] row : rows(database, s)) {
                if (row[0].equals("database")) {
                    continue; // the same on every line
                }
                if (line.length() > 0) {
                    line.append("  ");
                }
                line.append(row[0].equals("time") ? row[1] : row[0] + " " + row[1]);
            }
            out.println(line);
            out.flush();
        };
    }

    /**
     * The rows rewritten in place: after the first sample, the cursor goes back up over them
     * ({@code ESC[nA}) and each row is cleared ({@code ESC[2K}) before it is printed again.
     */
    static Screen inPlace(Path database, PrintWriter out, Duration interval) {
        return new Screen() {
            private int shown;

            @Override
            public void show(WatchSample s) {
                List<String[]> rows = rows(database, s);
                StringBuilder frame = new StringBuilder();
                if (shown > 0) {
                    frame.append("\u001b[").append(shown).append('A');
                } else {
                    frame.append("lanes inspect --watch, every ").append(interval.toMillis())
                            .append(" ms; Ctrl-C stops").append(System.lineSeparator());
                }
                for (String[] row : rows) {
                    frame.append("\u001b[2K").append(String.format(Locale.ROOT, ROW, row[0],
                            row[1])).append(System.lineSeparator());
                }
                shown = rows.size();
                out.print(frame);
                out.flush();
            }
        };
    }

    /** One JSON object per sample and line, for scripts; times in ISO-8601. */
    static Screen json(PrintWriter out) {
        ObjectMapper mapper = new ObjectMapper();
        return s -> {
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("at", s.at().toString());
            fields.put("fileBytes", s.fileBytes());
            fields.put("walBytes", s.walBytes());
            fields.put("walModified", s.walModified() == null ? null : s.walModified().toString());
            fields.put("walIndex", s.walIndex());
            fields.put("lease", s.lease());
            try {
                out.println(mapper.writeValueAsString(fields));
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            out.flush();
        };
    }
}
