package io.tracegraph.domain.compare;

import java.util.Objects;

/**
 * One quantity compared between two groups of runs: the median of each side, the relative change
 * {@code candidateMedian / baselineMedian - 1} (0 when both are 0, {@code +Infinity} when only the
 * baseline median is 0), its bootstrap confidence interval and the verdict. {@code interval} is
 * {@code null} when a side had too few runs, and the verdict then is {@link Verdict#INCONCLUSIVE}.
 */
public record MetricComparison(double baselineMedian, double candidateMedian, double relativeChange,
        ConfidenceInterval interval, Verdict verdict) {

    public MetricComparison {
        if (!Double.isFinite(baselineMedian) || !Double.isFinite(candidateMedian)) {
            throw new IllegalArgumentException("medians must be finite: " + baselineMedian + ", " + candidateMedian);
        }
        if (Double.isNaN(relativeChange)) {
            throw new IllegalArgumentException("relativeChange must not be NaN");
        }
        Objects.requireNonNull(verdict, "verdict");
        if (interval == null && verdict != Verdict.INCONCLUSIVE) {
            throw new IllegalArgumentException("a verdict without an interval must be INCONCLUSIVE: " + verdict);
        }
    }

    /** Whether the verdict is {@link Verdict#SLOWER} with a relative change above {@code fraction}. */
    boolean slowerBy(double fraction) {
        return verdict == Verdict.SLOWER && relativeChange > fraction;
    }
}
