package io.tracegraph.application;

import io.tracegraph.domain.port.StoredGraphs.GraphPart;
import java.util.EnumSet;
import java.util.Set;

/** The questions {@code query} answers about one execution graph (the original's query kinds, spec 6). */
public enum QueryKind {
    SLOWEST, HEAVIEST, MEMORY, EFFICIENCY, SPANS, EDGES, TENSORS, GRADIENTS, HEALTH,
    /** The tensor statistics of a candle-graph trace/10 capture (none before), in trace order. */
    TENSOR_STATS;

    /** The parts of a stored graph the answer needs (its summary always comes). */
    Set<GraphPart> parts() {
        return switch (this) {
            case SLOWEST, HEAVIEST, EFFICIENCY -> EnumSet.of(GraphPart.NODES);
            case MEMORY -> EnumSet.of(GraphPart.MEMORY);
            case SPANS -> EnumSet.of(GraphPart.NODES, GraphPart.EDGES);
            case EDGES -> EnumSet.of(GraphPart.EDGES);
            case TENSORS -> EnumSet.of(GraphPart.TENSORS);
            case GRADIENTS -> EnumSet.of(GraphPart.GRADIENTS);
            case HEALTH -> EnumSet.noneOf(GraphPart.class);
            case TENSOR_STATS -> EnumSet.of(GraphPart.TENSOR_STATS);
        };
    }
}
