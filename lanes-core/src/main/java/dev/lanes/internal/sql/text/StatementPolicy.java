package dev.lanes.internal.sql.text;

import dev.lanes.internal.sql.text.StatementShape.Part;

/**
 * What may run at each place a statement text can run, as the {@link Rule}s it is admitted by.
 * Every entry point finds the shape of its text once ({@link Shapes#of}) and admits it with the
 * policy of its place, before anything is queued or prepared; the rules are checked in one order
 * everywhere: {@link Rule#NO_STATEMENT} (but where a script runs statement by statement: none
 * at all runs nothing), then each statement's rules ({@link Rule#WRITE_ON_READER} on a reader,
 * then transaction control, {@code ATTACH}, {@code VACUUM INTO}, the pragmas, a cluster's {@code
 * RETURNING} and {@code wal_checkpoint}), then {@link Rule#DRIVER_COMMAND}, {@link Rule#NUL} and {@link
 * Rule#LONE_SURROGATE}, then {@link Rule#SEVERAL_STATEMENTS} where one statement runs, then
 * {@link Rule#RETURNS_ROWS} where rows are not read. A text that breaks several rules is refused
 * by the first; every path refuses it.
 *
 * <table>
 *   <caption>The places</caption>
 *   <tr><th>policy</th><th>entry points</th></tr>
 *   <tr><td>{@link #WRITER}</td><td>{@code db.execute}, each statement of {@code db.executeBatch}
 *       (and of a data source's batch), {@code tx.execute}</td></tr>
 *   <tr><td>{@link #WRITE_BODY}</td><td>what a write or maintenance body (or {@code tx.run}) runs
 *       with {@code execute}, {@code executeQuery}, {@code addBatch} and {@code prepare…}; {@code
 *       tx.query}; the data source's statements on the writer (auto-commit writes, a read-write
 *       transaction); a cluster's {@code tx.query}</td></tr>
 *   <tr><td>{@link #SCRIPT}</td><td>{@code db.executeScript}, which runs its statements one by
 *       one (a script without any runs nothing)</td></tr>
 *   <tr><td>{@link #BODY_SCRIPT}</td><td>a write or maintenance body's {@code
 *       Statement.executeUpdate(String)}, which the driver runs whole</td></tr>
 *   <tr><td>{@link #READER}</td><td>{@code db.query} and its forms, {@code db.stream}, what a read
 *       body runs, the data source's reads (auto-commit, a read-only transaction), a cluster's
 *       reads</td></tr>
 *   <tr><td>{@link #READ_SCRIPT}</td><td>a read body's {@code
 *       Statement.executeUpdate(String)}</td></tr>
 *   <tr><td>{@link #READ_BATCH}</td><td>each statement of a batch in a data source's read-only
 *       transaction (a batch reads no rows, and may not write there)</td></tr>
 *   <tr><td>{@link #CLUSTER_WRITER}</td><td>on a cluster: {@code db.execute}, each statement of a
 *       batch, {@code tx.execute}, the data source's auto-commit writes</td></tr>
 *   <tr><td>{@link #CLUSTER_WRITE_BODY}</td><td>on a cluster: a data source's statement on the
 *       writer whose rows are read (a query inside a read-write transaction)</td></tr>
 *   <tr><td>{@link #CLUSTER_SCRIPT}</td><td>on a cluster: {@code db.executeScript}</td></tr>
 * </table>
 *
 * <p>Stateless and thread-safe.
 */
public enum StatementPolicy {
    // reader, one statement, reads rows, cluster, runs its statements one by one
    WRITER(false, true, false, false, false),
    WRITE_BODY(false, true, true, false, false),
    SCRIPT(false, false, true, false, true),
    BODY_SCRIPT(false, false, true, false, false),
    READER(true, true, true, false, false),
    READ_SCRIPT(true, false, true, false, false),
    READ_BATCH(true, true, false, false, false),
    CLUSTER_WRITER(false, true, false, true, false),
    CLUSTER_WRITE_BODY(false, true, true, true, false),
    CLUSTER_SCRIPT(false, false, false, true, true);

    /** The attach limit of a connection that is not known: SQLite's own limit holds. */
    public static final int UNKNOWN_ATTACH_LIMIT = -1;

    private final boolean reader;
    private final boolean oneStatement;
    private final boolean readsRows;
    private final boolean cluster;
    /** Whether the place runs a text statement by statement, so that none at all runs nothing. */
    private final boolean splits;

