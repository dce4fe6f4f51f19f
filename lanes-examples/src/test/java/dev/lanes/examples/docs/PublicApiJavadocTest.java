package dev.lanes.examples.docs;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.source.doctree.DocCommentTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.ModifiersTree;
import com.sun.source.tree.Tree;
import com.sun.source.tree.VariableTree;
import com.sun.source.util.DocTrees;
import com.sun.source.util.JavacTask;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;
import javax.lang.model.element.Modifier;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * Every public type of the published API, every public or protected member of one, and every enum
 * constant has a Javadoc comment: what doclint's "missing" group would demand, without demanding
 * {@code @param} and {@code @return} of self-describing builder setters (the build runs doclint's
 * other groups on the Javadoc jars, failing on a warning). Read from the sources with javac's tree
 * API, parsed only. A member that overrides ({@code @Override}) inherits its documentation, and a
 * record's compact constructor is documented by the record's {@code @param}s.
 */
class PublicApiJavadocTest {
    /** The published modules' API packages, as source directories under the repository. */
    private static final List<String> API = List.of(
            "lanes-core/src/main/java/dev/lanes",
            "lanes-core/src/main/java/dev/lanes/jmx",
            "lanes-core/src/main/java/dev/lanes/spi",
            "lanes-micrometer/src/main/java/dev/lanes/micrometer",
            "lanes-spring-boot-starter/src/main/java/dev/lanes/spring",
            "lanes-spring-boot-starter/src/main/java/dev/lanes/spring/actuate",
            "lanes-spring-boot-starter/src/main/java/dev/lanes/spring/data",
            "lanes-spring-boot-starter/src/main/java/dev/lanes/spring/fleet",
            "lanes-dqlite/src/main/java/dev/lanes/dqlite",
            "lanes-dqlite/src/main/java/dev/lanes/dqlite/testing",
            "lanes-fleet/src/main/java/dev/lanes/fleet",
            "lanes-cli/src/main/java/dev/lanes/cli",
            "lanes-cli/src/main/java/dev/lanes/cli/inspect");

    @Test
    void everyPublicTypeMemberAndEnumConstantHasAComment() throws IOException {
        List<Path> files = new ArrayList<>();
        for (String dir : API) {
            try (Stream<Path> list = Files.list(Docs.root().resolve(dir))) {
                list.filter(p -> p.toString().endsWith(".java")
                        && !p.getFileName().toString().equals("package-info.java"))
                        .forEach(files::add);
            }
        }
        assertThat(files).as("the API's sources").hasSizeGreaterThan(80);

        List<String> undocumented = undocumented(files);

        assertThat(undocumented).as("public API without a Javadoc comment").isEmpty();
    }

    @Test
    void aMissingCommentIsFound(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Path file = dir.resolve("Example.java");
        Files.writeString(file, "package x;\n/** Documented. */\npublic final class Example {\n"
                + "    /** Documented. */\n    public void documented() {}\n"
                + "    public void bare() {}\n    void packagePrivate() {}\n"
                + "    public enum Mode { /** Documented. */ ON, OFF }\n}\n");

        assertThat(undocumented(List.of(file))).containsExactlyInAnyOrder(
                "Example.java: method bare", "Example.java: class Mode", "Example.java: constant OFF");
    }

    static List<String> undocumented(List<Path> files) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        try (StandardJavaFileManager fm = javac.getStandardFileManager(null, Locale.ROOT,
                StandardCharsets.UTF_8)) {
            Iterable<? extends JavaFileObject> units = fm.getJavaFileObjectsFromPaths(files);
            JavacTask task = (JavacTask) javac.getTask(null, fm, d -> { }, List.of("-proc:none"),
                    null, units);
            DocTrees docs = DocTrees.instance(task);
            List<String> missing = new ArrayList<>();
            for (CompilationUnitTree unit : task.parse()) {
                new Scanner(docs, unit, missing).scan(new TreePath(unit), null);
            }
            return missing;
        }
    }

    /** Walks the public surface of one file and notes what has no comment. */
    private static final class Scanner extends TreePathScanner<Void, Void> {
        private final DocTrees docs;
        private final String file;
        private final List<String> missing;

        Scanner(DocTrees docs, CompilationUnitTree unit, List<String> missing) {
            this.docs = docs;
            this.file = Path.of(unit.getSourceFile().toUri()).getFileName().toString();
            this.missing = missing;
        }

        @Override
        public Void visitClass(ClassTree c, Void v) {
            if (!visible(c.getModifiers(), getCurrentPath())) {
                return null; // nothing inside a hidden type is API
            }
            check("class " + c.getSimpleName());
            return super.visitClass(c, v);
        }

        @Override
        public Void visitMethod(MethodTree m, Void v) {
            boolean overrides = m.getModifiers().getAnnotations().stream()
                    .anyMatch(a -> a.getAnnotationType().toString().equals("Override"));
            boolean compact = m.getName().contentEquals("<init>") && isCompact(m);
            if (visible(m.getModifiers(), getCurrentPath()) && !overrides && !compact) {
                check("method " + (m.getName().contentEquals("<init>") ? "constructor"
                        : m.getName()));
            }
            return null; // a method's body holds no API
        }

        @Override
        public Void visitVariable(VariableTree f, Void v) {
            Tree parent = getCurrentPath().getParentPath().getLeaf();
            if (!(parent instanceof ClassTree)) {
                return null;
            }
            ClassTree owner = (ClassTree) parent;
            boolean constant = isEnumConstant(f, owner);
            if (constant) {
                check("constant " + f.getName());
            } else if (owner.getKind() != Tree.Kind.RECORD
                    && visible(f.getModifiers(), getCurrentPath())) {
                check("field " + f.getName());
            }
            return null;
        }

        private void check(String what) {
            DocCommentTree comment = docs.getDocCommentTree(getCurrentPath());
            if (comment == null) {
                missing.add(file + ": " + what);
            }
        }

        /** Public or protected, or a member of an interface that is not private. */
        private static boolean visible(ModifiersTree modifiers, TreePath path) {
            Set<Modifier> flags = modifiers.getFlags();
            if (flags.contains(Modifier.PUBLIC) || flags.contains(Modifier.PROTECTED)) {
                return true;
            }
            Tree parent = path.getParentPath().getLeaf();
            boolean inInterface = parent.getKind() == Tree.Kind.INTERFACE
                    || parent.getKind() == Tree.Kind.ANNOTATION_TYPE;
            return inInterface && !flags.contains(Modifier.PRIVATE);
        }

        private static boolean isEnumConstant(VariableTree f, ClassTree owner) {
            return owner.getKind() == Tree.Kind.ENUM && f.getInitializer() != null
                    && f.getInitializer().getKind() == Tree.Kind.NEW_CLASS
                    && f.getType() != null
                    && f.getType().toString().equals(owner.getSimpleName().toString());
        }

        /**
         * A record's compact canonical constructor, {@code public Name {}}: no parameter list in
         * the source (javac gives it the record's).
         */
        private boolean isCompact(MethodTree m) {
            Tree parent = getCurrentPath().getParentPath().getLeaf();
            if (parent.getKind() != Tree.Kind.RECORD || m.getBody() == null) {
                return false;
            }
            CompilationUnitTree unit = getCurrentPath().getCompilationUnit();
            long start = docs.getSourcePositions().getStartPosition(unit, m);
            long body = docs.getSourcePositions().getStartPosition(unit, m.getBody());
            try {
                CharSequence text = unit.getSourceFile().getCharContent(true);
                return start >= 0 && body > start
                        && text.subSequence((int) start, (int) body).toString().indexOf('(') < 0;
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }
}
