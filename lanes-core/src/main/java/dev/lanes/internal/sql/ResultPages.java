package dev.lanes.internal.sql;

import dev.lanes.Row;
import java.util.List;

/**
 * The rest of a query's result that did not fit in its first page: the statement is still open
 * on the reader that ran it, which is held, with its snapshot, until the last page was read or
 * {@link #close()} is called. Every page comes from that one statement, so the whole result is
 * one consistent snapshot.
 *
 * <p>One user fetches pages at a time (a JDBC result set's); {@link #close()} may come from any
 * thread, also while a page is being fetched (it then waits for that page).
 */
public interface ResultPages {
    /**
     * The next page: at most {@code maxRows} rows, and no more than the page's byte budget (at
     * least one row); empty once the result ended or was closed. The reader goes back as soon as
     * the last row was read, or when fetching fails.
     *
     * @throws dev.lanes.LanesException when the page could not be read (a deadline, SQLite's
     *     error), or the database's close ended the pages before the result ended ({@link
     *     dev.lanes.ClosedException}); the reader went back
     */
    List<Row> next(int maxRows);

    /**
     * Whether rows may follow the pages read so far: false once ended or closed by their user;
     * true after the database's close ended them early, since rows were left unread.
     */
    boolean more();

    /** Closes the statement and gives the reader back; idempotent, from any thread. */
    void close();

    /**
     * {@link #close()} for pages whose user was found unreachable without having closed them (a
     * cleaner calls it): warns that the reader was held all that time. A no-op once ended.
     */
    void leaked();
}
