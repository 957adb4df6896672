package io.tracegraph.domain.graph;

import io.tracegraph.domain.trace.MemoryCategory;
import io.tracegraph.domain.trace.Shape;

/**
 * A tensor checkpoint as the graph reports it; {@code storageBytes} is the dense footprint and
 * {@code label} the caller's observation label (trace/7 and later), {@code null} when absent.
 */
public record TensorRecord(String spanId, String tensorId, Shape shape, String dtype, String device,
        boolean requiresGrad, long storageBytes, MemoryCategory category, String label) {

    /** A tensor without a label. */
    public TensorRecord(String spanId, String tensorId, Shape shape, String dtype, String device, boolean requiresGrad,
            long storageBytes, MemoryCategory category) {
        this(spanId, tensorId, shape, dtype, device, requiresGrad, storageBytes, category, null);
    }
}
