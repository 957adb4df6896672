package io.tracegraph.domain.graph;

import io.tracegraph.domain.memory.MemoryProfile;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** The execution graph of a trusted trace ({@code candle-graph/graph/3}). */
public record ExecutionGraph(String schema, List<GraphNode> spans, List<GraphEdge> edges,
        List<TensorRecord> tensors, List<GradientRecord> gradients, GraphSummary summary, MemoryProfile memory) {

    public static final String SCHEMA = "candle-graph/graph/3";

    public ExecutionGraph {
        Objects.requireNonNull(schema, "schema");
        spans = List.copyOf(spans);
        edges = List.copyOf(edges);
        tensors = List.copyOf(tensors);
        gradients = List.copyOf(gradients);
        Objects.requireNonNull(summary, "summary");
        Objects.requireNonNull(memory, "memory");
    }

    /** The first node with that id (a scan: meant for tests and one-off lookups). */
    public Optional<GraphNode> node(String id) {
        return spans.stream().filter(n -> n.id().equals(id)).findFirst();
    }
}
