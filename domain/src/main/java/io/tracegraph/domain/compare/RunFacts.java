package io.tracegraph.domain.compare;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What a comparison needs of one run: its id, measured total time in milliseconds, memory peak in
 * bytes, the statistics of each of its semantic paths (one entry per path) and its gradients.
 */
public record RunFacts(String runId, double totalMs, long peakBytes, List<PathStats> paths,
        List<GradientFact> gradients) {

    public RunFacts {
        Objects.requireNonNull(runId, "runId");
        if (!Double.isFinite(totalMs) || totalMs < 0) {
            throw new IllegalArgumentException("totalMs must be finite and not negative: " + totalMs);
        }
        if (peakBytes < 0) {
            throw new IllegalArgumentException("peakBytes must not be negative: " + peakBytes);
        }
        paths = List.copyOf(paths);
        gradients = List.copyOf(gradients);
        Set<Long> seen = new HashSet<>(paths.size() * 2);
        for (PathStats stats : paths) {
            if (!seen.add(stats.pathHash())) {
                throw new IllegalArgumentException(
                        "run " + runId + " lists path " + stats.path() + " twice; aggregate its occurrences first");
            }
        }
    }

    /** A run without gradient facts (all that a group comparison looks at). */
    public RunFacts(String runId, double totalMs, long peakBytes, List<PathStats> paths) {
        this(runId, totalMs, peakBytes, paths, List.of());
    }
}
