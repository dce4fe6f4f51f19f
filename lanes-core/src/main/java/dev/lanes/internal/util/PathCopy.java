package dev.lanes.internal.util;

import java.nio.file.Path;

/**
 * A copy of a path, equal to it, for whatever asks a path for its text or its parts (a JDBC URL,
 * a file name, a sibling, a message, a file call that fails and names the file): the JDK's paths
 * keep their text and the offsets of their parts once asked for them, and a database's path,
 * kept as long as the database is open, would keep both (about 140 bytes for a typical path)
 * long after the call that needed them. The copy shares the path's bytes, asks nothing of the
 * path itself, and is garbage once the call returns. Stateless.
 */
public final class PathCopy {
    private PathCopy() {}

    /** A new path equal to {@code path}; on the default Unix file system, sharing its bytes. */
    public static Path of(Path path) {
        return path.resolve("");
    }
}
