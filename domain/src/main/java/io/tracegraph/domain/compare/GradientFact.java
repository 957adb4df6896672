package io.tracegraph.domain.compare;

import io.tracegraph.domain.graph.GradientRecord;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * A parameter gradient of a run: its {@code root} and {@code key}, its {@code state} as stored
 * ({@code present}, {@code missing}, {@code zero} or {@code non_finite}) and its {@code norm}
 * ({@code null} when absent).
 */
public record GradientFact(String root, String key, String state, Double norm) {
    public static final String PRESENT = "present";
    private static final Set<String> STATES = Set.of(PRESENT, "missing", "zero", "non_finite");

    public GradientFact {
        Objects.requireNonNull(root, "root");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(state, "state");
        if (!STATES.contains(state)) {
            throw new IllegalArgumentException("unknown gradient state: " + state);
        }
    }

    public static GradientFact of(GradientRecord record) {
        return new GradientFact(record.root(), record.key(), record.state().name().toLowerCase(Locale.ROOT),
                record.norm());
    }

    /** Whether the gradient was computed ({@code present}); the other states are failures. */
    public boolean isPresent() {
        return PRESENT.equals(state);
    }
}
