package dev.lanes.examples.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every {@code ```java} block of README.md and docs/ compiles against the built modules, as Rust
 * compiles its doc-tests: a block is wrapped as {@link SnippetSource} says, all blocks are compiled
 * in one javac run on this module's test class path (core, micrometer, the starter, dqlite, fleet,
 * jOOQ, JDBI, Flyway, Spring), and the programs marked {@code <!-- snippet: run -->} are run, each in a
 * JVM of its own in an empty directory, and must end with status 0.
 */
class DocSnippetsTest {
    @TempDir
    static Path out;

    private static List<SnippetSource> sources;

    @BeforeAll
    static void wrapEveryBlock() {
        sources = new ArrayList<>();
        for (Path page : Docs.pages()) {
            for (JavaBlock block : JavaBlock.of(page, Docs.read(page))) {
                sources.add(SnippetSource.of(block, sources.size()));
            }
        }
    }

    @Test
    void everyJavaBlockOfTheReadmeAndTheGuideCompiles() throws IOException {
        assertThat(sources).as("the README and docs/ have Java blocks").hasSizeGreaterThan(30);
        assertThat(compile(sources)).as("compiler errors in the documentation's Java blocks")
                .isEmpty();
        System.out.println("DocSnippetsTest: compiled " + sources.size() + " Java blocks of "
                + Docs.pages().size() + " pages");
    }

    @Test
    void aBlockThatDoesNotCompileIsReportedAtItsLineOnThePage() throws IOException {
        Path page = Docs.root().resolve("docs/example.md");
        String text = "Text.\n\n```java\nint n = db.execute(\"DELETE FROM t\");\n"
                + "String s = n;\n```\n";
        List<JavaBlock> blocks = JavaBlock.of(page, text);

        List<String> errors = compile(List.of(SnippetSource.of(blocks.get(0), 0)));

        assertThat(errors).singleElement().asString()
                .startsWith("docs/example.md:5: ").contains("incompatible types");
    }

    /** Compiles the sources in one javac run; the errors, each at its page and line. */
    static List<String> compile(List<SnippetSource> sources) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        List<Source> files = sources.stream().map(Source::new).toList();
        try (StandardJavaFileManager fm = javac.getStandardFileManager(null, Locale.ROOT,
                StandardCharsets.UTF_8)) {
            Path classes = Files.createDirectories(out.resolve("classes"));
            boolean ok = javac.getTask(null, fm, diagnostics, List.of("-classpath", classPath(),
                    "-d", classes.toString(), "--release", "17", "-proc:none", "-nowarn",
                    "-Xlint:none"), null, files).call();
            List<String> errors = diagnostics.getDiagnostics().stream()
                    .filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
                    .map(DocSnippetsTest::describe)
                    .collect(Collectors.toList());
            if (!ok && errors.isEmpty()) {
                errors.add("javac failed without an error diagnostic");
            }
            return errors;
        }
    }

    @Test
    @Tag("slow")
    @Timeout(value = 10, unit = TimeUnit.MINUTES) // a guard against a hung program, not a speed check
    void theCompleteProgramsRun() throws Exception {
        everyJavaBlockOfTheReadmeAndTheGuideCompiles();
        List<SnippetSource> programs = sources.stream().filter(s -> s.block().has("run")).toList();
        assertThat(programs).as("the quick start and the tutorial are run").hasSizeGreaterThanOrEqualTo(2);
        for (SnippetSource program : programs) {
            Path dir = Files.createDirectories(out.resolve("run-" + program.packageName()));
            Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java")
                    .toString(), "--enable-native-access=ALL-UNNAMED", "-cp",
                    out.resolve("classes") + File.pathSeparator + classPath(),
                    program.mainClass())
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("output.txt").toFile())
                    .start();
            boolean ended = p.waitFor(3, TimeUnit.MINUTES);
            if (!ended) {
                p.destroyForcibly().waitFor();
            }
            String output = Files.readString(dir.resolve("output.txt"));
            assertThat(ended && p.exitValue() == 0)
                    .as(program.block().where() + " ran with status " + (ended ? p.exitValue()
                            : "none (still running after 3 minutes)") + ":\n" + output)
                    .isTrue();
            assertThat(output).as(program.block().where() + " printed what it read").isNotBlank();
        }
    }

    /** The test class path as surefire sets it (java.class.path may be a manifest-only jar). */
    static String classPath() {
        return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    }

    private static String describe(Diagnostic<? extends JavaFileObject> d) {
        Source source = (Source) d.getSource();
        if (source == null) {
            return d.getMessage(Locale.ROOT);
        }
        Path root = Docs.root();
        return root.relativize(source.snippet.block().page()) + ":"
                + source.snippet.pageLine(d.getLineNumber()) + ": " + d.getMessage(Locale.ROOT);
    }

    /** One wrapped block, as javac reads it. */
    private static final class Source extends SimpleJavaFileObject {
        final SnippetSource snippet;

        Source(SnippetSource snippet) {
            super(URI.create("string:///" + snippet.packageName().replace('.', '/') + "/"
                    + snippet.className() + Kind.SOURCE.extension), Kind.SOURCE);
            this.snippet = snippet;
        }

        @Override
        public CharSequence getCharContent(boolean ignoreEncodingErrors) {
            return snippet.text();
        }
    }
}
