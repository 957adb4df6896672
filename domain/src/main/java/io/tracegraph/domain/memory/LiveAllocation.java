package io.tracegraph.domain.memory;

import io.tracegraph.domain.trace.MemoryCategory;
import io.tracegraph.domain.trace.MemoryEvent;
import io.tracegraph.domain.trace.Shape;

/**
 * An allocation that is live at some instant; {@code opName} may be {@code null}; {@code storageId}
 * is the backend storage (trace/7 and later), {@code null} for trace/6.
 */
public record LiveAllocation(String tensorId, String spanId, String opName, long bytes, Shape shape, String dtype,
        String device, MemoryCategory category, String storageId) {

    /** An allocation without a storage id (trace/6). */
    public LiveAllocation(String tensorId, String spanId, String opName, long bytes, Shape shape, String dtype,
            String device, MemoryCategory category) {
        this(tensorId, spanId, opName, bytes, shape, dtype, device, category, null);
    }

    static LiveAllocation of(MemoryEvent e) {
        return new LiveAllocation(e.tensorId(), e.spanId(), e.opName(), e.bytes(), e.shape(), e.dtype(), e.device(),
                e.category(), e.storageId());
    }
}
