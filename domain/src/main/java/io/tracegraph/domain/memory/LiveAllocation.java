package io.tracegraph.domain.memory;

import io.tracegraph.domain.trace.MemoryCategory;
import io.tracegraph.domain.trace.MemoryEvent;
import io.tracegraph.domain.trace.Shape;

/** An allocation that is live at some instant; {@code opName} may be {@code null}. */
public record LiveAllocation(String tensorId, String spanId, String opName, long bytes, Shape shape, String dtype,
        String device, MemoryCategory category) {

    static LiveAllocation of(MemoryEvent e) {
        return new LiveAllocation(e.tensorId(), e.spanId(), e.opName(), e.bytes(), e.shape(), e.dtype(), e.device(),
                e.category());
    }
}
