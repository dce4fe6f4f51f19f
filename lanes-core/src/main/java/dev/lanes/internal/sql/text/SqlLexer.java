package dev.lanes.internal.sql.text;

/**
 * The one SQL lexer of the runtime: enough of SQLite's tokenizer ({@code sqlite3GetToken}) to
 * split a text into statements, to tell which keyword each one starts with, and to classify it,
 * while skipping comments, string literals and quoted identifiers exactly as SQLite does. It
 * never parses beyond tokens; SQLite stays the judge of what the SQL means.
 *
 * <p>Where it follows SQLite to the letter:
 * <ul>
 *   <li>comments: {@code --} to the end of the line, {@code /* … *}{@code /} (an unterminated one
 *       runs to the end of the text);
 *   <li>white space: space, tab, line feed, form feed and carriage return; a vertical tab is
 *       no space to SQLite's tokenizer but an illegal character;
 *   <li>strings {@code '…'} with {@code ''} inside, identifiers {@code "…"} and {@code `…`}
 *       (doubled quotes inside) and {@code […]} (an unterminated quote runs to the end); a blob
 *       {@code X'…'} ends at its next quote, with no doubling;
 *   <li>numbers as {@code sqlite3GetToken} reads them: hex {@code 0x…} only with a hex digit
 *       after the {@code x}, an exponent only with a digit after the {@code e} (and its sign),
 *       {@code _} digit separators, and identifier characters glued to the end swallowed into
 *       the (illegal) token. So {@code 0xe--x} is the number {@code 0xe} and a comment;
 *   <li>parameters {@code ?NNN}, and {@code $}, {@code @}, {@code :}, {@code #} names with
 *       SQLite's Tcl extensions: {@code ::} inside the name, and a {@code (…)} suffix that runs
 *       to the first {@code )} or white space whatever it holds, quotes and semicolons
 *       included ({@code $a(';x')} is one token);
 *   <li>identifier characters: ASCII letters, digits, {@code _} and {@code $}, and every
 *       character outside ASCII (SQLite treats every byte above 0x7f as part of an identifier);
 *   <li>keywords compare in ASCII case only, as SQLite folds case: {@code commıt} is not
 *       {@code COMMIT}.
 * </ul>
 * A NUL or any other character SQLite calls illegal becomes a {@link Kind#PUNCT} token of its
 * own, so that a caller that cannot place it refuses. SQLite stops reading a text at its first
 * NUL; the lexer reads on, which can only make it see more statements than SQLite runs, never
 * fewer.
 *
 * <p>Not thread-safe: one lexer per pass over one text; cheap to make.
 */
public final class SqlLexer {
    /** What a token is. */
    public enum Kind {
        /** An identifier or keyword. */
        WORD,
        /** A quoted identifier: {@code "…"}, {@code `…`} or {@code […]}. */
        QUOTED,
        /** A string or blob literal. */
        STRING,
        /** A numeric literal. */
        NUMBER,
        /** A parameter: {@code ?}, {@code ?NNN}, {@code :name}, {@code @name}, {@code $name}. */
        PARAMETER,
        /** A semicolon: the end of a statement, outside a trigger body. */
        SEMICOLON,
        /** Any other single character: an operator, a parenthesis, a comma, a dot, or illegal. */
        PUNCT
    }

    private final String sql;
    private final int end;
    private int position;
    // the current token
    private Kind kind;
    private int start;
    private int stop;

    public SqlLexer(String sql) {
        this(sql, 0, sql.length());
    }

    /** A lexer over {@code sql} from {@code from} (inclusive) to {@code to} (exclusive). */
    public SqlLexer(String sql, int from, int to) {
        this.sql = sql;
        this.position = from;
        this.end = to;
    }

