package io.tracegraph.domain.trace;

import java.util.List;
import java.util.Objects;

/**
 * A timed operation attributed to a span.
 *
 * @param output the produced tensor id, or {@code null}
 * @param storageBytes output storage size, or {@code null} when unknown (never after import)
 */
public record OpEvent(
        String spanId,
        String opName,
        List<String> inputs,
        String output,
        Shape shape,
        String dtype,
        String device,
        long durationNs,
        long timestampNs,
        Long storageBytes,
        long inputStorageBytes) {

    public OpEvent {
        Objects.requireNonNull(spanId, "spanId");
        Objects.requireNonNull(opName, "opName");
        inputs = List.copyOf(inputs);
        Objects.requireNonNull(shape, "shape");
        Objects.requireNonNull(dtype, "dtype");
        Objects.requireNonNull(device, "device");
    }

    /** Storage bytes as recorded, else derived from shape and dtype (spec 2.3). */
    public long resolvedStorageBytes() {
        return storageBytes != null ? storageBytes : StorageBytes.derive(shape, dtype);
    }
}
