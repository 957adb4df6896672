package io.tracegraph.domain.compare;

import java.util.List;
import java.util.Objects;

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
        PathStats twice = firstRepeated(paths);
        if (twice != null) {
            throw new IllegalArgumentException(
                    "run " + runId + " lists path " + twice.path() + " twice; aggregate its occurrences first");
        }
    }

    /**
     * The first path whose hash an earlier one has, or null: an open-addressing set of the hashes
     * (a set comparison builds the facts of tens of runs of 50,000 paths each; boxing every hash
     * into a HashSet cost more than reading them).
     */
    private static PathStats firstRepeated(List<PathStats> paths) {
        int bits = 64 - Long.numberOfLeadingZeros(Math.max(4, paths.size() * 2L));
        int capacity = 1 << bits;
        long[] slots = new long[capacity];
        boolean[] used = new boolean[capacity];
        int mask = capacity - 1;
        for (PathStats stats : paths) {
            long hash = stats.pathHash();
            // Fibonacci hashing: the top bits of the product depend on all bits of the hash.
            int slot = (int) ((hash * 0x9E3779B97F4A7C15L) >>> (64 - bits));
            while (used[slot]) {
                if (slots[slot] == hash) {
                    return stats;
                }
                slot = (slot + 1) & mask;
            }
            used[slot] = true;
            slots[slot] = hash;
        }
        return null;
    }

    /** A run without gradient facts (all that a group comparison looks at). */
    public RunFacts(String runId, double totalMs, long peakBytes, List<PathStats> paths) {
        this(runId, totalMs, peakBytes, paths, List.of());
    }
}
