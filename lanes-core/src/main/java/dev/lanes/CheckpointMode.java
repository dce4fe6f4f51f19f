package dev.lanes;

/**
 * Who moves the WAL's pages back into the database file (a <em>checkpoint</em>), and so keeps the
 * {@code -wal} file from growing without bound. Chosen per database with {@link
 * DatabaseOptions.Builder#checkpointMode(CheckpointMode)}.
 */
public enum CheckpointMode {
    /**
     * SQLite checkpoints by itself: the commit that takes the WAL past 1000 pages runs a passive
     * checkpoint on the writer connection ({@code PRAGMA wal_autocheckpoint=1000}). The WAL
     * stays bounded, and no connection beyond the writer's and the readers' is ever opened; but
     * the commits that cross the mark pay for the checkpoint, and so does every write in their
     * commit group (the write latency's tail at {@link Synchronous#NORMAL}). The default at
     * {@link Synchronous#FULL}, where every commit syncs anyway and a checkpoint running beside
     * the commits slows each of them.
     */
    AUTO,
    /**
     * The default, except at {@link Synchronous#FULL} (see {@link
     * DatabaseOptions#checkpointMode()} for the measurements). A background checkpointer owns
     * checkpoints, and while it keeps up no commit runs one. While the database is being written,
     * a background task on the runtime's pool looks at the WAL file every 250 ms and, once the
     * WAL passes 4 MiB (about SQLite's own 1000 pages), checkpoints it on a connection of its own.
     * The bulk of the copying is passive and never blocks a write. The checkpoint is then
     * finished by a {@code RESTART} that holds the write lock briefly (for the last frames, and
     * at most 100 ms for readers to leave the WAL) so that the WAL starts over: on that
     * connection when a writer pauses long enough to let it take the lock within 10 ms, else as
     * a short turn of its own on the writer lane, queued behind the writes already waiting. The
     * WAL stays bounded: near 4 MiB plus what is written while a look and its checkpoint come
     * round, even under writes that never pause (use {@link #AUTO} where it must stay at 4 MiB
     * whatever the load). That turn is not a write: it is not counted as one, and its failure
     * (a sync that failed, a full disk) leaves the frames in the WAL and the writer usable.
     *
     * <p>The writer helps when the checkpointer falls behind (it runs on the runtime's pool, which
     * a loaded machine may starve): the writer connection's {@code wal_autocheckpoint} is a
     * backstop of 4096 pages (16 MiB), so the commit that takes the WAL past it runs SQLite's
     * passive checkpoint on the writer, as {@link #AUTO} would at 1000 pages, and the WAL stays
     * bounded however little CPU the checkpointer gets. A checkpointer that keeps up never lets
     * a commit reach it.
     *
     * <p>Two seconds after the last write the checkpointer stops looking. A WAL it checkpointed
     * is first truncated to zero bytes and its connection closed; a WAL that never reached 4 MiB
     * is left as {@link #AUTO} would leave it. So an idle database costs no timer task and no
     * extra connection, and one that is never written past 4 MiB never opens one. The
     * checkpointer's connection counts in the runtime's connection budget.
     *
     * <p>On a SQLite with the WAL-reset bug (see {@link SqliteInfo}) the checkpointer opens no
     * connection: every checkpoint runs whole as a turn of the writer lane, and the writes wait
     * for its copying.
     */
    DEDICATED,
    /**
     * Another tool owns checkpoints (a replicator such as Litestream): the writer runs with
     * {@code wal_autocheckpoint=0} and Lanes never checkpoints, not even on {@link
     * Database#checkpoint()}. The WAL grows until that tool checkpoints it. One exception is
     * SQLite's own: when the last connection to the file closes, SQLite checkpoints the WAL and
     * deletes it. While the replicator runs it holds a connection of its own, so this does not
     * happen; if Lanes closes while the replicator is down, nothing is lost, but the replicator
     * starts a new generation (a full snapshot) when it comes back.
     *
     * <p>The replicator's checkpoints run beside Lanes' commits, the shape of SQLite's WAL-reset
     * bug (see {@link SqliteInfo}), whose fix is in the checkpointing side: the replicator's own
     * SQLite must be 3.51.3 or later (or 3.50.7, 3.44.6).
     */
    EXTERNAL
}
