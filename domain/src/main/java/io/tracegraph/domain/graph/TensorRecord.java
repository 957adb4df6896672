package io.tracegraph.domain.graph;

import io.tracegraph.domain.trace.MemoryCategory;
import io.tracegraph.domain.trace.Shape;

/** A tensor checkpoint as the graph reports it. */
public record TensorRecord(String spanId, String tensorId, Shape shape, String dtype, String device,
        boolean requiresGrad, long storageBytes, MemoryCategory category) {
}
