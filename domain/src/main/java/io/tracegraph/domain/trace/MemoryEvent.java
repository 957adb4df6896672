package io.tracegraph.domain.trace;

import java.util.Objects;

/** An explicit allocation or free. {@code opName} is {@code null} when the producer gave none. */
public record MemoryEvent(
        long timestampNs,
        String tensorId,
        String spanId,
        String opName,
        String device,
        long bytes,
        MemoryAction action,
        Shape shape,
        String dtype,
        MemoryCategory category) {

    public MemoryEvent {
        Objects.requireNonNull(tensorId, "tensorId");
        Objects.requireNonNull(spanId, "spanId");
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(shape, "shape");
        Objects.requireNonNull(dtype, "dtype");
        Objects.requireNonNull(category, "category");
    }
}
