package io.tracegraph.cli.report;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** The headline facts of a report page, in order: label, value and unit (as for {@link PageTable}). */
final class PageFacts {
    private record Fact(String label, Object value, String unit) {
    }

    private final List<Fact> facts = new ArrayList<>();

    /** Adds a fact unless its value is {@code null}. */
    PageFacts add(String label, Object value, String unit) {
        if (value != null) {
            facts.add(new Fact(label, value, unit));
        }
        return this;
    }

    void write(JsonGenerator g, String field) throws IOException {
        g.writeArrayFieldStart(field);
        for (Fact f : facts) {
            g.writeStartObject();
            g.writeStringField("label", f.label());
            g.writeFieldName("value");
            PageTable.value(g, f.value());
            g.writeStringField("unit", f.unit());
            g.writeEndObject();
        }
        g.writeEndArray();
    }
}
