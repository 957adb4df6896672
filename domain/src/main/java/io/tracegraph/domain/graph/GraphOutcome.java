package io.tracegraph.domain.graph;

import io.tracegraph.domain.health.TraceHealth;
import java.util.Objects;

/** What building a graph gives: the graph of a trusted trace, or the health of an untrusted one. */
public sealed interface GraphOutcome permits GraphOutcome.Built, GraphOutcome.Untrusted {
    TraceHealth health();

    record Built(ExecutionGraph graph, TraceHealth health) implements GraphOutcome {
        public Built {
            Objects.requireNonNull(graph, "graph");
            Objects.requireNonNull(health, "health");
        }
    }

    record Untrusted(TraceHealth health) implements GraphOutcome {
        public Untrusted {
            Objects.requireNonNull(health, "health");
            if (health.trusted()) {
                throw new IllegalArgumentException("health is trusted");
            }
        }

        /** The original's refusal: {@code trace is structurally untrusted: ...}. */
        public String message() {
            return health.untrustedMessage();
        }
    }
}
