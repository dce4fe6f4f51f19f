package dev.lanes.examples.docs;

import java.util.ArrayList;
import java.util.List;

/**
 * The lines of Java source that begin at brace depth 0, found by a small scanner that skips
 * string and character literals, text blocks and comments: what a snippet declares at its top
 * level.
 */
final class TopLevel {
    private TopLevel() {}

    static List<String> lines(List<String> source) {
        List<String> top = new ArrayList<>();
        int depth = 0;
        boolean blockComment = false;
        boolean textBlock = false;
        for (String line : source) {
            if (depth == 0 && !blockComment && !textBlock) {
                top.add(line);
            }
            int i = 0;
            while (i < line.length()) {
                if (blockComment) {
                    int end = line.indexOf("*/", i);
                    if (end < 0) {
                        break;
                    }
                    blockComment = false;
                    i = end + 2;
                } else if (textBlock) {
                    int end = line.indexOf("\"\"\"", i);
                    if (end < 0) {
                        break;
                    }
                    textBlock = false;
                    i = end + 3;
                } else if (line.startsWith("//", i)) {
                    break;
                } else if (line.startsWith("/*", i)) {
                    blockComment = true;
                    i += 2;
                } else if (line.startsWith("\"\"\"", i)) {
                    textBlock = true;
                    i += 3;
                } else if (line.charAt(i) == '"' || line.charAt(i) == '\'') {
                    i = skipLiteral(line, i);
                } else {
                    char c = line.charAt(i);
                    depth += c == '{' ? 1 : c == '}' ? -1 : 0;
                    i++;
                }
            }
        }
        return top;
    }

    private static int skipLiteral(String line, int start) {
        char quote = line.charAt(start);
        int i = start + 1;
        while (i < line.length() && line.charAt(i) != quote) {
            i += line.charAt(i) == '\\' ? 2 : 1;
        }
        return i + 1;
    }
}
