package io.tracegraph.postgres;

import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * Decides whether an ad-hoc statement may be run at all: it must be a single statement whose first
 * keyword is SELECT, WITH, VALUES, TABLE or EXPLAIN. A {@code ;} ends the statement only outside
 * string constants ({@code '...'}, {@code E'...'} with backslash escapes, {@code $tag$...$tag$}),
 * quoted identifiers and comments ({@code --} and nested {@code /* *}{@code /}), as PostgreSQL's
 * lexer reads them with {@code standard_conforming_strings} on (which the caller sets); only blanks
 * and comments may follow it.
 *
 * <p>This is the first of two guards: whatever passes is still run in a read-only transaction, which
 * refuses writes hidden in a query (a data-modifying WITH, a function that writes, SELECT INTO).
 */
final class AdHocSqlGate {
    private static final Set<String> ALLOWED = Set.of("SELECT", "WITH", "VALUES", "TABLE", "EXPLAIN");

    /** The statement to run (without its {@code ;} and what follows), or why it is refused. */
    record Verdict(String statement, String refusal) {
        static Verdict run(String statement) {
            return new Verdict(Objects.requireNonNull(statement), null);
        }

        static Verdict refuse(String refusal) {
            return new Verdict(null, Objects.requireNonNull(refusal));
        }

        boolean refused() {
            return refusal != null;
        }
    }

    private final String text;
    private final int n;
    private int i;

    private AdHocSqlGate(String text) {
        this.text = text;
        this.n = text.length();
    }

    static Verdict check(String text) {
        return new AdHocSqlGate(text).check();
    }

    private Verdict check() {
        int end = -1;
        while (i < n && end < 0) {
            char c = text.charAt(i);
            String problem = null;
            if (c == ';') {
                end = i;
            } else if (startsComment()) {
                problem = skipComment();
            } else if (c == '\'') {
                problem = skipString(isEscapeString(i));
            } else if (c == '"') {
                problem = skipQuoted('"', "quoted identifier");
            } else if (c == '$' && (i == 0 || !isIdentifierPart(text.charAt(i - 1)))) {
                problem = skipDollar();
            } else {
                i++;
            }
            if (problem != null) {
                return Verdict.refuse(problem);
            }
        }
        if (end >= 0) {
            i = end + 1;
            while (i < n) {
                if (Character.isWhitespace(text.charAt(i))) {
                    i++;
                } else if (startsComment()) {
                    String problem = skipComment();
                    if (problem != null) {
                        return Verdict.refuse(problem);
                    }
                } else {
                    return Verdict.refuse("only one statement can be run: found more after the `;` at character "
                            + (end + 1));
                }
            }
        }
        String statement = end < 0 ? text : text.substring(0, end);
        String keyword = firstKeyword(statement);
        if (keyword.isEmpty()) {
            return Verdict.refuse(statement.isBlank() || i >= statement.length() ? "no SQL statement given"
                    : "not a SQL query: it must start with SELECT, WITH, VALUES, TABLE or EXPLAIN");
        }
        if (!ALLOWED.contains(keyword)) {
            return Verdict.refuse("only SELECT, WITH, VALUES, TABLE and EXPLAIN statements can be run, not "
                    + keyword);
        }
        return Verdict.run(statement);
    }

    /**
     * The first word of {@code statement} (scanned already: its comments are terminated) after
     * blanks, comments and opening parentheses, upper-cased; "" when there is none.
     */
    private String firstKeyword(String statement) {
        i = 0;
        int length = statement.length();
        while (i < length) {
            char c = statement.charAt(i);
            if (Character.isWhitespace(c) || c == '(') {
                i++;
            } else if (startsComment()) {
                skipComment();
            } else {
                break;
            }
        }
        int start = i;
        while (i < length && isIdentifierPart(statement.charAt(i))) {
            i++;
        }
        return statement.substring(start, i).toUpperCase(Locale.ROOT);
    }

    private boolean startsComment() {
        if (i + 1 >= n) {
            return false;
        }
        char c = text.charAt(i);
        char next = text.charAt(i + 1);
        return c == '-' && next == '-' || c == '/' && next == '*';
    }

    /** Skips the comment at {@code i}; returns a problem, or null. */
    private String skipComment() {
        if (text.charAt(i) == '-') {
            int eol = text.indexOf('\n', i);
            i = eol < 0 ? n : eol + 1;
            return null;
        }
        int depth = 0;
        while (i < n) {
            if (text.startsWith("/*", i)) {
                depth++;
                i += 2;
            } else if (text.startsWith("*/", i)) {
                depth--;
                i += 2;
                if (depth == 0) {
                    return null;
                }
            } else {
                i++;
            }
        }
        return "unterminated /* comment";
    }

    /** E'...' (or e'...'): the E must not end an identifier (xE'...' is not an escape string). */
    private boolean isEscapeString(int quote) {
        if (quote == 0) {
            return false;
        }
        char e = text.charAt(quote - 1);
        return (e == 'E' || e == 'e') && (quote == 1 || !isIdentifierPart(text.charAt(quote - 2)));
    }

    private String skipString(boolean backslashEscapes) {
        i++;
        while (i < n) {
            char c = text.charAt(i);
            if (backslashEscapes && c == '\\') {
                i += 2;
            } else if (c == '\'') {
                if (i + 1 < n && text.charAt(i + 1) == '\'') {
                    i += 2;
                } else {
                    i++;
                    return null;
                }
            } else {
                i++;
            }
        }
        return "unterminated string constant";
    }

    private String skipQuoted(char quote, String what) {
        i++;
        while (i < n) {
            if (text.charAt(i) == quote) {
                if (i + 1 < n && text.charAt(i + 1) == quote) {
                    i += 2;
                } else {
                    i++;
                    return null;
                }
            } else {
                i++;
            }
        }
        return "unterminated " + what;
    }

    /** {@code $tag$...$tag$} or {@code $$...$$}; a {@code $} not starting one (a parameter {@code $1}) is skipped. */
    private String skipDollar() {
        int j = i + 1;
        if (j < n && isIdentifierStart(text.charAt(j))) {
            while (j < n && isIdentifierPart(text.charAt(j)) && text.charAt(j) != '$') {
                j++;
            }
        }
        if (j >= n || text.charAt(j) != '$') {
            i++;
            return null;
        }
        String tag = text.substring(i, j + 1);
        int close = text.indexOf(tag, j + 1);
        if (close < 0) {
            return "unterminated dollar-quoted string " + tag;
        }
        i = close + tag.length();
        return null;
    }

    private static boolean isIdentifierStart(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= 0x80;
    }

    private static boolean isIdentifierPart(char c) {
        return isIdentifierStart(c) || c >= '0' && c <= '9' || c == '$';
    }
}
