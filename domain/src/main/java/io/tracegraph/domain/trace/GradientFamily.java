package io.tracegraph.domain.trace;

import java.util.Objects;

/** A gradient contract's expectation of one parameter family. */
public record GradientFamily(String family, FamilyExpectation expectation, long minPresent) {
    public GradientFamily {
        Objects.requireNonNull(family, "family");
        Objects.requireNonNull(expectation, "expectation");
        if (minPresent < 0) {
            throw new IllegalArgumentException("minPresent must be >= 0");
        }
    }
}
