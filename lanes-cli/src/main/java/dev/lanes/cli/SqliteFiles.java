package dev.lanes.cli;

import java.nio.file.Path;

/** The files SQLite keeps beside a database file, named as SQLite names them. */
public final class SqliteFiles {
    /** The suffix of the write-ahead log. */
    public static final String WAL = "-wal";
    /** The suffix of the WAL's shared-memory index. */
    public static final String SHM = "-shm";
    /** The suffix of the rollback journal. */
    public static final String JOURNAL = "-journal";

    private SqliteFiles() {}

    /** The file SQLite keeps beside {@code db} with {@code suffix}, one of this class's. */
    public static Path beside(Path db, String suffix) {
        return db.resolveSibling(db.getFileName() + suffix);
    }
}
