package io.tracegraph.cli.render;

import com.fasterxml.jackson.core.JsonGenerator;
import io.tracegraph.json.GraphJsonWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A listing for programs: JSON (one object: the facts, then each grid as an array of objects) or
 * CSV (RFC 4180; one section per grid, headed {@code # name}, when there are several). Field names
 * and order are the listing's; numbers are written by {@link MachineNumbers}: integers exact,
 * floats without binary artifacts, whatever the locale.
 */
public final class ListingMachine {
    private ListingMachine() {
    }

    public static void json(Listing listing, OutputStream out) {
        GraphJsonWriter.write(out, g -> {
            g.writeStartObject();
            for (Map.Entry<String, Object> fact : listing.facts().entrySet()) {
                g.writeFieldName(fact.getKey());
                value(g, fact.getValue());
            }
            for (Listing.Grid grid : listing.grids()) {
                g.writeFieldName(grid.name());
                g.writeStartArray();
                for (List<Object> row : grid.rows()) {
                    g.writeStartObject();
                    for (int c = 0; c < row.size(); c++) {
                        g.writeFieldName(grid.columns().get(c));
                        value(g, row.get(c));
                    }
                    g.writeEndObject();
                }
                g.writeEndArray();
            }
            g.writeEndObject();
        });
    }

    private static void value(JsonGenerator g, Object raw) throws IOException {
        Object value = MachineNumbers.normalize(raw);
        if (value == null) {
            g.writeNull();
        } else if (value instanceof Long l) {
            g.writeNumber(l);
        } else if (value instanceof BigDecimal b) {
            g.writeNumber(MachineNumbers.text(b));
        } else if (value instanceof Double d) {
            g.writeNumber(d); // not finite: as Jackson writes it
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

    /**
     * The grids as CSV; a listing of facts alone ({@code db status}) as one row of them, so that CSV
     * is never empty.
     */
    public static void csv(Listing listing, OutputStream out) {
        PrintWriter w = new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8));
        if (listing.grids().isEmpty() && !listing.facts().isEmpty()) {
            w.print(csvLine(new ArrayList<>(listing.facts().keySet())));
            List<String> cells = new ArrayList<>();
            listing.facts().values().forEach(v -> cells.add(cell(v)));
            w.print(csvLine(cells));
            w.flush();
            return;
        }
        boolean several = listing.grids().size() > 1;
        boolean first = true;
        for (Listing.Grid grid : listing.grids()) {
            if (several) {
                if (!first) {
                    w.print("\r\n");
                }
                w.print("# " + grid.name() + "\r\n");
            }
            first = false;
            w.print(csvLine(grid.columns()));
            for (List<Object> row : grid.rows()) {
                List<String> cells = new ArrayList<>(row.size());
                for (Object v : row) {
                    cells.add(cell(v));
                }
                w.print(csvLine(cells));
            }
        }
        w.flush();
    }

    /** A value as one CSV cell's text (before quoting); lists as {@code [a,b]}. */
    static String cell(Object v) {
        if (v == null) {
            return "";
        }
        if (v instanceof Number n) {
            return MachineNumbers.text(n);
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
}
