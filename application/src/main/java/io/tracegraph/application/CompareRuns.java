package io.tracegraph.application;

import io.tracegraph.domain.compare.NonFiniteGrowth;
import io.tracegraph.domain.compare.RunComparison;
import io.tracegraph.domain.compare.RunFacts;
import io.tracegraph.domain.graph.TimeBasis;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Use case: two runs compared span by span (matched by semantic path), with their total time,
 * memory peak and gradients. Each is an existing trace file (built now) or a stored run.
 */
public final class CompareRuns {
    /** {@code time}: compare host time, or device time (each run must have some). */
    public record Command(String base, String candidate, TimeBasis time) {
        public Command {
            Objects.requireNonNull(base, "base");
            Objects.requireNonNull(candidate, "candidate");
            Objects.requireNonNull(time, "time");
        }

        /** On host time. */
        public Command(String base, String candidate) {
            this(base, candidate, TimeBasis.HOST);
        }
    }

    /**
     * The two runs compared on {@code time} (on device time: their paths with device time);
     * {@code nonFiniteGrowth}: the tensor labels whose non-finite count grew from base to candidate
     * (trace/10 tensor statistics), largest growth first; {@code failedLeftOut}: the failed runs that
     * {@code latest} or {@code latest~N} passed over (they count complete runs).
     */
    public record Result(RunComparison comparison, List<NonFiniteGrowth> nonFiniteGrowth,
            List<String> failedLeftOut, TimeBasis time) {
        public Result {
            Objects.requireNonNull(comparison, "comparison");
            nonFiniteGrowth = List.copyOf(nonFiniteGrowth);
            failedLeftOut = List.copyOf(failedLeftOut);
            Objects.requireNonNull(time, "time");
        }

        /** On host time. */
        public Result(RunComparison comparison, List<NonFiniteGrowth> nonFiniteGrowth, List<String> failedLeftOut) {
            this(comparison, nonFiniteGrowth, failedLeftOut, TimeBasis.HOST);
        }

        /** Two runs without growth of non-finite values, no failed run passed over. */
        public Result(RunComparison comparison, TimeBasis time) {
            this(comparison, List.of(), List.of(), time);
        }

        /** Two runs on host time without growth of non-finite values, no failed run passed over. */
        public Result(RunComparison comparison) {
            this(comparison, List.of(), List.of(), TimeBasis.HOST);
        }
    }

    private final RunSources sources;

    public CompareRuns(RunSources sources) {
        this.sources = Objects.requireNonNull(sources, "sources");
    }

    public Outcome<Result> compare(Command command) {
        try {
            Set<String> skipped = new LinkedHashSet<>();
            RunFacts base = complete(sources.completeFacts(command.base(), skipped), command.base());
            RunFacts candidate = complete(sources.completeFacts(command.candidate(), skipped), command.candidate());
            List<NonFiniteGrowth> growth = NonFiniteGrowth.between(base.tensorStats(), candidate.tensorStats());
            return Outcome.done(new Result(RunComparison.compare(RunSources.on(command.time(), base),
                    RunSources.on(command.time(), candidate)), growth, List.copyOf(skipped), command.time()));
        } catch (RunSources.Rejection e) {
            return Outcome.rejected(e.getMessage());
        }
    }

    /** A failed capture measured only part of its work: two runs named on their own are not compared. */
    private static RunFacts complete(RunFacts run, String reference) {
        if (run.outcome().isFailed()) {
            throw new RunSources.Rejection("run `" + run.runId() + "`" + (reference.equals(run.runId()) ? ""
                    : " (" + reference + ")") + " is a failed capture (" + run.outcome().reason()
                    + "): a failed run is not compared");
        }
        return run;
    }
}
