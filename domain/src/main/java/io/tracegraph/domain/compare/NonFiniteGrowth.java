package io.tracegraph.domain.compare;

import io.tracegraph.domain.trace.CodePointOrder;
import io.tracegraph.domain.trace.Saturating;
import io.tracegraph.domain.trace.TensorStats;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A tensor label (candle-graph trace/10 {@code tensor_stats}) whose count of non-finite elements
 * (NaN, ±inf) grew from the baseline to the candidate: what a comparison flags, since a numerical
 * fault often shows there before anything is slower.
 *
 * @param baseNonFinite      the baseline's non-finite elements under the label (0 when it has none)
 * @param candidateNonFinite the candidate's, larger
 */
public record NonFiniteGrowth(String label, long baseNonFinite, long candidateNonFinite) {
    private static final Comparator<NonFiniteGrowth> BY_GROWTH = Comparator
            .comparingLong((NonFiniteGrowth g) -> g.candidateNonFinite - g.baseNonFinite).reversed()
            .thenComparing(NonFiniteGrowth::label, CodePointOrder.COMPARATOR);

    public NonFiniteGrowth {
        Objects.requireNonNull(label, "label");
        if (baseNonFinite < 0 || candidateNonFinite <= baseNonFinite) {
            throw new IllegalArgumentException("not a growth: " + baseNonFinite + " -> " + candidateNonFinite);
        }
    }

    /**
     * The labels whose non-finite count is larger in {@code candidate} than in {@code base} (a run's
     * count under a label summed over its records), largest growth first, then by label.
     */
    public static List<NonFiniteGrowth> between(List<TensorStats> base, List<TensorStats> candidate) {
        return grown(perLabel(base), perLabel(candidate));
    }

    /**
     * Between two sets of runs: the labels where the candidate's largest per-run count is larger than
     * the baseline's largest (a label a run lacks counts 0 there).
     */
    public static List<NonFiniteGrowth> betweenSets(List<List<TensorStats>> baseline,
            List<List<TensorStats>> candidate) {
        return grown(largest(baseline), largest(candidate));
    }

    private static Map<String, Long> largest(List<List<TensorStats>> runs) {
        Map<String, Long> largest = new TreeMap<>(CodePointOrder.COMPARATOR);
        for (List<TensorStats> run : runs) {
            perLabel(run).forEach((label, n) -> largest.merge(label, n, Math::max));
        }
        return largest;
    }

    private static Map<String, Long> perLabel(List<TensorStats> stats) {
        Map<String, Long> sums = new TreeMap<>(CodePointOrder.COMPARATOR);
        for (TensorStats s : stats) {
            sums.merge(s.label(), s.nonFinite(), Saturating::add);
        }
        return sums;
    }

    private static List<NonFiniteGrowth> grown(Map<String, Long> base, Map<String, Long> candidate) {
        List<NonFiniteGrowth> grown = new ArrayList<>();
        candidate.forEach((label, n) -> {
            long before = base.getOrDefault(label, 0L);
            if (n > before) {
                grown.add(new NonFiniteGrowth(label, before, n));
            }
        });
        grown.sort(BY_GROWTH);
        return List.copyOf(grown);
    }
}
