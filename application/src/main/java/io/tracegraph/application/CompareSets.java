package io.tracegraph.application;

import io.tracegraph.domain.compare.GroupComparison;
import io.tracegraph.domain.compare.GroupOptions;
import io.tracegraph.domain.compare.RunFacts;
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
        }
    }

    /**
     * The comparison; {@code regression} when a path, the total time or the memory peak is slower
     * (or bigger) by more than the limit given; the runs each set named more than once.
     */
    public record Result(GroupComparison comparison, boolean regression, List<String> baselineDuplicates,
            List<String> candidateDuplicates) {
        public Result {
            Objects.requireNonNull(comparison, "comparison");
            baselineDuplicates = List.copyOf(baselineDuplicates);
            candidateDuplicates = List.copyOf(candidateDuplicates);
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
            List<List<RunFacts>> sides = sources.sets(List.of(baseline, candidate));
            GroupComparison comparison = GroupComparison.compare(sides.get(0), sides.get(1), options);
            boolean regression = command.failOnRegressionPercent() != null
                    && comparison.regressionOver(command.failOnRegressionPercent() / 100.0);
            return Outcome.done(new Result(comparison, regression, baseline.duplicates(), candidate.duplicates()));
        } catch (RunSources.Rejection e) {
            return Outcome.rejected(e.getMessage());
        }
    }
}
