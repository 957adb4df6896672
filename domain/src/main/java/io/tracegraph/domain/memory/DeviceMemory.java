package io.tracegraph.domain.memory;

/** Per-device memory figures; capacity is 0 when no device checkpoint named the device. */
public record DeviceMemory(String device, long capacityBytes, long peakBytes, long peakTimestampNs, long allocCount,
        long freeCount) {
}
