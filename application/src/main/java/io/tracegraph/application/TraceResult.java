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

    /**
     * The trace was read but is not trusted: its health has errors, or its capture failed. A failed
     * capture that is structurally valid still has the graph of what it captured.
     *
     * @param partialGraph the partial graph of a failed, structurally valid capture, else {@code null}
     */
    record Untrusted(String source, TraceHealth health, ExecutionGraph partialGraph) implements TraceResult {
        public Untrusted {
            Objects.requireNonNull(health, "health");
        }

        public Untrusted(String source, TraceHealth health) {
            this(source, health, null);
        }

        /** {@code trace is structurally untrusted: ...}, or {@code capture failed: REASON}. */
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