    /**
     * Moves to the next token.
     *
     * @return false at the end of the text
     */
    public boolean next() {
        int i = skipSpaceAndComments(sql, position, end);
        if (i >= end) {
            position = end;
            kind = null;
            return false;
        }
        start = i;
        char c = sql.charAt(i);
        if (c == '\'') {
            kind = Kind.STRING;
            stop = skipQuoted(i, '\'');
        } else if ((c == 'x' || c == 'X') && i + 1 < end && sql.charAt(i + 1) == '\'') {
            kind = Kind.STRING;
            int close = sql.indexOf('\'', i + 2); // a blob has no doubled quotes
            stop = close < 0 || close >= end ? end : close + 1;
        } else if (c == '"' || c == '`') {
            kind = Kind.QUOTED;
            stop = skipQuoted(i, c);
        } else if (c == '[') {
            kind = Kind.QUOTED;
            int close = sql.indexOf(']', i + 1);
            stop = close < 0 || close >= end ? end : close + 1;
        } else if (isWordStart(c)) {
            kind = Kind.WORD;
            stop = skipWord(i + 1);
        } else if (isDigit(c) || (c == '.' && i + 1 < end && isDigit(sql.charAt(i + 1)))) {
            kind = Kind.NUMBER;
            stop = skipNumber(i);
        } else if (c == '?') {
            kind = Kind.PARAMETER;
            int j = i + 1;
            while (j < end && isDigit(sql.charAt(j))) {
                j++;
            }
            stop = j;
        } else if (c == ':' || c == '@' || c == '$' || c == '#') {
            stop = skipVariable(i);
        } else if (c == ';') {
            kind = Kind.SEMICOLON;
            stop = i + 1;
        } else {
            kind = Kind.PUNCT;
            stop = i + 1;
        }
        position = stop;
        return true;
    }

    /** The current token's kind; null before the first and after the last. */
    public Kind kind() {
        return kind;
    }

    /** Where the current token starts in the text. */
    public int start() {
        return start;
    }

    /** Where the current token ends (exclusive). */
    public int end() {
        return stop;
    }

    /** The current token's text as written. */
    public String text() {
        return sql.substring(start, stop);
    }

    /** Whether the current token is the keyword {@code upper} (given in upper case). */
    public boolean is(String upper) {
        return kind == Kind.WORD && stop - start == upper.length()
                && sql.regionMatches(true, start, upper, 0, upper.length())
                && asciiOnly(start, stop);
    }

    /** Whether the current token is the single punctuation character {@code c}. */
    public boolean isPunct(char c) {
        return kind == Kind.PUNCT && sql.charAt(start) == c;
    }

    /**
     * The current word in ASCII upper case (SQLite folds only ASCII), or the empty string when
     * the token is not a word.
     */
    public String upperWord() {
        return kind == Kind.WORD ? asciiUpper(sql, start, stop) : "";
    }

    /**
     * The current token as a name, the way SQLite reads one where a name is expected: a word, or
     * a quoted name or string literal without its quotes (doubled quotes undone), in ASCII upper
     * case; the empty string for any other token.
     */
    public String upperName() {
        if (kind == Kind.WORD) {
            return upperWord();
        }
        if (kind != Kind.QUOTED && kind != Kind.STRING) {
            return "";
        }
        char open = sql.charAt(start);
        if (open == 'x' || open == 'X') {
            return ""; // a blob is no name
        }
        char close = open == '[' ? ']' : open;
        int to = stop > start + 1 && sql.charAt(stop - 1) == close ? stop - 1 : stop;
        String inner = sql.substring(start + 1, to);
        if (open != '[') {
            inner = inner.replace(String.valueOf(close) + close, String.valueOf(close));
        }
        return asciiUpper(inner, 0, inner.length());
    }

    // ------------------------------------------------------------------ static helpers

    /** The first keyword of {@code sql} in ASCII upper case; empty when it starts otherwise. */
    public static String firstWord(String sql) {
        int i = skipSpaceAndComments(sql, 0, sql.length());
        if (i >= sql.length() || !isWordStart(sql.charAt(i))) {
            return "";
        }
        int j = i + 1;
        while (j < sql.length() && isWordPart(sql.charAt(j))) {
            j++;
        }
        return asciiUpper(sql, i, j);
    }

    /** The index of the first character at or after {@code i} that is not space or comment. */
    public static int skipSpaceAndComments(String sql, int i, int end) {
        while (i < end) {
            char c = sql.charAt(i);
            if (isSpace(c)) {
                i++;
            } else if (c == '-' && i + 1 < end && sql.charAt(i + 1) == '-') {
                int eol = sql.indexOf('\n', i);
                i = eol < 0 || eol >= end ? end : eol + 1;
            } else if (c == '/' && i + 1 < end && sql.charAt(i + 1) == '*') {
                int close = sql.indexOf("*/", i + 2);
                i = close < 0 || close + 2 > end ? end : close + 2;
            } else {
                return i;
            }
        }
        return end;
    }

