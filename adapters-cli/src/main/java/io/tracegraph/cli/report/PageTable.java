package io.tracegraph.cli.report;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A sortable table of a report page. Each column has a unit that tells the script how to show and
 * sort its values: {@code text}, {@code count}, {@code ns}, {@code ms}, {@code bytes},
 * {@code percent} (a signed change), {@code share} (a part of a whole, in percent) or
 * {@code number}. Cells are strings, numbers or {@code null}.
 */
record PageTable(String id, String title, String note, List<String> labels, List<String> units,
        List<List<Object>> rows) {

    PageTable {
        labels = List.copyOf(labels);
        units = List.copyOf(units);
        rows = List.copyOf(rows);
        if (labels.size() != units.size()) {
            throw new IllegalArgumentException("one unit per column");
        }
    }

    /** Starts a table with columns given as label, unit, label, unit, ... */
    static Builder named(String id, String title, String... labelsAndUnits) {
        return new Builder(id, title, labelsAndUnits);
    }

    static final class Builder {
        private final String id;
        private final String title;
        private final List<String> labels = new ArrayList<>();
        private final List<String> units = new ArrayList<>();
        private final List<List<Object>> rows = new ArrayList<>();
        private String note;

        private Builder(String id, String title, String... labelsAndUnits) {
            this.id = id;
            this.title = title;
            for (int i = 0; i + 1 < labelsAndUnits.length; i += 2) {
                labels.add(labelsAndUnits[i]);
                units.add(labelsAndUnits[i + 1]);
            }
        }

        Builder note(String text) {
            this.note = text;
            return this;
        }

        Builder row(Object... cells) {
            if (cells.length != labels.size()) {
                throw new IllegalArgumentException("expected " + labels.size() + " cells, got " + cells.length);
            }
            rows.add(Arrays.asList(cells));
            return this;
        }

        PageTable build() {
            return new PageTable(id, title, note, labels, units, rows);
        }
    }

    void write(JsonGenerator g) throws IOException {
        g.writeStartObject();
        g.writeStringField("id", id);
        g.writeStringField("title", title);
        if (note != null) {
            g.writeStringField("note", note);
        }
        g.writeArrayFieldStart("columns");
        for (int i = 0; i < labels.size(); i++) {
            g.writeStartObject();
            g.writeStringField("label", labels.get(i));
            g.writeStringField("unit", units.get(i));
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeArrayFieldStart("rows");
        for (List<Object> row : rows) {
            g.writeStartArray();
            for (Object cell : row) {
                value(g, cell);
            }
            g.writeEndArray();
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    /** A cell or fact value: null, a number (non-finite ones as null), a boolean, else its text. */
    static void value(JsonGenerator g, Object cell) throws IOException {
        if (cell == null) {
            g.writeNull();
        } else if (cell instanceof Long || cell instanceof Integer) {
            g.writeNumber(((Number) cell).longValue());
        } else if (cell instanceof Number number) {
            double d = number.doubleValue();
            if (Double.isFinite(d)) {
                g.writeNumber(d);
            } else {
                g.writeNull();
            }
        } else if (cell instanceof Boolean b) {
            g.writeBoolean(b);
        } else {
            g.writeString(cell.toString());
        }
    }

    static void writeAll(JsonGenerator g, String field, List<PageTable> tables) throws IOException {
        g.writeArrayFieldStart(field);
        for (PageTable t : tables) {
            t.write(g);
        }
        g.writeEndArray();
    }
}
