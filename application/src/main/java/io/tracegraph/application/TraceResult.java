package io.tracegraph.application;

import io.tracegraph.domain.graph.ExecutionGraph;
import io.tracegraph.domain.health.TraceHealth;
import io.tracegraph.domain.trace.TraceProblem;
import java.util.Objects;

/** What reading, checking and building a trace gave: a graph, or the reason it was rejected. */
public sealed interface TraceResult permits TraceResult.Built, TraceResult.Untrusted, TraceResult.Malformed {

    /** The trace was read and is trusted; its graph is built. */
    record Built(String source, ExecutionGraph graph, TraceHealth health) implements TraceResult {
        public Built {
            Objects.requireNonNull(graph, "graph");
            Objects.requireNonNull(health, "health");
        }
    }

    /** The trace was read but its health has errors: no graph. */
    record Untrusted(String source, TraceHealth health) implements TraceResult {
        public Untrusted {
            Objects.requireNonNull(health, "health");
        }

        public String message() {
            return health.untrustedMessage();
        }
    }

    /** The trace could not be read. */
    record Malformed(TraceProblem problem) implements TraceResult {
        public Malformed {
            Objects.requireNonNull(problem, "problem");
        }
    }
}