    private int skipQuoted(int i, char quote) {
        int j = i + 1;
        while (j < end) {
            if (sql.charAt(j) == quote) {
                if (j + 1 < end && sql.charAt(j + 1) == quote) {
                    j += 2; // a doubled quote stands for itself
                    continue;
                }
                return j + 1;
            }
            j++;
        }
        return end;
    }

    private int skipWord(int i) {
        while (i < end && isWordPart(sql.charAt(i))) {
            i++;
        }
        return i;
    }

    /** A number, read as {@code sqlite3GetToken} reads one (its {@code CC_DIGIT} case). */
    private int skipNumber(int i) {
        int j;
        if (charAt(i) == '0' && (charAt(i + 1) == 'x' || charAt(i + 1) == 'X')
                && isHexDigit(charAt(i + 2))) {
            j = skipDigits(i + 3, true);
        } else {
            j = skipDigits(i, false);
            if (charAt(j) == '.') {
                j = skipDigits(j + 1, false);
            }
            char e = charAt(j);
            if ((e == 'e' || e == 'E') && (isDigit(charAt(j + 1))
                    || ((charAt(j + 1) == '+' || charAt(j + 1) == '-')
                            && isDigit(charAt(j + 2))))) {
                j = skipDigits(j + 2, false);
            }
        }
        while (j < end && isWordPart(sql.charAt(j))) {
            j++; // glued identifier characters: SQLite makes the whole an illegal token
        }
        return j;
    }

    /** Digits (hex digits if {@code hex}) and {@code _} separators from {@code i}. */
    private int skipDigits(int i, boolean hex) {
        while (i < end) {
            char c = sql.charAt(i);
            if (hex ? isHexDigit(c) : isDigit(c)) {
                i++;
            } else if (c == '_') { // SQLITE_DIGIT_SEPARATOR
                i++;
            } else {
                break;
            }
        }
        return i;
    }

    /**
     * A parameter starting with {@code $}, {@code @}, {@code :} or {@code #}, read as {@code
     * sqlite3GetToken} reads one with Tcl variables compiled in: identifier characters, {@code
     * ::} pairs, and after at least one identifier character a {@code (…)} suffix running to the
     * first {@code )} or white space (or NUL), whatever it holds. Without any identifier
     * character it is an illegal token ({@link Kind#PUNCT}).
     */
    private int skipVariable(int i) {
        int j = i + 1;
        int n = 0;
        while (j < end) {
            char c = sql.charAt(j);
            if (isWordPart(c)) {
                n++;
                j++;
            } else if (c == '(' && n > 0) {
                j++;
                while (j < end && sql.charAt(j) != ')' && sql.charAt(j) != 0
                        && !isIsspace(sql.charAt(j))) {
                    j++;
                }
                if (j < end && sql.charAt(j) == ')') {
                    j++;
                }
                break;
            } else if (c == ':' && charAt(j + 1) == ':') {
                j += 2;
            } else {
                break;
            }
        }
        kind = n > 0 ? Kind.PARAMETER : Kind.PUNCT;
        return j;
    }

    /** The character at {@code i}, or NUL past the end (as SQLite reads its terminator). */
    private char charAt(int i) {
        return i < end ? sql.charAt(i) : 0;
    }

    private boolean asciiOnly(int from, int to) {
        for (int i = from; i < to; i++) {
            if (sql.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }

    private static String asciiUpper(String s, int from, int to) {
        char[] out = new char[to - from];
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            out[i - from] = c >= 'a' && c <= 'z' ? (char) (c - 32) : c;
        }
        return new String(out);
    }

    static boolean isWordStart(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
    }

    static boolean isWordPart(char c) {
        return isWordStart(c) || isDigit(c) || c == '$';
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isHexDigit(char c) {
        return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    /** White space to SQLite's tokenizer ({@code CC_SPACE}): not the vertical tab. */
    static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
    }

    /** {@code sqlite3Isspace}: the tokenizer's spaces and the vertical tab. */
    private static boolean isIsspace(char c) {
        return isSpace(c) || c == 0x0b;
    }
}
