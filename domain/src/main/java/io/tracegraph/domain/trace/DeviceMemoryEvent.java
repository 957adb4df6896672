package io.tracegraph.domain.trace;

import java.util.Objects;

/** A device-level memory checkpoint. {@code reservedBytes} is {@code null} when absent. */
public record DeviceMemoryEvent(long timestampNs, String device, long usedBytes, long freeBytes, Long reservedBytes) {
    public DeviceMemoryEvent {
        Objects.requireNonNull(device, "device");
    }
}
