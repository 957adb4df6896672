package io.tracegraph.domain.compare;

import io.tracegraph.domain.trace.CodePointOrder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One run against another: the paths of both matched by path hash, with base, candidate, delta and
 * ratio of their times and bytes ({@link PathChange}); the paths only in the candidate
 * ({@code added}) and only in the base ({@code removed}); the gradients whose state changed; and
 * the total time and memory peak of the two runs.
 *
 * <p>Every list is sorted by the size of the change: absolute self-time delta descending, then
 * absolute bytes delta descending, then path (code point order) and path hash; an added or removed
 * path counts as a change from or to zero. Gradient changes list regressions first, then by root
 * and key.
 */
public record RunComparison(
        String baseRunId,
        String candidateRunId,
        List<PathChange> matched,
        List<PathStats> added,
        List<PathStats> removed,
        List<GradientChange> gradientChanges,
        DoubleChange totalMs,
        LongChange peakBytes) {

    private static final Comparator<PathChange> BY_CHANGE =
            Comparator.comparingLong((PathChange c) -> Math.abs(c.selfTimeNs().delta())).reversed()
                    .thenComparing(Comparator.comparingLong((PathChange c) -> Math.abs(c.bytes().delta())).reversed())
                    .thenComparing(PathChange::path, CodePointOrder.COMPARATOR)
                    .thenComparingLong(PathChange::pathHash);
    private static final Comparator<PathStats> BY_SIZE =
            Comparator.comparingLong(PathStats::selfTimeNs).reversed()
                    .thenComparing(Comparator.comparingLong(PathStats::bytes).reversed())
                    .thenComparing(PathStats.BY_PATH);
    private static final Comparator<GradientChange> GRADIENT_ORDER =
            Comparator.comparing((GradientChange c) -> !c.regression())
                    .thenComparing(GradientChange::root, CodePointOrder.COMPARATOR)
                    .thenComparing(GradientChange::key, CodePointOrder.COMPARATOR);

    public RunComparison {
        Objects.requireNonNull(baseRunId, "baseRunId");
        Objects.requireNonNull(candidateRunId, "candidateRunId");
        matched = List.copyOf(matched);
        added = List.copyOf(added);
        removed = List.copyOf(removed);
        gradientChanges = List.copyOf(gradientChanges);
        Objects.requireNonNull(totalMs, "totalMs");
        Objects.requireNonNull(peakBytes, "peakBytes");
    }

    /** Compares two runs; linear in their paths and gradients apart from the sorts. */
    public static RunComparison compare(RunFacts base, RunFacts candidate) {
        Map<Long, PathStats> basePaths = new HashMap<>(base.paths().size() * 2);
        for (PathStats stats : base.paths()) {
            basePaths.put(stats.pathHash(), stats);
        }
        List<PathChange> matched = new ArrayList<>();
        List<PathStats> added = new ArrayList<>();
        for (PathStats stats : candidate.paths()) {
            PathStats before = basePaths.remove(stats.pathHash());
            if (before == null) {
                added.add(stats);
            } else {
                matched.add(new PathChange(before, stats));
            }
        }
        List<PathStats> removed = new ArrayList<>(basePaths.values());
        matched.sort(BY_CHANGE);
        added.sort(BY_SIZE);
        removed.sort(BY_SIZE);
        return new RunComparison(base.runId(), candidate.runId(), matched, added, removed,
                gradientChanges(base.gradients(), candidate.gradients()),
                new DoubleChange(base.totalMs(), candidate.totalMs()),
                new LongChange(base.peakBytes(), candidate.peakBytes()));
    }

    /** Whether any gradient went from present to missing, zero or non-finite. */
    public boolean hasGradientRegression() {
        return gradientChanges.stream().anyMatch(GradientChange::regression);
    }

    /** Gradients matched by (root, key); when a run records one twice, its last record counts. */
    private static List<GradientChange> gradientChanges(List<GradientFact> base, List<GradientFact> candidate) {
        Map<List<String>, GradientFact> before = new LinkedHashMap<>(base.size() * 2);
        for (GradientFact fact : base) {
            before.put(List.of(fact.root(), fact.key()), fact);
        }
        Map<List<String>, GradientFact> after = new LinkedHashMap<>(candidate.size() * 2);
        for (GradientFact fact : candidate) {
            after.put(List.of(fact.root(), fact.key()), fact);
        }
        List<GradientChange> changes = new ArrayList<>();
        for (Map.Entry<List<String>, GradientFact> entry : after.entrySet()) {
            GradientFact now = entry.getValue();
            GradientFact then = before.remove(entry.getKey());
            if (then == null) {
                changes.add(new GradientChange(now.root(), now.key(), null, now.state(), null, now.norm()));
            } else if (!then.state().equals(now.state())) {
                changes.add(new GradientChange(now.root(), now.key(), then.state(), now.state(), then.norm(),
                        now.norm()));
            }
        }
        for (GradientFact then : before.values()) {
            changes.add(new GradientChange(then.root(), then.key(), then.state(), null, then.norm(), null));
        }
        changes.sort(GRADIENT_ORDER);
        return List.copyOf(changes);
    }
}
