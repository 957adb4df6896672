package io.tracegraph.domain.trace;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * An explicit allocation or free. {@code opName} is {@code null} when the producer gave none.
 *
 * @param storageId the backend storage the tensor lives in (trace/7 and later): allocations pair by
 *     (device, storage id), and tensor ids that alias one storage share its bytes; {@code null} for
 *     trace/6, where allocations pair by (device, tensor id)
 */
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
        MemoryCategory category,
        String storageId) {

    public MemoryEvent {
        Objects.requireNonNull(tensorId, "tensorId");
        Objects.requireNonNull(spanId, "spanId");
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(shape, "shape");
        Objects.requireNonNull(dtype, "dtype");
        Objects.requireNonNull(category, "category");
    }

    /** A trace/6 memory record: no storage id. */
    public MemoryEvent(long timestampNs, String tensorId, String spanId, String opName, String device, long bytes,
            MemoryAction action, Shape shape, String dtype, MemoryCategory category) {
        this(timestampNs, tensorId, spanId, opName, device, bytes, action, shape, dtype, category, null);
    }

    /** What allocations pair by on a device: the storage id when there is one, else the tensor id. */
    public String pairingKey() {
        return storageId != null ? storageId : tensorId;
    }

    /**
     * The records in timestamp order, file order breaking ties (a stable sort); a list already in
     * that order, as producers write it, is only copied (one pass instead of a sort).
     */
    public static MemoryEvent[] inTimeOrder(List<MemoryEvent> events) {
        MemoryEvent[] ordered = events.toArray(new MemoryEvent[0]);
        for (int i = 1; i < ordered.length; i++) {
            if (ordered[i].timestampNs < ordered[i - 1].timestampNs) {
                Arrays.sort(ordered, Comparator.comparingLong(MemoryEvent::timestampNs));
                break;
            }
        }
        return ordered;
    }
}
