package dev.lanes.cli.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A fresh directory for the bench's database files, removed with everything in it on close. It is
 * always a new subdirectory, also under a {@code --dir} the user named, so that closing it can
 * never delete a file the bench did not make.
 */
final class ScratchDirectory implements AutoCloseable {
    private static final String PREFIX = "lanes-bench-";

    private final Path path;

    private ScratchDirectory(Path path) {
        this.path = path;
    }

    /** Creates the directory under {@code parent}, or under java.io.tmpdir when it is null. */
    static ScratchDirectory create(Path parent) throws IOException {
        if (parent == null) {
            return new ScratchDirectory(Files.createTempDirectory(PREFIX));
        }
        Files.createDirectories(parent);
        return new ScratchDirectory(Files.createTempDirectory(parent, PREFIX));
    }

    Path path() {
        return path;
    }

    @Override
    public void close() throws IOException {
        List<Path> deepestFirst;
        try (Stream<Path> walk = Files.walk(path)) {
            deepestFirst = walk.sorted(Comparator.reverseOrder()).collect(Collectors.toList());
        }
        for (Path p : deepestFirst) {
            Files.deleteIfExists(p);
        }
    }
}
