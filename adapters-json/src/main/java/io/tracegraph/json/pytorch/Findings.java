package io.tracegraph.json.pytorch;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the reader repaired or set aside while mapping a trace, counted by code with the first
 * example, to be reported as health warnings (or, for the few that make a trace unusable, errors).
 */
final class Findings {
    /** One finding: a stable code, how many times, and a message for people. */
    record Finding(String code, boolean error, long count, String message) {
    }

    private final Map<String, long[]> counts = new LinkedHashMap<>();
    private final Map<String, String> examples = new LinkedHashMap<>();
    private final Map<String, Boolean> errors = new LinkedHashMap<>();
    private final Map<String, String> texts = new LinkedHashMap<>();

    /** Counts one occurrence; {@code text} is the message with {@code %d} for the count and {@code %s} for the first example. */
    void warn(String code, String text, String example) {
        add(code, false, text, example, 1);
    }

    void warn(String code, String text, String example, long count) {
        add(code, false, text, example, count);
    }

    void error(String code, String text, String example) {
        add(code, true, text, example, 1);
    }

    private void add(String code, boolean error, String text, String example, long count) {
        if (count <= 0) {
            return;
        }
        long[] c = counts.computeIfAbsent(code, k -> new long[1]);
        c[0] += count;
        examples.putIfAbsent(code, example);
        errors.putIfAbsent(code, error);
        texts.putIfAbsent(code, text);
    }

    /** Adds another's findings after these, as if they had been counted here in its order. */
    void addAll(Findings other) {
        other.counts.forEach((code, c) -> add(code, other.errors.get(code), other.texts.get(code),
                other.examples.get(code), c[0]));
    }

    long count(String code) {
        long[] c = counts.get(code);
        return c == null ? 0 : c[0];
    }

    List<Finding> all() {
        List<Finding> out = new ArrayList<>();
        counts.forEach((code, c) -> out.add(new Finding(code, errors.get(code), c[0],
                String.format(java.util.Locale.ROOT, texts.get(code), c[0], examples.get(code)))));
        return out;
    }
}
