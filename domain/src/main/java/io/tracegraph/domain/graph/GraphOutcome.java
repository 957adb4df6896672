package io.tracegraph.domain.graph;

import io.tracegraph.domain.health.TraceHealth;
import java.util.Objects;

/**
 * What building a graph gives: the graph of a trusted trace, or the health of an untrusted one.
 * An untrusted trace whose only fault is a failed capture (structurally valid, terminal outcome
 * failed) also gives the partial graph of what was captured, its outcome attached.
 */
public sealed interface GraphOutcome permits GraphOutcome.Built, GraphOutcome.Untrusted {
    TraceHealth health();

    record Built(ExecutionGraph graph, TraceHealth health) implements GraphOutcome {
        public Built {
            Objects.requireNonNull(graph, "graph");
            Objects.requireNonNull(health, "health");
        }
    }

    /**
     * @param partialGraph the graph of a failed but structurally valid capture, else {@code null}
     */
    record Untrusted(TraceHealth health, ExecutionGraph partialGraph) implements GraphOutcome {
        public Untrusted {
            Objects.requireNonNull(health, "health");
            if (health.trusted()) {
                throw new IllegalArgumentException("health is trusted");
            }
            if (partialGraph != null && !(health.structurallyValid() && !health.captureComplete())) {
                throw new IllegalArgumentException("only a failed, structurally valid capture has a partial graph");
            }
        }

        public Untrusted(TraceHealth health) {
            this(health, null);
        }

        /** Whether this is a failed capture with a partial graph. */
        public boolean isFailedCapture() {
            return partialGraph != null;
        }

        /** The refusal: {@code trace is structurally untrusted: ...} or {@code capture failed: REASON}. */
        public String message() {
            return health.untrustedMessage();
        }
    }
}
