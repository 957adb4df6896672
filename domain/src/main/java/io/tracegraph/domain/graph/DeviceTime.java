package io.tracegraph.domain.graph;

import java.util.Objects;

/**
 * A node's device time on one device. {@code selfTimeNs} is the busy time of the device intervals
 * attributed to the node itself (their union: overlapping work counted once); {@code totalTimeNs}
 * is its self time plus the total device time of its children on that device.
 */
public record DeviceTime(String device, long selfTimeNs, long totalTimeNs) {
    public DeviceTime {
        Objects.requireNonNull(device, "device");
    }
}
