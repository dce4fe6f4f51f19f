package dev.lanes.spring;

import dev.lanes.Database;
import dev.lanes.DatabaseLockedException;
import dev.lanes.Lanes;
import dev.lanes.LanesException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletionException;
import org.springframework.beans.factory.BeanFactory;

/** Opens the primary and the named databases from their properties, failing start-up early. */
final class DatabaseOpener {
    private DatabaseOpener() {}

    /**
     * Opens the database {@code properties} describe and waits until its writer is open, so that
     * a database that cannot open fails the application's start, naming its properties. In a
     * Spring test context the file may open in the context's own directory, under {@code
     * testDirectory} there (see {@link TestDatabaseDirectory}).
     */
    static Database open(BeanFactory beans, Lanes lanes, String prefix,
            LanesProperties.DatabaseProperties properties, String testDirectory) {
        if (properties == null || properties.path() == null) {
            throw new IllegalArgumentException(prefix + ".path is required: the database file");
        }
        Path configured = properties.path();
        Path name = configured.getFileName();
        Path path = TestDatabaseDirectory.place(beans, prefix + ".path", configured,
                testDirectory + "/" + (name == null ? "lanes.db" : name));
        String what = prefix + ".path=" + configured
                + (path.equals(configured) ? "" : " (in this test context " + path + ")");
        var options = properties.toOptionsBuilder(prefix).build();
        Path parent = path.toAbsolutePath().getParent();
        try {
            if (parent != null) {
                Files.createDirectories(parent);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(what + ": cannot create the directory " + parent
                    + ": " + e.getMessage(), e);
        }
        Database db;
        try {
            db = lanes.open(path, options);
        } catch (DatabaseLockedException e) {
            boolean test = beans.getBeanProvider(TestDatabaseDirectory.class)
                    .getIfAvailable() != null;
            throw new IllegalStateException(what + ": cannot open the database: " + e.getMessage()
                    + (test ? TEST_LOCKED : ""), e);
        } catch (LanesException e) {
            throw new IllegalStateException(what + ": cannot open the database: "
                    + e.getMessage(), e);
        }
        try {
            db.whenReady().join();
        } catch (CompletionException e) {
            db.close();
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new IllegalStateException(what + ": cannot open the database: "
                    + cause.getMessage(), cause);
        }
        return db;
    }

    private static final String TEST_LOCKED = ". In a Spring test context each context opens "
            + "its own database, unless the test class sets the path itself or "
            + "lanes.test.fresh-databases=false: another test context of this JVM (Spring keeps "
            + "them open in its cache) or another process has this file. Let the path come from "
            + "the application's configuration, or give each test class a file of its own";
}
