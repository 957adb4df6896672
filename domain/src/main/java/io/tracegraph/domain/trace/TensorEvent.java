package io.tracegraph.domain.trace;

import java.util.Objects;

/** A tensor checkpoint. {@code storageBytes} is {@code null} when unknown (never after import). */
public record TensorEvent(
        String spanId,
        String tensorId,
        Shape shape,
        String dtype,
        String device,
        boolean requiresGrad,
        Long storageBytes,
        MemoryCategory category) {

    public TensorEvent {
        Objects.requireNonNull(spanId, "spanId");
        Objects.requireNonNull(tensorId, "tensorId");
        Objects.requireNonNull(shape, "shape");
        Objects.requireNonNull(dtype, "dtype");
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(category, "category");
    }
}
