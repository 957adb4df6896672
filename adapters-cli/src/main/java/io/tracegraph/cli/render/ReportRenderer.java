package io.tracegraph.cli.render;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Renders a {@link Report} in the format asked for: for a person at a terminal a table fitted to its
 * width with numbers in their units ({@link ListingText}), Markdown ({@link ListingMarkdown}), JSON or
 * CSV ({@link ListingMachine}), or, when a table goes to a pipe or a file, today's aligned table
 * with the numbers as JSON and CSV write them. One renderer serves every listing command.
 */
public final class ReportRenderer {
    private ReportRenderer() {
    }

    /** {@code report} in the format of {@code rendering}. */
    public static void render(Report report, Rendering rendering, OutputStream out) throws IOException {
        switch (rendering.format()) {
            case JSON:
                ListingMachine.json(listing(report), out);
                break;
            case CSV:
                ListingMachine.csv(listing(report), out);
                break;
            case MARKDOWN:
                text(out, w -> w.print(ListingMarkdown.render(listing(report))));
                break;
            default:
                if (rendering.screen().terminal()) {
                    text(out, w -> w.print(ListingText.render(listing(report), rendering.screen(), rendering.wide())));
                } else {
                    text(out, w -> table(w, report));
                }
        }
    }

    /** As {@link #render(Report, Rendering, OutputStream)} for a pipe (tests and callers without a screen). */
    public static void render(Report report, Format format, OutputStream out) throws IOException {
        render(report, new Rendering(format, Screen.pipe(), false), out);
    }

    /** The report as the renderers for people and programs read it. */
    static Listing listing(Report report) {
        List<Listing.Grid> grids = new ArrayList<>(report.tables().size());
        for (Table t : report.tables()) {
            grids.add(t.namedUnits() ? Listing.Grid.named(t.name(), t.columns(), t.rows())
                    : Listing.Grid.plain(t.name(), t.columns(), t.rows()));
        }
        return new Listing(report.facts(), grids);
    }

    /** Writes text to a stream. */
    public interface TextBody {
        void write(PrintWriter w);
    }

    /** Writes {@code body} as UTF-8 to {@code out}. */
    public static void text(OutputStream out, TextBody body) {
        PrintWriter w = new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8));
        body.write(w);
        w.flush();
    }

    private static void table(PrintWriter w, Report report) {
        int keyWidth = report.facts().keySet().stream().mapToInt(String::length).max().orElse(0);
        for (Map.Entry<String, Object> fact : report.facts().entrySet()) {
            w.println(pad(fact.getKey() + ":", keyWidth + 1, false) + " " + oneLine(cell(fact.getValue())));
        }
        for (Table table : report.tables()) {
            if (!report.facts().isEmpty() || report.tables().size() > 1) {
                w.println();
                w.println(table.name() + " (" + table.rows().size() + ")");
            }
            if (table.rows().isEmpty()) {
                w.println("  (none)");
                continue;
            }
            int[] width = new int[table.columns().size()];
            boolean[] numeric = new boolean[width.length];
            List<List<String>> cells = new ArrayList<>();
            for (int c = 0; c < width.length; c++) {
                width[c] = table.columns().get(c).length();
                numeric[c] = true;
            }
            for (List<Object> row : table.rows()) {
                List<String> line = new ArrayList<>(row.size());
                for (int c = 0; c < row.size(); c++) {
                    Object v = row.get(c);
                    // One table row is one line: a line break in a value is shown, not obeyed.
                    String s = oneLine(cell(v));
                    line.add(s);
                    width[c] = Math.max(width[c], s.length());
                    numeric[c] &= v == null || v instanceof Number;
                }
                cells.add(line);
            }
            StringBuilder header = new StringBuilder();
            StringBuilder rule = new StringBuilder();
            for (int c = 0; c < width.length; c++) {
                String sep = c == 0 ? "" : "  ";
                header.append(sep).append(pad(table.columns().get(c), width[c], numeric[c]));
                rule.append(sep).append("-".repeat(width[c]));
            }
            w.println(header.toString().stripTrailing());
            w.println(rule);
            for (List<String> line : cells) {
                StringBuilder out = new StringBuilder();
                for (int c = 0; c < line.size(); c++) {
                    out.append(c == 0 ? "" : "  ").append(pad(line.get(c), width[c], numeric[c]));
                }
                w.println(out.toString().stripTrailing());
            }
        }
    }

    private static String cell(Object v) {
        return ListingMachine.cell(v);
    }

    private static String pad(String s, int width, boolean right) {
        if (s.length() >= width) {
            return s;
        }
        String fill = " ".repeat(width - s.length());
        return right ? fill + s : s + fill;
    }

    /**
     * {@code text} made safe for one terminal line: line breaks and other control characters (an
     * escape sequence in a hostile span id, say) and Unicode's bidirectional and line-separator
     * controls are shown as backslash escapes ({@code \n}, {@code \r}, a u-escape for the others),
     * never obeyed. Tabs stay.
     */
    public static String oneLine(String text) {
        if (text == null) {
            return "null";
        }
        StringBuilder out = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean unsafe = c != '\t' && (Character.isISOControl(c) || c >= '\u202a' && c <= '\u202e'
                    || c >= '\u2066' && c <= '\u2069' || c == '\u2028' || c == '\u2029' || c == '\u200e'
                    || c == '\u200f' || c == '\u061c');
            if (unsafe && out == null) {
                out = new StringBuilder(text.length() + 16).append(text, 0, i);
            }
            if (out != null) {
                if (!unsafe) {
                    out.append(c);
                } else if (c == '\n') {
                    out.append("\\n");
                } else if (c == '\r') {
                    out.append("\\r");
                } else {
                    out.append(String.format("\\u%04x", (int) c));
                }
            }
        }
        return out == null ? text : out.toString();
    }
}
