package io.tracegraph.application;

import io.tracegraph.domain.compare.GroupComparison;
import io.tracegraph.domain.compare.GroupOptions;
import io.tracegraph.domain.compare.NonFiniteGrowth;
import io.tracegraph.domain.compare.RunFacts;
import io.tracegraph.domain.graph.TimeBasis;
import io.tracegraph.domain.trace.ComparisonIdentity;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Use case: two sets of runs compared path by path (medians, bootstrap confidence intervals,
 * verdicts), and whether the candidate regressed past a limit.
 */
public final class CompareSets {
    /**
     * @param thresholdPercent          the relative change below which a path counts as unchanged
     * @param failOnRegressionPercent   the regression (in percent) that fails a CI gate, or null for none
     * @param allowMixedIdentity        compare runs whose comparison identities differ (else refused)
     * @param time                      compare host time, or device time (every run must have some)
     */
    public record Command(String baseline, String candidate, double thresholdPercent,
            Double failOnRegressionPercent, boolean allowMixedIdentity, TimeBasis time) {
        /** On host time. */
        public Command(String baseline, String candidate, double thresholdPercent, Double failOnRegressionPercent,
                boolean allowMixedIdentity) {
            this(baseline, candidate, thresholdPercent, failOnRegressionPercent, allowMixedIdentity, TimeBasis.HOST);
        }

        /** Runs of different comparison identities refused. */
        public Command(String baseline, String candidate, double thresholdPercent, Double failOnRegressionPercent,
                TimeBasis time) {
            this(baseline, candidate, thresholdPercent, failOnRegressionPercent, false, time);
        }

        /** On host time, runs of different comparison identities refused. */
        public Command(String baseline, String candidate, double thresholdPercent, Double failOnRegressionPercent) {
            this(baseline, candidate, thresholdPercent, failOnRegressionPercent, false, TimeBasis.HOST);
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
     * (or bigger) by more than the limit given; the runs each set named more than once; the failed
     * captures the sets named, left out of the comparison (run ids, baseline's first); the tensor
     * labels whose largest per-run non-finite count grew ({@link NonFiniteGrowth#betweenSets}); the
     * time compared.
     */
    public record Result(GroupComparison comparison, boolean regression, List<String> baselineDuplicates,
            List<String> candidateDuplicates, List<String> failedLeftOut, List<NonFiniteGrowth> nonFiniteGrowth,
            TimeBasis time) {
        public Result {
            Objects.requireNonNull(comparison, "comparison");
            baselineDuplicates = List.copyOf(baselineDuplicates);
            candidateDuplicates = List.copyOf(candidateDuplicates);
            failedLeftOut = List.copyOf(failedLeftOut);
            nonFiniteGrowth = List.copyOf(nonFiniteGrowth);
            Objects.requireNonNull(time, "time");
        }

        /** A comparison on host time. */
        public Result(GroupComparison comparison, boolean regression, List<String> baselineDuplicates,
                List<String> candidateDuplicates, List<String> failedLeftOut, List<NonFiniteGrowth> nonFiniteGrowth) {
            this(comparison, regression, baselineDuplicates, candidateDuplicates, failedLeftOut, nonFiniteGrowth,
                    TimeBasis.HOST);
        }

        /** A comparison that left no failed run out and saw no growth of non-finite values. */
        public Result(GroupComparison comparison, boolean regression, List<String> baselineDuplicates,
                List<String> candidateDuplicates) {
            this(comparison, regression, baselineDuplicates, candidateDuplicates, List.of(), List.of());
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
            if (!command.allowMixedIdentity()) {
                Optional<String> mixed = mixedIdentity(base, cand);
                if (mixed.isPresent()) {
                    return Outcome.rejected(mixed.get());
                }
            }
            GroupComparison comparison = GroupComparison.compare(
                    RunSources.on(command.time(), base, "the baseline"),
                    RunSources.on(command.time(), cand, "the candidate"), options);
            boolean regression = command.failOnRegressionPercent() != null
                    && comparison.regressionOver(command.failOnRegressionPercent() / 100.0);
            List<NonFiniteGrowth> grown = NonFiniteGrowth.betweenSets(
                    base.stream().map(RunFacts::tensorStats).toList(), cand.stream().map(RunFacts::tensorStats).toList());
            return Outcome.done(new Result(comparison, regression, baseline.duplicates(), candidate.duplicates(),
                    failed, grown, command.time()));
        } catch (RunSources.Rejection e) {
            return Outcome.rejected(e.getMessage());
        }
    }

    /**
     * Why the runs may not be compared: a run whose comparison identity differs from the first
     * baseline run's in one of {@link ComparisonIdentity#CONDITIONS} (or that declares none where
     * that one declares one, or the other way round), named with the member and a run on each side.
     * Runs that declare no identity at all (trace/6) are compared as before.
     */
    static Optional<String> mixedIdentity(List<RunFacts> baseline, List<RunFacts> candidate) {
        RunFacts first = baseline.get(0);
        List<RunFacts> others = new ArrayList<>(baseline.subList(1, baseline.size()));
        others.addAll(candidate);
        for (int i = 0; i < others.size(); i++) {
            RunFacts other = others.get(i);
            String sides = i < baseline.size() - 1
                    ? "baseline runs " + first.runId() + " and " + other.runId()
                    : "baseline run " + first.runId() + " and candidate run " + other.runId();
            ComparisonIdentity a = first.identity();
            ComparisonIdentity b = other.identity();
            if (a == null && b == null) {
                continue;
            }
            if (a == null || b == null) {
                return Optional.of("comparison identity differs: " + sides + " (" + (a == null ? first : other).runId()
                        + " declares none); --allow-mixed-identity compares them anyway");
            }
            Optional<String> member = a.firstDifference(b);
            if (member.isPresent()) {
                return Optional.of("comparison identity differs in " + member.get() + ": " + sides + " (`"
                        + a.member(member.get()) + "` vs `" + b.member(member.get())
                        + "`); --allow-mixed-identity compares them anyway");
            }
        }
        return Optional.empty();
    }

    /** The runs of a side whose capture did not fail; the failed ones' ids added to {@code failed}. */
    static List<RunFacts> complete(List<RunFacts> side, String spec, List<String> failed) {
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
