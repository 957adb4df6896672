package io.tracegraph.application;

import io.tracegraph.domain.graph.TimeBasis;
import io.tracegraph.domain.port.StoredGraphs.GraphPart;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * Use case: one run's execution graph and the health of its trace: a trace file read and built
 * now, or a stored run read back (only the parts a question needs).
 */
public final class ReadRun {
    /**
     * {@code parts}: what of a stored graph to read (a trace file is always built whole); {@code time}:
     * on device time the run must have device time (its nodes are then always read), else it is
     * rejected in one line.
     */
    public record Command(String reference, Set<GraphPart> parts, TimeBasis time) {
        public Command {
            Objects.requireNonNull(reference, "reference");
            Objects.requireNonNull(time, "time");
            parts = parts.isEmpty() ? EnumSet.noneOf(GraphPart.class) : EnumSet.copyOf(parts);
            if (time == TimeBasis.DEVICE) {
                parts.add(GraphPart.NODES);
            }
        }

        /** On host time. */
        public Command(String reference, Set<GraphPart> parts) {
            this(reference, parts, TimeBasis.HOST);
        }

        /** The run's graph with what {@code kind} needs. */
        public static Command toAnswer(String reference, QueryKind kind) {
            return new Command(reference, kind.parts());
        }

        /** The run's graph with what {@code kind} needs, asked on {@code time}. */
        public static Command toAnswer(String reference, QueryKind kind, TimeBasis time) {
            return new Command(reference, kind.parts(), time);
        }

        /** The run's whole graph. */
        public static Command whole(String reference) {
            return new Command(reference, EnumSet.allOf(GraphPart.class));
        }

        /** The run's whole graph, asked on {@code time}. */
        public static Command whole(String reference, TimeBasis time) {
            return new Command(reference, EnumSet.allOf(GraphPart.class), time);
        }
    }

    private final RunSources sources;

    public ReadRun(RunSources sources) {
        this.sources = Objects.requireNonNull(sources, "sources");
    }

    public Outcome<RunGraph> read(Command command) {
        try {
            RunGraph run = sources.graph(command.reference(), command.parts());
            return Outcome.done(command.time() == TimeBasis.DEVICE ? RunSources.requireDeviceTime(run) : run);
        } catch (RunSources.Rejection e) {
            return Outcome.rejected(e.getMessage());
        }
    }
}
