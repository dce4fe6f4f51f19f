package dev.lanes.spring;

import dev.lanes.Database;
import dev.lanes.Lanes;
import dev.lanes.LanesException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletionException;

/** Opens the primary and the named databases from their properties, failing start-up early. */
final class DatabaseOpener {
    private DatabaseOpener() {}

    /**
     * Opens the database {@code properties} describe and waits until its writer is open, so that
     * a database that cannot open fails the application's start, naming its properties.
     */
    static Database open(Lanes lanes, String prefix, LanesProperties.DatabaseProperties properties) {
        if (properties == null || properties.path() == null) {
            throw new IllegalArgumentException(prefix + ".path is required: the database file");
        }
        Path path = properties.path();
        var options = properties.toOptionsBuilder(prefix).build();
        Path parent = path.toAbsolutePath().getParent();
        try {
            if (parent != null) {
                Files.createDirectories(parent);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(prefix + ".path=" + path + ": cannot create the "
                    + "directory " + parent + ": " + e.getMessage(), e);
        }
        Database db;
        try {
            db = lanes.open(path, options);
        } catch (LanesException e) {
            throw new IllegalStateException(prefix + ".path=" + path + ": cannot open the "
                    + "database: " + e.getMessage(), e);
        }
        try {
            db.whenReady().join();
        } catch (CompletionException e) {
            db.close();
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new IllegalStateException(prefix + ".path=" + path + ": cannot open the "
                    + "database: " + cause.getMessage(), cause);
        }
        return db;
    }
}
