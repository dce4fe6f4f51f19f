package dev.lanes.internal.file;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The path SQLite will really open, by which a runtime knows a database. Stateless. */
public final class CanonicalPath {
    private CanonicalPath() {}

    /**
     * {@code path} with symbolic links and {@code ..} resolved, also for a file that does not
     * exist yet (through its parent directory).
     */
    public static Path of(Path path) {
        Path absolute = path.toAbsolutePath().normalize();
        try {
            if (Files.exists(absolute)) {
                return absolute.toRealPath();
            }
            Path parent = absolute.getParent();
            if (parent != null && Files.exists(parent)) {
                return parent.toRealPath().resolve(absolute.getFileName());
            }
        } catch (IOException e) {
            // fall through: the database will fail to open and report why
        }
        return absolute;
    }
}
