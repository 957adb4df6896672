package io.tracegraph.application;

import io.tracegraph.domain.compare.RunComparison;
import io.tracegraph.domain.compare.RunFacts;
import io.tracegraph.domain.graph.TimeBasis;
import java.util.Objects;

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

    /** The two runs compared on {@code time} (on device time: their paths with device time). */
    public record Result(RunComparison comparison, TimeBasis time) {
        public Result {
            Objects.requireNonNull(comparison, "comparison");
            Objects.requireNonNull(time, "time");
        }

        public Result(RunComparison comparison) {
            this(comparison, TimeBasis.HOST);
        }
    }

    private final RunSources sources;

    public CompareRuns(RunSources sources) {
        this.sources = Objects.requireNonNull(sources, "sources");
    }

    public Outcome<Result> compare(Command command) {
        try {
            RunFacts base = RunSources.on(command.time(), sources.facts(command.base()));
            RunFacts candidate = RunSources.on(command.time(), sources.facts(command.candidate()));
            return Outcome.done(new Result(RunComparison.compare(base, candidate), command.time()));
        } catch (RunSources.Rejection e) {
            return Outcome.rejected(e.getMessage());
        }
    }
}
