package io.tracegraph.domain.graph;

import io.tracegraph.domain.trace.CodePointOrder;
import io.tracegraph.domain.trace.DeviceInterval;
import io.tracegraph.domain.trace.Saturating;
import io.tracegraph.domain.trace.TraceDocument;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Device time per graph node and device, from the trace's device intervals (docs/decisions.md,
 * "Device time"): a node's self time on a device is the union of the intervals attributed to the
 * node itself (overlapping work counted once, as candle-graph's {@code busy_ns}); its total time is
 * its self time plus its children's totals. Intervals are attributed to a span by id, or to an op
 * node when their span id is an op node id ({@code <span>/op/<k>}).
 *
 * <p>One sort of the intervals and one bottom-up pass: O(m log m + n·d) for m intervals, n nodes
 * and d devices. A trace without intervals costs nothing: every node gets the shared empty list.
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
        intervals.forEach(iv -> deviceIndex.putIfAbsent(iv.device(), 0));
        String[] devices = deviceIndex.keySet().toArray(new String[0]);
        for (int i = 0; i < devices.length; i++) {
            deviceIndex.put(devices[i], i);
        }
        int d = devices.length;
        Map<String, Integer> opIndex = null;

        List<Slot> slots = new ArrayList<>(intervals.size());
        for (DeviceInterval iv : intervals) {
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
                slots.add(new Slot((long) node * d + deviceIndex.get(iv.device()), iv.startNs(), iv.endNs()));
            }
        }
        Slot[] sorted = slots.toArray(new Slot[0]);
        Arrays.sort(sorted, Slot.ORDER);

        long[] self = new long[nodes * d];
        boolean[] has = new boolean[nodes * d];
        for (int k = 0; k < sorted.length; ) {
            long key = sorted[k].key;
            long busy = 0;
            long left = sorted[k].start;
            long right = sorted[k].end;
            for (k++; k < sorted.length && sorted[k].key == key; k++) {
                if (sorted[k].start <= right) {
                    right = Math.max(right, sorted[k].end);
                } else {
                    busy = Saturating.add(busy, right - left);
                    left = sorted[k].start;
                    right = sorted[k].end;
                }
            }
            busy = Saturating.add(busy, right - left);
            self[(int) key] = busy;
            has[(int) key] = true;
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

    /** One interval on one (node, device): key = node × devices + device. */
    private static final class Slot {
        static final Comparator<Slot> ORDER = (a, b) -> a.key != b.key ? Long.compare(a.key, b.key)
                : Long.compare(a.start, b.start);
        final long key;
        final long start;
        final long end;

        Slot(long key, long start, long end) {
            this.key = key;
            this.start = start;
            this.end = end;
        }
    }
}
