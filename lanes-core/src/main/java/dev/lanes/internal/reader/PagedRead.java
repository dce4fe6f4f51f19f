package dev.lanes.internal.reader;

import dev.lanes.ClosedException;
import dev.lanes.LanesException;
import dev.lanes.Row;
import dev.lanes.internal.guard.ConnectionGuard;
import dev.lanes.internal.sql.Paging;
import dev.lanes.internal.sql.ResultData;
import dev.lanes.internal.sql.ResultPages;
import dev.lanes.internal.sql.Rows;
import dev.lanes.internal.sql.text.StatementShape;
import dev.lanes.internal.sql.Statements;
import dev.lanes.internal.util.LogNames;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A JDBC query read in pages: one statement, so one snapshot. Its first page runs as every read
 * does ({@link Reads#run}: admitted, on the caller's platform thread or the pool's, within the
 * read's deadline). When the result ends within that page, the statement is reset and the reader
 * goes back at once, exactly as a whole-result query: nothing more is made for a small result.
 * When rows remain, the read {@link #keep keeps} its lease with the statement open and the
 * deadline still armed, and hands {@link Open} to {@link Paging#rest}: each later page steps the
 * same statement on a platform thread ({@link OnPlatform}), and the lease ends ({@link
 * Reads#end}) when the last row was read, a page failed, {@link Open#close()} was called, or a
 * close of the database that does not wait for it {@linkplain Open#abort aborted} it (then the
 * next page fails with {@link ClosedException}: rows were left unread). The
 * deadline covers the whole stream: the progress handler stops a page that runs past it, and a
 * page asked for after it fails at once, {@code ROLLED_BACK}, as a read stopped by its deadline.
 *
 * <p>A page holds at most its row count and about its byte budget ({@code maxResultBytes} or
 * {@link Paging#PAGE_BYTES}, the smaller, counted as {@code maxResultBytes} counts), at least one
 * row; so {@code maxResultBytes} bounds a page, never the whole streamed result, as it does not
 * bound {@code db.stream}.
 *
 * <h2>Concurrency</h2>
 * This object is confined to the thread that runs the first page until {@link #keep} returns.
 * Kept, {@link Open} reaches its user through the read's return (the same thread, or the future
 * of the pool hand-off); from then on {@link #rs} and {@link #onRow} are touched only while
 * holding {@link Open#lock}: by the page fetches of the one user (on its platform thread or the
 * pool's) and by {@link Open#close()} and {@link Open#abort}, which may come from any thread
 * (another user, a cleaner, the database's close) and then wait for a page in progress. The
 * lock orders one thread's use of the reader connection before the next one's. {@link Open#open}
 * and {@link Open#aborted} are volatile, written under the lock, so that {@link Open#more()}, a
 * page asked for after the end, and a close of an ended read need no lock. While open, it is
 * registered with its {@link ReaderSet} ({@link ReadAborts#held}).
 */
public final class PagedRead implements ReadWork<ResultData>, ResultData.RowReader {
    private static final Logger log = LoggerFactory.getLogger(LogNames.READS);

    private final Reads reads;
    private final String sql;
    private final Object[] args;
    private final Paging paging;
    /** Told how long the reader was held, once a kept lease ended; null for no one. */
    private final LongConsumer ended;

    // the first page's thread, then under Open.lock
    private ResultSet rs;
    private List<String> columns;
    /** Whether {@link #rs} stands on a row not read yet (the first of the next page). */
    private boolean onRow;

    PagedRead(Reads reads, String sql, Object[] args, Paging paging, LongConsumer ended) {
        this.reads = reads;
        this.sql = sql;
        this.args = args;
        this.paging = paging;
        this.ended = ended;
    }

    @Override
    public boolean transactional() {
        return false; // one statement: its own snapshot, held while it is open
    }

    @Override
    public ResultData run(ReaderConnection c, ConnectionGuard.StopCheck stop) throws Exception {
        ResultSet r = Statements.openQuery(c.cache, sql, args);
        try {
            ResultData first = ResultData.read(r, this);
            if (onRow) {
                rs = r; // kept open for the next page
            } else {
                Statements.closeQuery(c.cache, sql, r, false);
            }
            return first;
        } catch (SQLException | RuntimeException | Error e) {
            Statements.closeQuery(c.cache, sql, r, true);
            throw e;
        }
    }

    /** The first page's rows, for {@link ResultData#read(ResultSet, ResultData.RowReader)}. */
    @Override
    public List<Row> read(ResultSet r, List<String> labels) throws SQLException {
        columns = labels;
        return page(r, paging.pageRows());
    }

    /** Whether the first page reads the declared types: as {@link Paging} says. */
    @Override
    public boolean declaredTypes() {
        return paging.declaredTypes();
    }

    @Override
    public boolean keep(Lease lease, long token, ReadLimits limits) {
        if (rs == null) {
            return false;
        }
        Open open = new Open(lease, limits);
        reads.readers().aborts().held(open);
        paging.rest(open);
        return true;
    }

    /** Reads one page: up to {@code maxRows} rows and about the byte budget, at least one. */
    private List<Row> page(ResultSet r, int maxRows) throws SQLException {
        long pageBytes = Paging.pageBytes(reads.maxResultBytes());
        int n = columns.size();
        List<Row> rows = new ArrayList<>();
        long bytes = 0;
        boolean more = onRow || r.next();
        while (more) {
            Object[] values = Rows.values(r, n);
            bytes += Rows.sizeOf(values);
            rows.add(Row.of(columns, values));
            more = r.next();
            if (rows.size() >= maxRows || bytes >= pageBytes) {
                break;
            }
        }
        onRow = more;
        return rows;
    }

    /**
     * The pages after the first: the kept lease, until the result ends or is closed, or a close
     * of the database that cannot wait for it {@linkplain #abort aborts} it.
     */
    private final class Open implements ResultPages, ReadAborts.HeldRead {
        private final Lease lease;
        /** The lease's connection while open; under lock (null once ended). */
        private ReaderConnection connection;
        private final ReadLimits limits;
        private final ReentrantLock lock = new ReentrantLock();
        private volatile boolean open = true;
        /** Why the database's close ended the pages; null unless it did. Written under lock. */
        private volatile String aborted;

        Open(Lease lease, ReadLimits limits) {
            this.lease = lease;
            this.connection = lease.connection;
            this.limits = limits;
        }

        @Override
        public List<Row> next(int maxRows) {
            if (!open) {
                return ended();
            }
            return OnPlatform.call(reads, reads.pool(), reads.name(), () -> fetch(maxRows));
        }

        /**
         * What a page asked for after the end is: none, or, when the database's close ended the
         * pages before the result did, a failure, since rows were left unread.
         */
        private List<Row> ended() {
            String why = aborted;
            if (why != null) {
                throw new ClosedException(reads.name() + ": " + why + " while this result was "
                        + "open; its reader went back, and the rows after those already read "
                        + "were not read");
            }
            return List.of();
        }

        private List<Row> fetch(int maxRows) {
            lock.lock();
            try {
                if (!open) {
                    return ended(); // closed or aborted from another thread meanwhile
                }
                // A deadline that passed between pages: the progress handler might not run in a
                // short page, so it is checked here too.
                boolean stopped = connection.currentStopReason() != ReaderConnection.RUNNING;
                List<Row> rows = List.of();
                Throwable failure = null;
                if (!stopped) {
                    try {
                        rows = page(rs, maxRows);
                    } catch (SQLException | RuntimeException | Error e) {
                        failure = e;
                    }
                }
                if (stopped || failure != null || !onRow) {
                    finish(stopped || failure != null, failure); // throws when it failed
                }
                return rows;
            } finally {
                lock.unlock();
            }
        }

        /**
         * Under lock: ends the statement and the lease. Throws the read's failure (or its stop)
         * as {@link Reads#end} does.
         */
        private void finish(boolean failed, Throwable failure) {
            open = false;
            reads.readers().aborts().released(this);
            ReaderConnection c = connection;
            Statements.closeQuery(c.cache, sql, rs, failed);
            rs = null;
            connection = null;
            long held = reads.clock().nanoTime() - lease.acquiredAt;
            try {
                reads.end(lease, c, false, null, failure, limits);
            } finally {
                if (ended != null) {
                    ended.accept(held);
                }
            }
        }

        /**
         * Whether rows may follow: while open, and after the database's close aborted the pages,
         * when rows were left unread and asking for them fails ({@link #ended}).
         */
        @Override
        public boolean more() {
            return open || aborted != null;
        }

        @Override
        public void close() {
            closeOnPlatform(null);
        }

        /**
         * Closes pages their user never closed, found unreachable (by a cleaner, on a platform
         * thread): says so, since they held a reader and its snapshot all that time.
         */
        @Override
        public void leaked() {
            if (!open) {
                return;
            }
            log.warn("{}: a JDBC result set of '{}' was never closed; its reader, held {} ms, "
                    + "goes back now that the result set was garbage collected. Close result sets "
                    + "(or their statements) when done", reads.name(), StatementShape.shorten(sql),
                    TimeUnit.NANOSECONDS.toMillis(reads.clock().nanoTime() - lease.acquiredAt));
            closeNow(null);
        }

        @Override
        public void abort(String why) {
            closeOnPlatform(why);
        }

        /** {@link #closeNow} from any thread: SQLite runs on a platform one. */
        private void closeOnPlatform(String why) {
            if (!open) {
                return;
            }
            OnPlatform.call(reads, reads.pool(), reads.name(), () -> {
                closeNow(why);
                return null;
            });
        }

        /**
         * Ends the pages for a closer, who asks for no rows; {@code why} is the database's close
         * that ended them, or null for their user's close or a cleaner's.
         */
        private void closeNow(String why) {
            lock.lock();
            try {
                if (!open) {
                    return;
                }
                aborted = why;
                try {
                    finish(false, null);
                } catch (LanesException e) {
                    // past its deadline when closed: the reader went back, and the closer asked
                    // for no rows
                }
            } finally {
                lock.unlock();
            }
        }

        @Override
        public String toString() {
            return "ResultPages[" + reads.name() + ", " + (open ? "open" : "ended") + "]";
        }
    }
}
