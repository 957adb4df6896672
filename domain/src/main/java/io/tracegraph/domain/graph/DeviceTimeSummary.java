package io.tracegraph.domain.graph;

import io.tracegraph.domain.trace.CodePointOrder;
import io.tracegraph.domain.trace.Saturating;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;

/**
 * A run's device time for a person: the device time of each device (the roots' device totals, so
 * every device interval of the trace counts once) and the nodes, spans and ops alike, with the most
 * device self time (one entry per node and device, like candle-graph's {@code slowest_device_spans},
 * which ranks spans only: in a PyTorch trace the device work is the ops' that launched it).
 * {@link #NONE} for a run without device time.
 *
 * @param devices each device's time in device code point order ({@code selfTimeNs}: of the roots
 *     themselves, {@code totalTimeNs}: all of it)
 * @param slowest at most {@value #TOP} entries, by device self time descending, ties in node order
 *     then device order
 */
public record DeviceTimeSummary(List<DeviceTime> devices, List<DeviceSpanCost> slowest) {
    /** Entries of {@link #slowest} at most. */
    public static final int TOP = 8;
    public static final DeviceTimeSummary NONE = new DeviceTimeSummary(List.of(), List.of());

    public DeviceTimeSummary {
        devices = List.copyOf(devices);
        slowest = List.copyOf(slowest);
    }

    /** The summary of a graph's nodes; linear apart from sorting the nodes with device self time. */
    public static DeviceTimeSummary of(List<GraphNode> nodes) {
        TreeMap<String, long[]> byDevice = new TreeMap<>(CodePointOrder.COMPARATOR);
        List<DeviceSpanCost> costs = new ArrayList<>();
        for (GraphNode n : nodes) {
            for (DeviceTime t : n.deviceTimes()) {
                if (n.parentId() == null) {
                    long[] sums = byDevice.computeIfAbsent(t.device(), d -> new long[2]);
                    sums[0] = Saturating.add(sums[0], t.selfTimeNs());
                    sums[1] = Saturating.add(sums[1], t.totalTimeNs());
                }
                if (t.selfTimeNs() > 0) {
                    costs.add(new DeviceSpanCost(n.id(), n.name(), t.device(), t.selfTimeNs()));
                }
            }
        }
        if (byDevice.isEmpty() && costs.isEmpty()) {
            return NONE;
        }
        List<DeviceTime> devices = new ArrayList<>();
        byDevice.forEach((device, sums) -> devices.add(new DeviceTime(device, sums[0], sums[1])));
        costs.sort(Comparator.comparingLong(DeviceSpanCost::selfTimeNs).reversed());
        return new DeviceTimeSummary(devices, costs.subList(0, Math.min(TOP, costs.size())));
    }

    /** Whether the run has device time. */
    public boolean isEmpty() {
        return devices.isEmpty() && slowest.isEmpty();
    }

    /** The device time of every device together. */
    public long totalTimeNs() {
        long sum = 0;
        for (DeviceTime t : devices) {
            sum = Saturating.add(sum, t.totalTimeNs());
        }
        return sum;
    }
}
