package io.tracegraph.application;

import io.tracegraph.domain.compare.GroupComparison;
import io.tracegraph.domain.compare.GroupOptions;
import io.tracegraph.domain.compare.RunFacts;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Use case: two sets of runs compared path by path (medians, bootstrap confidence intervals,
 * verdicts), and whether the candidate regressed past a limit.
 */
public final class CompareSets {
    /**
     * @param thresholdPercent          the relative change below which a path counts as unchanged
     * @param failOnRegressionPercent   the regression (in percent) that fails a CI gate, or null for none
     */
    public record Command(String baseline, String candidate, double thresholdPercent,
            Double failOnRegressionPercent) {
        public Command {
            Objects.requireNonNull(baseline, "baseline");
            Objects.requireNonNull(candidate, "candidate");
            if (!Double.isFinite(thresholdPercent) || thresholdPercent < 0) {
                throw new IllegalArgumentException("the threshold is a percentage of 0 or more: " + thresholdPercent);
            }
            if (failOnRegressionPercent != null && (!Double.isFinite(failOnRegressionPercent)
                    || failOnRegressionPercent < 0)) {
                throw new IllegalArgumentException("the regression limit is a percentage of 0 or more: "
                        + failOnRegressionPercent);
            }
        }
    }

    /**
     * The comparison; {@code regression} when a path, the total time or the memory peak is slower
     * (or bigger) by more than the limit given; the runs each set named more than once; the failed
     * captures the sets named, left out of the comparison (run ids, baseline's first).
     */
    public record Result(GroupComparison comparison, boolean regression, List<String> baselineDuplicates,
            List<String> candidateDuplicates, List<String> failedLeftOut) {
        public Result {
            Objects.requireNonNull(comparison, "comparison");
            baselineDuplicates = List.copyOf(baselineDuplicates);
            candidateDuplicates = List.copyOf(candidateDuplicates);
            failedLeftOut = List.copyOf(failedLeftOut);
        }

        /** A comparison that left no failed run out. */
        public Result(GroupComparison comparison, boolean regression, List<String> baselineDuplicates,
                List<String> candidateDuplicates) {
            this(comparison, regression, baselineDuplicates, candidateDuplicates, List.of());
        }
    }

    private final RunSources sources;

    public CompareSets(RunSources sources) {
        this.sources = Objects.requireNonNull(sources, "sources");
    }

    public Outcome<Result> compare(Command command) {
        GroupOptions defaults = GroupOptions.defaults();
        GroupOptions options = new GroupOptions(defaults.seed(), defaults.resamples(), defaults.confidence(),
                command.thresholdPercent() / 100.0, defaults.minRunsPerSide(), defaults.maxTestedPaths());
        try {
            RunSet baseline = sources.select(command.baseline());
            RunSet candidate = sources.select(command.candidate());
            // A set holds each run once: one named twice (say as latest and by its run_id) is refused.
            for (RunSet set : List.of(baseline, candidate)) {
                if (!set.duplicates().isEmpty()) {
                    return Outcome.rejected((set == baseline ? "the baseline" : "the candidate") + " names "
                            + String.join(", ", set.duplicates()) + " more than once; a set holds each run once");
                }
            }
            List<List<RunFacts>> sides = sources.sets(List.of(baseline, candidate));
            // A failed capture measured only part of its work: left out, and said so.
            List<String> failed = new ArrayList<>();
            List<RunFacts> base = complete(sides.get(0), command.baseline(), failed);
            List<RunFacts> cand = complete(sides.get(1), command.candidate(), failed);
            GroupComparison comparison = GroupComparison.compare(base, cand, options);
            boolean regression = command.failOnRegressionPercent() != null
                    && comparison.regressionOver(command.failOnRegressionPercent() / 100.0);
            return Outcome.done(new Result(comparison, regression, baseline.duplicates(), candidate.duplicates(),
                    failed));
        } catch (RunSources.Rejection e) {
            return Outcome.rejected(e.getMessage());
        }
    }

    /** The runs of a side whose capture did not fail; the failed ones' ids added to {@code failed}. */
    private static List<RunFacts> complete(List<RunFacts> side, String spec, List<String> failed) {
        List<RunFacts> complete = new ArrayList<>(side.size());
        List<String> left = new ArrayList<>();
        for (RunFacts run : side) {
            if (run.outcome().isFailed()) {
                left.add(run.runId());
            } else {
                complete.add(run);
            }
        }
        if (complete.isEmpty()) {
            throw new RunSources.Rejection("`" + spec + "` names only failed runs: " + String.join(", ", left));
        }
        failed.addAll(left);
        return complete;
    }

    /** How a comparison says which failed runs it left out: {@code 2 failed runs left out: a, b}. */
    public static String leftOut(List<String> failed) {
        return failed.size() + (failed.size() == 1 ? " failed run" : " failed runs") + " left out: "
                + String.join(", ", failed);
    }
}
