package io.tracegraph.domain.graph;

import java.util.Objects;

/** An edge of the execution graph; {@code label} (the op name) is {@code null} when absent. */
public record GraphEdge(String from, String to, GraphEdgeKind kind, long durationNs, String label) {
    public GraphEdge {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(kind, "kind");
    }
}
