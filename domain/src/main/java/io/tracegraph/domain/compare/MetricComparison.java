package io.tracegraph.domain.compare;

import java.util.Objects;

/**
 * One quantity compared between two groups of runs: the median of each side, the relative change
 * {@code candidateMedian / baselineMedian - 1} (0 when both are 0, {@code +Infinity} when only the
 * baseline median is 0), its bootstrap confidence interval and the verdict. {@code interval} is
 * {@code null} when a side had too few runs, and the verdict then is {@link Verdict#INCONCLUSIVE}.
 *
 * <p>For people reading the numbers: each side's spread, its median absolute deviation (the median
 * of the distances from the median; 0 for one run), and {@code pValue}, the one-sided rank-sum
 * test's p-value in the direction of the change, Holm-adjusted for the paths tested with it (so it
 * is at most the error rate exactly when the test confirms a verdict of slower or faster); NaN when
 * the quantity was not tested (too few runs, a path outside the tested family, or values that vary
 * on neither side, which are measured rather than estimated).
 */
public record MetricComparison(double baselineMedian, double candidateMedian, double relativeChange,
        ConfidenceInterval interval, Verdict verdict, double baselineSpread, double candidateSpread, double pValue) {

    /** A comparison without spreads and p-value (NaN). */
    public MetricComparison(double baselineMedian, double candidateMedian, double relativeChange,
            ConfidenceInterval interval, Verdict verdict) {
        this(baselineMedian, candidateMedian, relativeChange, interval, verdict, Double.NaN, Double.NaN, Double.NaN);
    }

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
        if (baselineSpread < 0 || candidateSpread < 0 || Double.isInfinite(baselineSpread)
                || Double.isInfinite(candidateSpread)) {
            throw new IllegalArgumentException("spreads must be finite and >= 0, or NaN: " + baselineSpread + ", "
                    + candidateSpread);
        }
        if (pValue < 0 || pValue > 1) {
            throw new IllegalArgumentException("pValue must be in [0, 1], or NaN: " + pValue);
        }
    }

    /** This comparison with another verdict (spreads and p-value kept). */
    MetricComparison withVerdict(Verdict other) {
        return new MetricComparison(baselineMedian, candidateMedian, relativeChange, interval, other, baselineSpread,
                candidateSpread, pValue);
    }

    /** This comparison with its p-value. */
    MetricComparison withPValue(double p) {
        return new MetricComparison(baselineMedian, candidateMedian, relativeChange, interval, verdict, baselineSpread,
                candidateSpread, p);
    }

    /** Whether the verdict is {@link Verdict#SLOWER} with a relative change above {@code fraction}. */
    boolean slowerBy(double fraction) {
        return verdict == Verdict.SLOWER && relativeChange > fraction;
    }
}
