package dev.lanes.examples.docs;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@link JavaBlock} as a Java source file that compiles on its own, as a Rust doc-test wraps
 * its example: a complete program as it is (in a package of its own, so that two pages' {@code
 * App} never clash); class members inside a class; a fragment inside a method whose parameters
 * are the variables it has in scope. A fragment or members block gets the imports every page
 * assumes ({@link #ASSUMED}); a complete program gets none but its own.
 *
 * @param packageName the package the source is in
 * @param className the top-level class to run, for a program; the wrapper's otherwise
 * @param text the source
 * @param pageLines for each line of the source, from 0, the page's line it came from, or 0
 */
record SnippetSource(JavaBlock block, String packageName, String className, String text,
        List<Integer> pageLines) {

    /** What a fragment may use unimported; the guide's README says so. */
    static final List<String> ASSUMED = List.of("import dev.lanes.*;", "import java.util.*;",
            "import java.util.concurrent.*;", "import java.time.*;", "import java.nio.file.*;");

    private static final Pattern IMPORT = Pattern.compile("^import\\s+(static\\s+)?[\\w.*]+\\s*;\\s*$");
    private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+)\\s*;\\s*$");
    private static final Pattern PUBLIC_TYPE =
            Pattern.compile("^public\\s+(?:final\\s+|abstract\\s+)*(?:class|record|interface|enum)\\s+(\\w+)");
    private static final Pattern TYPE =
            Pattern.compile("^(?:@\\w+.*|(?:public\\s+|final\\s+|abstract\\s+)*(?:class|record|interface|enum)\\s+\\w+.*)$");

    /** The kind of block: decided by the directive, else by what stands at its top level. */
    enum Kind { PROGRAM, MEMBERS, FRAGMENT }

    static SnippetSource of(JavaBlock block, int index) {
        String pkg = "snippets.b" + index;
        List<String> imports = new ArrayList<>();
        List<Integer> importLines = new ArrayList<>();
        String declaredPackage = null;
        int first = 0;
        List<String> code = block.code();
        for (; first < code.size(); first++) {
            String l = code.get(first).strip();
            Matcher p = PACKAGE.matcher(l);
            if (p.matches()) {
                declaredPackage = p.group(1);
            } else if (IMPORT.matcher(l).matches()) {
                imports.add(l);
                importLines.add(block.line() + first);
            } else if (!l.isEmpty()) {
                break;
            }
        }
        List<String> body = code.subList(first, code.size());
        Kind kind = kind(block, body);
        if (declaredPackage != null) {
            pkg = pkg + "." + declaredPackage;
        }
        Builder s = new Builder();
        s.add("package " + pkg + ";", 0);
        if (kind != Kind.PROGRAM) {
            ASSUMED.forEach(i -> s.add(i, 0));
            block.directiveImports().forEach(i -> s.add(i, 0));
        }
        for (int i = 0; i < imports.size(); i++) {
            s.add(imports.get(i), importLines.get(i));
        }
        String className = "Snippet";
        if (kind == Kind.PROGRAM) {
            for (String l : body) {
                Matcher m = PUBLIC_TYPE.matcher(l);
                if (m.find()) {
                    className = m.group(1);
                    break;
                }
            }
        } else if (kind == Kind.MEMBERS) {
            s.add("@SuppressWarnings(\"unused\") class Snippet {", 0);
            block.given().forEach(v -> s.add("    " + v + ";", 0));
        } else {
            s.add("@SuppressWarnings(\"unused\") class Snippet {", 0);
            s.add("    void snippet(" + String.join(", ", block.given()) + ") throws Exception {", 0);
        }
        for (int i = 0; i < body.size(); i++) {
            s.add(body.get(i), block.line() + first + i);
        }
        if (kind == Kind.MEMBERS) {
            s.add("}", 0);
        } else if (kind == Kind.FRAGMENT) {
            s.add("    }", 0);
            s.add("}", 0);
        }
        return new SnippetSource(block, pkg, className, s.text.toString(), s.lines);
    }

    /**
     * A block is a program when nothing but type declarations stands at its top level, members
     * when its directive says so, and a fragment otherwise (a statement ends at its top level).
     */
    static Kind kind(JavaBlock block, List<String> body) {
        if (block.has("members")) {
            return Kind.MEMBERS;
        }
        boolean types = false;
        for (String line : TopLevel.lines(body)) {
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("//") || l.startsWith("/*") || l.startsWith("*")) {
                continue;
            }
            if (TYPE.matcher(l).matches()) {
                types = true;
            } else if (!l.equals("}")) {
                return Kind.FRAGMENT;
            }
        }
        return types ? Kind.PROGRAM : Kind.FRAGMENT;
    }

    /** The fully qualified name of the class to run. */
    String mainClass() {
        return packageName + "." + className;
    }

    /** The page's line for the source's line {@code sourceLine} (from 1), or the block's. */
    int pageLine(long sourceLine) {
        int i = (int) sourceLine - 1;
        int line = i >= 0 && i < pageLines.size() ? pageLines.get(i) : 0;
        return line > 0 ? line : block.line();
    }

    private static final class Builder {
        final StringBuilder text = new StringBuilder();
        final List<Integer> lines = new ArrayList<>();

        void add(String line, int pageLine) {
            text.append(line).append('\n');
            lines.add(pageLine);
        }
    }
}
