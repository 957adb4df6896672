package io.tracegraph.domain.graph;

import io.tracegraph.domain.trace.CodePointOrder;
import io.tracegraph.domain.trace.DeviceInterval;
import io.tracegraph.domain.trace.Saturating;
import io.tracegraph.domain.trace.TraceDocument;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Device time per graph node and device, from the trace's device intervals (docs/decisions.md,
 * "Device time"): a node's self time on a device is the summed duration of the intervals attributed
 * to the node itself (kernel time: work on several streams at once counts each time, as PyTorch's
 * {@code self_device_time_total} does); its total time is its self time plus its children's totals. Intervals are attributed to a span by id, or to an op
 * node when their span id is an op node id ({@code <span>/op/<k>}).
 *
 * <p>One pass over the intervals and one bottom-up pass: O(m + n·d) for m intervals, n nodes and
 * d devices. A trace without intervals costs nothing: every node gets the shared empty list.
 */
final class DeviceTimes {
    private static final DeviceTimes NONE = new DeviceTimes(new String[0], 0, null, null, null);

    private final String[] devices;
    private final int d;
    private final long[] self;
    private final long[] total;
    private final boolean[] has;

    private DeviceTimes(String[] devices, int d, long[] self, long[] total, boolean[] has) {
        this.devices = devices;
        this.d = d;
        this.self = self;
        this.total = total;
        this.has = has;
    }

    boolean isEmpty() {
        return self == null;
    }

    /**
     * @param parent span index → parent span index (or -1)
     * @param order spans in breadth-first order (children after parents)
     * @param opSpan op index → span index (or -1); op node k is node {@code spans + k}
     */
    static DeviceTimes of(TraceDocument doc, Map<String, Integer> spanIndex, String[] opNodeIds, int[] parent,
            int[] order, int[] opSpan) {
        List<DeviceInterval> intervals = doc.deviceIntervals();
        if (intervals.isEmpty()) {
            return NONE;
        }
        int n = parent.length;
        int nodes = n + opNodeIds.length;
        TreeMap<String, Integer> deviceIndex = new TreeMap<>(CodePointOrder.COMPARATOR);
        // Intervals come in runs on one device (mostly one string): the map is asked once per run.
        String last = null;
        for (DeviceInterval iv : intervals) {
            if (iv.device() != last) {
                last = iv.device();
                deviceIndex.putIfAbsent(last, 0);
            }
        }
        String[] devices = deviceIndex.keySet().toArray(new String[0]);
        for (int i = 0; i < devices.length; i++) {
            deviceIndex.put(devices[i], i);
        }
        int d = devices.length;
        Map<String, Integer> opIndex = null;

        long[] self = new long[nodes * d];
        boolean[] has = new boolean[nodes * d];
        last = null;
        int lastIndex = 0;
        for (DeviceInterval iv : intervals) {
            if (iv.device() != last) {
                last = iv.device();
                lastIndex = deviceIndex.get(last);
            }
            Integer node = spanIndex.get(iv.spanId());
            if (node == null) {
                if (opIndex == null) {
                    opIndex = new HashMap<>(opNodeIds.length * 2);
                    for (int j = 0; j < opNodeIds.length; j++) {
                        opIndex.putIfAbsent(opNodeIds[j], n + j);
                    }
                }
                node = opIndex.get(iv.spanId());
            }
            if (node != null) {
                int key = node * d + lastIndex;
                self[key] = Saturating.add(self[key], iv.durationNs());
                has[key] = true;
            }
        }

        long[] total = self.clone();
        // Op nodes first (they are leaves under their span), then spans bottom-up.
        for (int j = 0; j < opNodeIds.length; j++) {
            if (opSpan[j] >= 0) {
                addInto(total, has, n + j, opSpan[j], d);
            }
        }
        for (int k = order.length - 1; k >= 0; k--) {
            int i = order[k];
            if (parent[i] >= 0) {
                addInto(total, has, i, parent[i], d);
            }
        }
        return new DeviceTimes(devices, d, self, total, has);
    }

    private static void addInto(long[] total, boolean[] has, int child, int parent, int d) {
        for (int x = 0; x < d; x++) {
            if (has[child * d + x]) {
                total[parent * d + x] = Saturating.add(total[parent * d + x], total[child * d + x]);
                has[parent * d + x] = true;
            }
        }
    }

    /** The device times of node {@code i} (spans first, then op nodes), in device order. */
    List<DeviceTime> of(int i) {
        if (self == null) {
            return List.of();
        }
        List<DeviceTime> times = null;
        for (int x = 0; x < d; x++) {
            if (has[i * d + x]) {
                if (times == null) {
                    times = new ArrayList<>(d);
                }
                times.add(new DeviceTime(devices[x], self[i * d + x], total[i * d + x]));
            }
        }
        return times == null ? List.of() : times;
    }
}
