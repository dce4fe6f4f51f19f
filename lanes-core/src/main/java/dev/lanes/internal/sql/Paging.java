package dev.lanes.internal.sql;

/**
 * How a JDBC statement reads a result: in pages of at most {@link #pageRows()} rows and about
 * {@link #PAGE_BYTES} (as {@code maxResultBytes} counts them, and never more than that limit),
 * and, once a read returned its first page, {@link #rest()}: the pages still to come, or null
 * when the first page held the whole result. A backend that cannot stream (a cluster, a read on
 * the lane while corked) reads the whole result and leaves {@code rest} null.
 *
 * <p>It also says whether the first page reads its columns' declared types ({@link
 * #declaredTypes()}): a data source that can find them later, when they are asked for, skips
 * them for a text whose results were never asked (see {@link ResultData#declaredTypes()}).
 *
 * <p>Owned by one statement, whose user is one thread at a time; reused across its executions,
 * so that a read costs no object of its own here.
 */
public final class Paging {
    /**
     * A page's byte budget when {@code maxResultBytes} is larger: 4 MiB of values. A result up to
     * this size comes in one page and gives its reader back at once, as every result did before
     * results streamed; a larger one streams in pages of this size, so the memory a result set
     * holds stays bounded without a caller having to choose a fetch size.
     */
    public static final long PAGE_BYTES = 4L << 20;

    private int pageRows = Integer.MAX_VALUE;
    private ResultPages rest;
    private boolean declaredTypes = true;

    /** At most this many rows in the first page; {@link Integer#MAX_VALUE} for the byte budget only. */
    public int pageRows() {
        return pageRows;
    }

    public void pageRows(int rows) {
        this.pageRows = rows > 0 ? rows : Integer.MAX_VALUE;
    }

    /** The pages after the first one, or null when it held the whole result. */
    public ResultPages rest() {
        return rest;
    }

    public void rest(ResultPages pages) {
        this.rest = pages;
    }

    /** Whether the read reads its columns' declared types; true unless set otherwise. */
    public boolean declaredTypes() {
        return declaredTypes;
    }

    public void declaredTypes(boolean read) {
        this.declaredTypes = read;
    }

    /** A page's byte budget under {@code maxResultBytes}. */
    public static long pageBytes(long maxResultBytes) {
        return Math.min(maxResultBytes, PAGE_BYTES);
    }
}
