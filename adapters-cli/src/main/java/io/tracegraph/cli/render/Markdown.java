package io.tracegraph.cli.render;

import java.util.List;

/**
 * A GitHub-flavoured Markdown document, as a pull-request comment or a CI job summary takes it:
 * paragraphs, tables (GFM), and sections folded in {@code <details>}. Text is escaped so that
 * whatever a span is named (pipes, asterisks, angle brackets, backticks) shows as written and
 * cannot break a table or inject markup.
 */
public final class Markdown {
    private static final String SPECIAL = "\\`*_[]<>|~&!#";

    private final StringBuilder out = new StringBuilder();

    /** A paragraph of raw Markdown (the caller escapes what came from outside with {@link #escape}). */
    public Markdown paragraph(String markdown) {
        blank();
        out.append(markdown.strip()).append('\n');
        return this;
    }

    /** A heading of level 1 to 6, its text escaped. */
    public Markdown heading(int level, String text) {
        if (level < 1 || level > 6) {
            throw new IllegalArgumentException("heading level 1..6: " + level);
        }
        blank();
        out.append("#".repeat(level)).append(' ').append(escape(text)).append('\n');
        return this;
    }

    /**
     * A table: a header row, then one row per list of cells (escaped here); {@code right} tells the
     * right-aligned (number) columns.
     */
    public Markdown table(List<String> headers, List<Boolean> right, List<List<String>> rows) {
        if (headers.isEmpty() || headers.size() != right.size()) {
            throw new IllegalArgumentException("a table has headers, each with its alignment");
        }
        blank();
        row(headers);
        out.append('|');
        for (Boolean r : right) {
            out.append(r ? " ---: |" : " --- |");
        }
        out.append('\n');
        for (List<String> cells : rows) {
            if (cells.size() != headers.size()) {
                throw new IllegalArgumentException("row has " + cells.size() + " cells for " + headers.size()
                        + " columns");
            }
            row(cells);
        }
        return this;
    }

    /** Opens a section folded in {@code <details>} with its one-line summary (escaped as HTML). */
    public Markdown openDetails(String summary) {
        blank();
        out.append("<details><summary>").append(html(summary)).append("</summary>\n");
        return this;
    }

    /** Closes the section {@link #openDetails} opened. */
    public Markdown closeDetails() {
        blank();
        out.append("</details>\n");
        return this;
    }

    /** The document, ending with a line break. */
    public String text() {
        return out.toString();
    }

    private void row(List<String> cells) {
        out.append('|');
        for (String cell : cells) {
            String text = escape(cell == null ? "" : cell);
            out.append(' ').append(text.isEmpty() ? " " : text).append(" |");
        }
        out.append('\n');
    }

    private void blank() {
        if (out.length() > 0) {
            out.append('\n');
        }
    }

    /**
     * {@code text} as literal Markdown inline text on one line: ASCII punctuation with a meaning
     * there backslash-escaped (CommonMark allows it before any), line breaks and other control
     * characters as spaces.
     */
    public static String escape(String text) {
        StringBuilder s = new StringBuilder(text.length() + 8);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
                s.append(' ');
            } else {
                if (SPECIAL.indexOf(c) >= 0) {
                    s.append('\\');
                }
                s.append(c);
            }
        }
        return s.toString();
    }

    /** {@code text} as HTML text (for {@code <summary>}). */
    public static String html(String text) {
        StringBuilder s = new StringBuilder(text.length() + 8);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&': s.append("&amp;"); break;
                case '<': s.append("&lt;"); break;
                case '>': s.append("&gt;"); break;
                case '"': s.append("&quot;"); break;
                default: s.append(Character.isISOControl(c) ? ' ' : c);
            }
        }
        return s.toString();
    }
}
