package io.tracegraph.domain.trace;

import java.util.Objects;

/**
 * A tensor checkpoint. {@code storageBytes} is {@code null} when unknown (never after import); from
 * trace/7 on it holds the record's {@code dense_bytes} (the dense footprint, shape × dtype size).
 *
 * @param label the caller's observation label (trace/7 and later), or {@code null}; never an identity
 */
public record TensorEvent(
        String spanId,
        String tensorId,
        Shape shape,
        String dtype,
        String device,
        boolean requiresGrad,
        Long storageBytes,
        MemoryCategory category,
        String label) {

    public TensorEvent {
        Objects.requireNonNull(spanId, "spanId");
        Objects.requireNonNull(tensorId, "tensorId");
        Objects.requireNonNull(shape, "shape");
        Objects.requireNonNull(dtype, "dtype");
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(category, "category");
    }

    /** A trace/6 tensor record: no label. */
    public TensorEvent(String spanId, String tensorId, Shape shape, String dtype, String device, boolean requiresGrad,
            Long storageBytes, MemoryCategory category) {
        this(spanId, tensorId, shape, dtype, device, requiresGrad, storageBytes, category, null);
    }

    /** The dense footprint (trace/7's {@code dense_bytes}): the same value as {@link #storageBytes()}. */
    public Long denseBytes() {
        return storageBytes;
    }
}
