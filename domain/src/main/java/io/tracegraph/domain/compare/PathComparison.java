package io.tracegraph.domain.compare;

import java.util.Objects;

/**
 * One semantic path compared between two groups of runs: in how many runs of each side it occurs,
 * and its self time, total time and bytes compared as {@link MetricComparison}s.
 */
public record PathComparison(long pathHash, String path, String kind, int baselineRuns, int candidateRuns,
        MetricComparison selfTimeNs, MetricComparison totalTimeNs, MetricComparison bytes) {

    public PathComparison {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(kind, "kind");
        if (baselineRuns < 1 || candidateRuns < 1) {
            throw new IllegalArgumentException("a compared path occurs on both sides: " + path);
        }
        Objects.requireNonNull(selfTimeNs, "selfTimeNs");
        Objects.requireNonNull(totalTimeNs, "totalTimeNs");
        Objects.requireNonNull(bytes, "bytes");
    }

    /**
     * The path's verdict: that of its total time, children included. A span that got slower makes
     * its ancestors slower too; the self-time verdict says where the time went. Self times of spans
     * that only wrap children are small and noisy, so they do not decide.
     */
    public Verdict verdict() {
        return totalTimeNs.verdict();
    }
}
