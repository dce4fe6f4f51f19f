package dev.lanes.examples.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The product speaks of itself only: the README stays a first screen, and neither the docs nor
 * the code comments keep a journal of the work (a numbered stop, issue or session, or what the
 * code did before); how the project got here is git history and CHANGELOG.md. The logger names the guide lists are the runtime's.
 */
class DocsSpeakOfTheProductTest {
    private static final Pattern JOURNAL =
            Pattern.compile("\\b([Ss]top|[Ii]ssue|[Ss]ession) #?\\d+\\b|\\b[Pp]reviously\\b");

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
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
                return name.equals("target") || name.equals(".git") ? FileVisitResult.SKIP_SUBTREE
                        : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path p, BasicFileAttributes attrs) {
                if (p.toString().endsWith(".java") && p.toString().contains("/src/")
                        || p.getFileName().toString().equals("README.md")
                                && p.getParent().getFileName().toString().startsWith("lanes-")) {
                    files.add(p);
                }
                return FileVisitResult.CONTINUE;
            }
        });
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

    /**
     * Every relative link of the README and the guide reaches a file, and a heading of it when it
     * names one (GitHub's anchors).
     */
    @Test
    void everyLinkOfTheGuideReachesItsPageAndHeading() {
        Pattern link = Pattern.compile("\\]\\(([^)\\s]+)\\)");
        List<String> broken = new ArrayList<>();
        for (Path page : Docs.pages()) {
            Matcher m = link.matcher(Docs.read(page));
            while (m.find()) {
                String target = m.group(1);
                if (target.matches("[a-z]+:.*")) {
                    continue; // https:, mailto:
                }
                int hash = target.indexOf('#');
                String file = hash < 0 ? target : target.substring(0, hash);
                Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
                if (!Files.exists(resolved)) {
                    broken.add(Docs.root().relativize(page) + ": " + target);
                } else if (hash >= 0 && resolved.toString().endsWith(".md")
                        && !anchors(Docs.read(resolved)).contains(target.substring(hash + 1))) {
                    broken.add(Docs.root().relativize(page) + ": " + target + " (no such heading)");
                }
            }
        }
        assertThat(broken).isEmpty();
    }

    /** The anchors GitHub gives a page's headings. */
    static List<String> anchors(String markdown) {
        List<String> anchors = new ArrayList<>();
        boolean code = false;
        for (String line : markdown.split("\n")) {
            if (line.startsWith("```")) {
                code = !code;
            } else if (!code && line.startsWith("#")) {
                String heading = line.replaceFirst("^#+\\s*", "").toLowerCase(java.util.Locale.ROOT);
                anchors.add(heading.replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-'));
            }
        }
        return anchors;
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
