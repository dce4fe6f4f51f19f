package dev.lanes.examples.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The product speaks of itself only: the README stays a first screen, and neither the docs nor
 * the code comments keep a journal of the work ("stop 28", "issue 21"); how the project got here
 * is git history and CHANGELOG.md. The logger names the guide lists are the runtime's.
 */
class DocsSpeakOfTheProductTest {
    private static final Pattern JOURNAL =
            Pattern.compile("\\b([Ss]top|[Ii]ssue|[Ss]ession) #?\\d+\\b");

    @Test
    void theReadmeIsUnder250Lines() {
        assertThat(Docs.read(Docs.root().resolve("README.md")).lines().count()).isLessThan(250);
    }

    @Test
    void noDocNorCommentKeepsAJournal() throws IOException {
        Path root = Docs.root();
        List<Path> files = new ArrayList<>(Docs.pages());
        files.add(root.resolve("ARCHITECTURE.md"));
        files.add(root.resolve("CONTRIBUTING.md"));
        try (Stream<Path> all = Files.walk(root, 8)) {
            all.filter(p -> !p.toString().contains("/target/") && !p.toString().contains("/.git/"))
                    .filter(p -> p.toString().endsWith(".java") && p.toString().contains("/src/")
                            || p.getFileName().toString().equals("README.md")
                                    && p.getParent().getFileName().toString().startsWith("lanes-"))
                    .forEach(files::add);
        }
        List<String> journal = new ArrayList<>();
        for (Path file : files) {
            String[] lines = Docs.read(file).split("\n");
            for (int i = 0; i < lines.length; i++) {
                if (JOURNAL.matcher(lines[i]).find() && !lines[i].contains("JOURNAL")) {
                    journal.add(root.relativize(file) + ":" + (i + 1) + ": " + lines[i].strip());
                }
            }
        }
        assertThat(journal).isEmpty();
    }

    @Test
    void everyLoggerNameOfTheRuntimeIsInTheOperationsGuide() throws Exception {
        String page = Docs.page("operations.md");
        List<String> missing = new ArrayList<>();
        for (var field : Class.forName("dev.lanes.internal.util.LogNames").getFields()) {
            String name = (String) field.get(null);
            if (!page.contains("`" + name + "`")) {
                missing.add(name);
            }
        }
        assertThat(missing).isEmpty();
    }
}
