package io.tracegraph.cli.render;

import com.fasterxml.jackson.core.JsonGenerator;
import io.tracegraph.json.GraphJsonWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Renders a {@link Report} as an aligned text table, CSV (RFC 4180) or JSON. */
public final class ReportRenderer {
    private ReportRenderer() {
    }

    public static void render(Report report, Format format, OutputStream out) throws IOException {
        switch (format) {
            case JSON:
                GraphJsonWriter.write(out, g -> json(g, report));
                break;
            case CSV:
                text(out, w -> csv(w, report));
                break;
            default:
                text(out, w -> table(w, report));
        }
    }

    private interface TextBody {
        void write(PrintWriter w);
    }

    private static void text(OutputStream out, TextBody body) {
        PrintWriter w = new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8));
        body.write(w);
        w.flush();
    }

    private static void json(JsonGenerator g, Report report) throws IOException {
        g.writeStartObject();
        for (Map.Entry<String, Object> fact : report.facts().entrySet()) {
            g.writeFieldName(fact.getKey());
            value(g, fact.getValue());
        }
        for (Table table : report.tables()) {
            g.writeFieldName(table.name());
            g.writeStartArray();
            for (List<Object> row : table.rows()) {
                g.writeStartObject();
                for (int c = 0; c < row.size(); c++) {
                    g.writeFieldName(table.columns().get(c));
                    value(g, row.get(c));
                }
                g.writeEndObject();
            }
            g.writeEndArray();
        }
        g.writeEndObject();
    }

    private static void value(JsonGenerator g, Object value) throws IOException {
        if (value == null) {
            g.writeNull();
        } else if (value instanceof Long || value instanceof Integer) {
            g.writeNumber(((Number) value).longValue());
        } else if (value instanceof Double d) {
            g.writeNumber(d);
        } else if (value instanceof Number n) {
            g.writeNumber(n.toString());
        } else if (value instanceof Boolean b) {
            g.writeBoolean(b);
        } else if (value instanceof List<?> list) {
            g.writeStartArray();
            for (Object item : list) {
                value(g, item);
            }
            g.writeEndArray();
        } else {
            g.writeString(value.toString());
        }
    }

    private static void csv(PrintWriter w, Report report) {
        boolean several = report.tables().size() > 1;
        boolean first = true;
        for (Table table : report.tables()) {
            if (several) {
                if (!first) {
                    w.print("\r\n");
                }
                w.print("# " + table.name() + "\r\n");
            }
            first = false;
            w.print(csvLine(table.columns()));
            for (List<Object> row : table.rows()) {
                List<String> cells = new ArrayList<>(row.size());
                for (Object v : row) {
                    cells.add(v == null ? "" : cell(v));
                }
                w.print(csvLine(cells));
            }
        }
    }

    private static String csvLine(List<String> cells) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < cells.size(); i++) {
            if (i > 0) {
                line.append(',');
            }
            String c = cells.get(i);
            if (c.indexOf(',') >= 0 || c.indexOf('"') >= 0 || c.indexOf('\n') >= 0 || c.indexOf('\r') >= 0) {
                line.append('"').append(c.replace("\"", "\"\"")).append('"');
            } else {
                line.append(c);
            }
        }
        return line.append("\r\n").toString();
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
        if (v == null) {
            return "";
        }
        if (v instanceof Double d) {
            return d == Math.rint(d) && Math.abs(d) < 1e15 ? String.format("%.1f", d) : String.valueOf(d);
        }
        if (v instanceof List<?> list) {
            StringBuilder s = new StringBuilder("[");
            for (int i = 0; i < list.size(); i++) {
                s.append(i == 0 ? "" : ",").append(cell(list.get(i)));
            }
            return s.append(']').toString();
        }
        return v.toString();
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
