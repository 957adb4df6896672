package io.tracegraph.application;

import io.tracegraph.domain.compare.RunComparison;
import io.tracegraph.domain.compare.RunFacts;
import java.util.Objects;

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

    /** The two runs compared. */
    public record Result(RunComparison comparison) {
        public Result {
            Objects.requireNonNull(comparison, "comparison");
        }
    }

    private final RunSources sources;

    public CompareRuns(RunSources sources) {
        this.sources = Objects.requireNonNull(sources, "sources");
    }

    public Outcome<Result> compare(Command command) {
        try {
            RunFacts base = complete(sources.facts(command.base()), command.base());
            RunFacts candidate = complete(sources.facts(command.candidate()), command.candidate());
            return Outcome.done(new Result(RunComparison.compare(base, candidate)));
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
