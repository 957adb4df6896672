package io.tracegraph.application;

import io.tracegraph.domain.compare.NonFiniteGrowth;
import io.tracegraph.domain.compare.RunComparison;
import io.tracegraph.domain.compare.RunFacts;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Use case: two runs compared span by span (matched by semantic path), with their total time,
 * memory peak and gradients. Each is an existing trace file (built now) or a stored run.
 */
public final class CompareRuns {
    public record Command(String base, String candidate) {
        public Command {
            Objects.requireNonNull(base, "base");
            Objects.requireNonNull(candidate, "candidate");
        }
    }

    /**
     * The two runs compared; {@code nonFiniteGrowth}: the tensor labels whose non-finite count grew
     * from base to candidate (trace/10 tensor statistics), largest growth first; {@code failedLeftOut}:
     * the failed runs that {@code latest} or {@code latest~N} passed over (they count complete runs).
     */
    public record Result(RunComparison comparison, List<NonFiniteGrowth> nonFiniteGrowth,
            List<String> failedLeftOut) {
        public Result {
            Objects.requireNonNull(comparison, "comparison");
            nonFiniteGrowth = List.copyOf(nonFiniteGrowth);
            failedLeftOut = List.copyOf(failedLeftOut);
        }

        /** Two runs without growth of non-finite values, no failed run passed over. */
        public Result(RunComparison comparison) {
            this(comparison, List.of(), List.of());
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
            return Outcome.done(new Result(RunComparison.compare(base, candidate),
                    NonFiniteGrowth.between(base.tensorStats(), candidate.tensorStats()), List.copyOf(skipped)));
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
