package dev.lanes.examples.docs;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One {@code ```java} block of a Markdown page, with the directive written just before it (an
 * HTML comment, invisible on the page): {@code <!-- snippet: CLAUSE; CLAUSE -->}, the clauses
 * being {@code run} (a complete program: compile it and run its {@code main}), {@code members}
 * (class members: methods, fields), {@code standalone} (a fragment with no variables in scope),
 * {@code given Type name, Type name} (the variables a fragment has in scope, instead of {@code
 * Lanes lanes, Database db}) and {@code import a.b.C} (an import the page leaves out because the
 * given variables need it).
 *
 * @param page the Markdown file
 * @param line the line of the block's first code line, from 1
 * @param code the block's lines
 */
record JavaBlock(Path page, int line, List<String> code, List<String> clauses) {

    /** The blocks of one page, in order. */
    static List<JavaBlock> of(Path page, String text) {
        List<JavaBlock> blocks = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        List<String> directive = List.of();
        for (int i = 0; i < lines.length; i++) {
            String l = lines[i].strip();
            if (l.startsWith("<!-- snippet:") && l.endsWith("-->")) {
                directive = clauses(l.substring("<!-- snippet:".length(), l.length() - 3));
            } else if (l.equals("```java")) {
                int start = i + 1;
                List<String> code = new ArrayList<>();
                for (i = start; i < lines.length && !lines[i].strip().equals("```"); i++) {
                    code.add(lines[i]);
                }
                blocks.add(new JavaBlock(page, start + 1, code, directive));
                directive = List.of();
            } else if (!l.isEmpty() && !l.startsWith("<!--")) {
                directive = List.of();
            }
        }
        return blocks;
    }

    private static List<String> clauses(String directive) {
        List<String> clauses = new ArrayList<>();
        for (String c : directive.split(";")) {
            if (!c.isBlank()) {
                clauses.add(c.strip());
            }
        }
        return clauses;
    }

    boolean has(String clause) {
        return clauses.contains(clause);
    }

    /** The variables in scope: {@code given}'s, none when standalone, else lanes and db. */
    List<String> given() {
        if (has("standalone")) {
            return List.of();
        }
        for (String c : clauses) {
            if (c.startsWith("given ")) {
                List<String> vars = new ArrayList<>();
                for (String v : c.substring("given ".length()).split(",")) {
                    vars.add(v.strip());
                }
                return vars;
            }
        }
        return has("members") ? List.of() : List.of("Lanes lanes", "Database db");
    }

    /** The imports the directive adds, as source lines. */
    List<String> directiveImports() {
        return clauses.stream().filter(c -> c.startsWith("import ")).map(c -> c + ";").toList();
    }

    /** Where the block is, for messages: {@code docs/writes.md:42}. */
    String where() {
        Path root = Docs.root();
        return root.relativize(page) + ":" + line;
    }
}