    StatementPolicy(boolean reader, boolean oneStatement, boolean readsRows, boolean cluster,
            boolean splits) {
        this.splits = splits;
        this.reader = reader;
        this.oneStatement = oneStatement;
        this.readsRows = readsRows;
        this.cluster = cluster;
    }

    /**
     * Admits {@code shape}, or throws the refusal of the first rule it breaks.
     *
     * @param attachLimit how many databases the connection may attach ({@code
     *     DatabaseOptions.maxAttachedDatabases}, or the live connection's limit); {@link
     *     #UNKNOWN_ATTACH_LIMIT} leaves {@code ATTACH} to SQLite's limit
     * @throws dev.lanes.InvalidRequestException or {@link dev.lanes.ReadOnlyViolationException}
     *     when refused; nothing ran
     */
    public void admit(String database, StatementShape shape, int attachLimit) {
        admit(database, shape, attachLimit, null);
    }

    /**
     * {@link #admit(String, StatementShape, int)} for one statement of a batch, named by {@code
     * locator} in a refusal ({@code "statement 2 of the batch"}); null for none.
     */
    public void admit(String database, StatementShape shape, int attachLimit, String locator) {
        if (shape.empty() && !splits) {
            throw Rule.NO_STATEMENT.refusal(database, shape, null, locator);
        }
        Rule broken;
        java.util.List<Part> parts = shape.parts();
        for (int i = 0; reader && i < parts.size(); i++) {
            if (parts.get(i).writes()) { // a write anywhere in the text, before any other rule
                throw Rule.WRITE_ON_READER.refusal(database, shape, parts.get(i),
                        where(shape, i, locator));
            }
        }
        for (int i = 0; i < parts.size(); i++) {
            Part part = parts.get(i);
            broken = statement(part, attachLimit);
            if (broken != null) {
                throw broken.refusal(database, shape, part, where(shape, i, locator));
            }
        }
        broken = shape.driverCommand() != null ? Rule.DRIVER_COMMAND : shape.nulAt() >= 0
                ? Rule.NUL : shape.loneSurrogateAt() >= 0 ? Rule.LONE_SURROGATE
                        : oneStatement && shape.several() ? Rule.SEVERAL_STATEMENTS : null;
        if (broken != null) {
            throw broken.refusal(database, shape, null, locator);
        }
        if (!readsRows) {
            for (int i = 0; i < parts.size(); i++) {
                if (parts.get(i).returnsRows()) {
                    throw Rule.RETURNS_ROWS.refusal(database, shape, parts.get(i),
                            where(shape, i, locator));
                }
            }
        }
    }

    /** Where a refused statement is: the caller's locator, or its place in a script. */
    private String where(StatementShape shape, int i, String locator) {
        return locator != null || oneStatement || !shape.several() ? locator
                : "statement " + i + " of the script";
    }

    private Rule statement(Part part, int attachLimit) {
        if (!reader) {
            if (part.transactionControl()) {
                return Rule.TRANSACTION_CONTROL;
            }
            if (part.attach() && attachLimit == 0) {
                return Rule.ATTACH;
            }
            if (part.vacuumInto()) {
                return Rule.VACUUM_INTO;
            }
        }
        Rule pragma = pragma(part.pragma());
        if (pragma != null) {
            return pragma;
        }
        if (cluster && part.pragma() != null && part.pragma().entry() != null
                && part.pragma().entry().name().equals("wal_checkpoint")) {
            return Rule.CLUSTER_CHECKPOINT;
        }
        return cluster && part.writes() && part.returning() ? Rule.CLUSTER_RETURNING : null;
    }

    /**
     * A pragma the table does not place is refused in any form; one that may not be set in SQL
     * is refused when set. A reader refused every setting already, as a write.
     */
    private static Rule pragma(StatementShape.Pragma pragma) {
        if (pragma == null) {
            return null;
        }
        PragmaTable.Entry entry = pragma.entry();
        if (entry == null) {
            return Rule.UNKNOWN_PRAGMA;
        }
        if (!pragma.sets()) {
            return null;
        }
        switch (entry.use()) {
            case OWNED:
                return Rule.OWNED_PRAGMA;
            case PROCESS:
                return Rule.PROCESS_PRAGMA;
            case SETUP:
                return Rule.SETUP_PRAGMA;
            default:
                return null;
        }
    }
}
