package io.tracegraph.domain.graph;

import io.tracegraph.domain.trace.Saturating;
import io.tracegraph.domain.trace.Shape;
import java.util.List;
import java.util.Objects;

/**
 * A span or op node of the execution graph. {@code parentId} is {@code null} for the root;
 * {@code shape}, {@code dtype}, {@code device} and {@code storageBytes} are {@code null} when
 * absent (always for spans).
 *
 * @param deviceTimes the node's device time per device (device code point order), empty when no
 *     device work is attributed to it or below it
 */
public record GraphNode(
        String id,
        String parentId,
        String name,
        GraphNodeKind kind,
        long startNs,
        long selfTimeNs,
        long totalTimeNs,
        Shape shape,
        String dtype,
        String device,
        long bytes,
        long peakBytes,
        long residualBytes,
        Long storageBytes,
        List<DeviceTime> deviceTimes) {

    public GraphNode {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        deviceTimes = deviceTimes.isEmpty() ? List.of() : List.copyOf(deviceTimes);
    }

    /** A node without device time. */
    public GraphNode(String id, String parentId, String name, GraphNodeKind kind, long startNs, long selfTimeNs,
            long totalTimeNs, Shape shape, String dtype, String device, long bytes, long peakBytes,
            long residualBytes, Long storageBytes) {
        this(id, parentId, name, kind, startNs, selfTimeNs, totalTimeNs, shape, dtype, device, bytes, peakBytes,
                residualBytes, storageBytes, List.of());
    }

    /** Whether device work is attributed to the node or below it. */
    public boolean hasDeviceTime() {
        return !deviceTimes.isEmpty();
    }

    /** The node's device self time summed over its devices (saturating; 0 without device time). */
    public long deviceSelfTimeNs() {
        // By index, not for-each: an empty list's iterator is an object, made for each of a run's
        // million nodes without device time when the store packs them (77 MB per 1M-op import).
        long sum = 0;
        for (int k = 0; k < deviceTimes.size(); k++) {
            sum = Saturating.add(sum, deviceTimes.get(k).selfTimeNs());
        }
        return sum;
    }

    /** The node's device total time summed over its devices (saturating; 0 without device time). */
    public long deviceTotalTimeNs() {
        long sum = 0;
        for (int k = 0; k < deviceTimes.size(); k++) {
            sum = Saturating.add(sum, deviceTimes.get(k).totalTimeNs());
        }
        return sum;
    }
}
