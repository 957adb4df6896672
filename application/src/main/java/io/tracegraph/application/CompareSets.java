package io.tracegraph.application;

import io.tracegraph.domain.compare.GroupComparison;
import io.tracegraph.domain.compare.GroupOptions;
import io.tracegraph.domain.compare.RunFacts;
import io.tracegraph.domain.graph.TimeBasis;
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
     * @param time                      compare host time, or device time (every run must have some)
     */
    public record Command(String baseline, String candidate, double thresholdPercent,
            Double failOnRegressionPercent, TimeBasis time) {
        /** On host time. */
        public Command(String baseline, String candidate, double thresholdPercent, Double failOnRegressionPercent) {
            this(baseline, candidate, thresholdPercent, failOnRegressionPercent, TimeBasis.HOST);
        }

        public Command {
            Objects.requireNonNull(baseline, "baseline");
            Objects.requireNonNull(candidate, "candidate");
            Objects.requireNonNull(time, "time");
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
     * (or bigger) by more than the limit given; the runs each set named more than once; the time compared.
     */
    public record Result(GroupComparison comparison, boolean regression, List<String> baselineDuplicates,
            List<String> candidateDuplicates, TimeBasis time) {
        public Result {
            Objects.requireNonNull(comparison, "comparison");
            baselineDuplicates = List.copyOf(baselineDuplicates);
            candidateDuplicates = List.copyOf(candidateDuplicates);
            Objects.requireNonNull(time, "time");
        }

        public Result(GroupComparison comparison, boolean regression, List<String> baselineDuplicates,
                List<String> candidateDuplicates) {
            this(comparison, regression, baselineDuplicates, candidateDuplicates, TimeBasis.HOST);
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
            GroupComparison comparison = GroupComparison.compare(
                    RunSources.on(command.time(), sides.get(0), "the baseline"),
                    RunSources.on(command.time(), sides.get(1), "the candidate"), options);
            boolean regression = command.failOnRegressionPercent() != null
                    && comparison.regressionOver(command.failOnRegressionPercent() / 100.0);
            return Outcome.done(new Result(comparison, regression, baseline.duplicates(), candidate.duplicates(),
                    command.time()));
        } catch (RunSources.Rejection e) {
            return Outcome.rejected(e.getMessage());
        }
    }
}
