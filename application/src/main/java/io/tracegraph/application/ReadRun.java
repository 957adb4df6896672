package io.tracegraph.application;

import io.tracegraph.domain.port.StoredGraphs.GraphPart;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * Use case: one run's execution graph and the health of its trace: a trace file read and built
 * now, or a stored run read back (only the parts a question needs).
 */
public final class ReadRun {
    /** {@code parts}: what of a stored graph to read (a trace file is always built whole). */
    public record Command(String reference, Set<GraphPart> parts) {
        public Command {
            Objects.requireNonNull(reference, "reference");
            parts = parts.isEmpty() ? EnumSet.noneOf(GraphPart.class) : EnumSet.copyOf(parts);
        }

        /** The run's graph with what {@code kind} needs. */
        public static Command toAnswer(String reference, QueryKind kind) {
            return new Command(reference, kind.parts());
        }

        /** The run's whole graph. */
        public static Command whole(String reference) {
            return new Command(reference, EnumSet.allOf(GraphPart.class));
        }
    }

    private final RunSources sources;

    public ReadRun(RunSources sources) {
        this.sources = Objects.requireNonNull(sources, "sources");
    }

    public Outcome<RunGraph> read(Command command) {
        try {
            return Outcome.done(sources.graph(command.reference(), command.parts()));
        } catch (RunSources.Rejection e) {
            return Outcome.rejected(e.getMessage());
        }
    }
}
