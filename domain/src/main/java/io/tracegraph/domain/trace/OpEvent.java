package io.tracegraph.domain.trace;

import java.util.List;
import java.util.Objects;

/**
 * A timed operation attributed to a span.
 *
 * @param output the produced tensor id, or {@code null}
 * @param storageBytes output storage size, or {@code null} when unknown (never after import); from
 *     trace/7 on the record's {@code output_dense_bytes}
 * @param inputStorageBytes trace/6 {@code input_storage_bytes}; from trace/7 on {@code input_dense_bytes}
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

    /** The dense output footprint (trace/7's {@code output_dense_bytes}): {@link #storageBytes()}. */
    public Long outputDenseBytes() {
        return storageBytes;
    }

    /** The summed dense input footprints (trace/7's {@code input_dense_bytes}): {@link #inputStorageBytes()}. */
    public long inputDenseBytes() {
        return inputStorageBytes;
    }
}
