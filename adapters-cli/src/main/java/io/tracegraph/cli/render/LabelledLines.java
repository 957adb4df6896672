package io.tracegraph.cli.render;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A few labelled lines, as a person writes a summary ({@code Ran:     tinygpt::train::update on
 * cuda:0}), labels aligned, a long value wrapped at spaces below its label to fit the width.
 */
public final class LabelledLines {
    private record Entry(String label, String value, Style style) {
    }

    private final List<Entry> entries = new ArrayList<>();

    /** Adds a line; a {@code null} value leaves the line out. */
    public LabelledLines add(String label, String value) {
        return add(label, value, Style.PLAIN);
    }

    /** Adds a line whose value has a style on a colour terminal; a {@code null} value leaves it out. */
    public LabelledLines add(String label, String value, Style style) {
        Objects.requireNonNull(label, "label");
        if (value != null) {
            entries.add(new Entry(label, value, style));
        }
        return this;
    }

    /** The lines, at most {@code width} columns each. */
    public List<String> lines(int width, boolean color) {
        int labelWidth = 0;
        for (Entry e : entries) {
            labelWidth = Math.max(labelWidth, TextWidth.of(e.label()) + 1);
        }
        List<String> lines = new ArrayList<>(entries.size());
        for (Entry e : entries) {
            String label = TextWidth.clipEnd(TextWidth.pad(e.label() + ":", labelWidth, false) + "  ", width - 1);
            String indent = " ".repeat(TextWidth.of(label));
            // A long value goes on below its label, at its indent: the whole of it, never cut but per word.
            List<String> parts = TextWidth.wrap(e.value(), Math.max(1, width - TextWidth.of(label)), "");
            for (int i = 0; i < parts.size(); i++) {
                lines.add((i == 0 ? label : indent) + e.style().apply(parts.get(i), color));
            }
        }
        return lines;
    }
}
