package io.tracegraph.domain.compare;

import java.util.Objects;
import java.util.Set;

/**
 * A gradient whose state differs between the base run and the candidate. A state is {@code null}
 * on the side where the gradient was not recorded at all (and so is its norm).
 */
public record GradientChange(String root, String key, String baseState, String candidateState, Double baseNorm,
        Double candidateNorm) {
    private static final Set<String> FAILED = Set.of("missing", "zero", "non_finite");

    public GradientChange {
        Objects.requireNonNull(root, "root");
        Objects.requireNonNull(key, "key");
        if (baseState == null && candidateState == null) {
            throw new IllegalArgumentException("gradient " + root + "/" + key + " is in neither run");
        }
        if (Objects.equals(baseState, candidateState)) {
            throw new IllegalArgumentException("gradient " + root + "/" + key + " did not change: " + baseState);
        }
    }

    /** Whether the gradient went from {@code present} to {@code missing}, {@code zero} or {@code non_finite}. */
    public boolean regression() {
        return GradientFact.PRESENT.equals(baseState) && candidateState != null && FAILED.contains(candidateState);
    }
}
