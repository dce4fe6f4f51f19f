package dev.lanes.examples.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Where the documentation is: the repository root, found from this module's directory. */
final class Docs {
    private Docs() {}

    /** The repository's root: the parent of this module, which holds README.md and docs/. */
    static Path root() {
        Path module = Path.of(System.getProperty("basedir", System.getProperty("user.dir")))
                .toAbsolutePath().normalize();
        for (Path p = module; p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("README.md")) && Files.isDirectory(p.resolve("docs"))) {
                return p;
            }
        }
        throw new IllegalStateException("no README.md with a docs/ beside it above " + module);
    }

    /** README.md and every page of docs/, in a stable order. */
    static List<Path> pages() {
        Path root = root();
        List<Path> pages = new ArrayList<>();
        pages.add(root.resolve("README.md"));
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            docs.filter(p -> p.getFileName().toString().endsWith(".md")).sorted()
                    .forEach(pages::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return pages;
    }

    static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code docs/name}'s text. */
    static String page(String name) {
        return read(root().resolve("docs").resolve(name));
    }
}
