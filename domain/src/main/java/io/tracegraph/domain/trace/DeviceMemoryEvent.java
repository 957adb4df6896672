package io.tracegraph.domain.trace;

import java.util.Objects;

/**
 * A device-level memory checkpoint. Every measurement is {@code null} when absent: trace/6 always
 * has used and free bytes; from trace/7 on each is optional and {@code capacityBytes} (an
 * independently observed capacity) may be given.
 */
public record DeviceMemoryEvent(long timestampNs, String device, Long usedBytes, Long freeBytes, Long reservedBytes,
        Long capacityBytes) {

    public DeviceMemoryEvent {
        Objects.requireNonNull(device, "device");
    }

    /** A trace/6 checkpoint: used and free bytes always there, no capacity. */
    public DeviceMemoryEvent(long timestampNs, String device, long usedBytes, long freeBytes, Long reservedBytes) {
        this(timestampNs, device, Long.valueOf(usedBytes), Long.valueOf(freeBytes), reservedBytes, null);
    }

    /**
     * The device capacity this checkpoint shows: its observed capacity when it has one, else used
     * plus free bytes (saturating) when it has both (decision D1), else {@code null}.
     */
    public Long capacity() {
        if (capacityBytes != null) {
            return capacityBytes;
        }
        return usedBytes != null && freeBytes != null ? Saturating.add(usedBytes, freeBytes) : null;
    }

    /** Whether the checkpoint holds no measurement at all (an error from trace/7 on). */
    public boolean isEmpty() {
        return usedBytes == null && freeBytes == null && reservedBytes == null && capacityBytes == null;
    }
}
