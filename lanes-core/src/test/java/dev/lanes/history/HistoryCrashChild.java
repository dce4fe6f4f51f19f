package dev.lanes.history;

import dev.lanes.Database;
import dev.lanes.DatabaseOptions;
import dev.lanes.Lanes;
import dev.lanes.Synchronous;
import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The child process of {@link ListAppendCrashTest}: runs the list-append workload on a database
 * until it is killed, streaming its history to stdout ({@link HistoryCodec}). An operation's
 * invocation line is flushed before the operation reaches Lanes, so the parent knows of every
 * operation that may have taken effect. Arguments: database path, {@code plain} or {@code cork},
 * seed. With {@code cork}, the corker cycles and then corks for good, so the kill comes while
 * corked. Logging goes to stderr. Exits on its own after two minutes should no kill come.
 */
public final class HistoryCrashChild {
    /** Cork cycles before the cork that is never uncorked. */
    static final int CORK_EPOCHS = 3;
    static final int CORK_EVERY = 150;

    private HistoryCrashChild() {}

    public static void main(String[] args) throws Exception {
        Path path = Path.of(args[0]);
        boolean cork = args[1].equals("cork");
        long seed = Long.parseLong(args[2]);
        PrintStream out = new PrintStream(new BufferedOutputStream(
                new FileOutputStream(FileDescriptor.out), 1 << 16), false, StandardCharsets.UTF_8);
        ReentrantLock outLock = new ReentrantLock();
        ListAppendWorkload.Listener stream = new ListAppendWorkload.Listener() {
            @Override
            public void invoked(Op pending) {
                print(HistoryCodec.invoked(pending));
            }

            @Override
            public void completed(Op done) {
                print(HistoryCodec.completed(done));
            }

            private void print(String line) {
                outLock.lock();
                try {
                    out.println(line);
                    out.flush();
                } finally {
                    outLock.unlock();
                }
            }
        };
        Lanes lanes = Lanes.builder().name("history-crash").maxThreads(8).build();
        Database db = lanes.open(path, DatabaseOptions.builder().synchronous(Synchronous.NORMAL)
                .maxGroupSize(64).writeQueueCapacity(1024).build());
        ListAppendWorkload.createSchema(db);
        ListAppendWorkload.Config config = ListAppendWorkload.Config.defaults()
                .withClients(12, Integer.MAX_VALUE).withSeed(seed);
        if (cork) {
            config = config.withCork(CORK_EVERY, CORK_EPOCHS, true);
        }
        new ListAppendWorkload(db, config, stream).run(120);
        System.exit(3); // not killed in time: the parent reports it
    }
}
