package io.tracegraph.domain.graph;

import io.tracegraph.domain.trace.CodePointOrder;
import io.tracegraph.domain.trace.DeviceInterval;
import io.tracegraph.domain.trace.Saturating;
import io.tracegraph.domain.trace.TraceDocument;
import java.util.Arrays;
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

    /** How many devices the table has, in code point order. */
    int devices() {
        return d;
    }

    /** The name of device {@code x}. */
    String device(int x) {
        return devices[x];
    }

    /** Node {@code i}'s self time on device {@code x} (0 when it has none there). */
    long self(int i, int x) {
        return self[i * d + x];
    }

    /** Whether an interval named an op node ({@code spans}: the span count); else no op node has device time. */
    boolean anyOpNode(int spans) {
        return self != null && self.length > spans * d;
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
        OpNodes opNodes = null;

        // Rows for the span nodes; rows for the op nodes (a million in a 1M-op trace) only once an
        // interval names one: producers attribute device work to spans, and op node rows that stay
        // empty were 16 MB of arrays to zero, copy and walk.
        int rows = n;
        long[] self = new long[rows * d];
        boolean[] has = new boolean[rows * d];
        last = null;
        int lastIndex = 0;
        for (DeviceInterval iv : intervals) {
            if (iv.device() != last) {
                last = iv.device();
                lastIndex = deviceIndex.get(last);
            }
            Integer node = spanIndex.get(iv.spanId());
            if (node == null) {
                if (opNodes == null) {
                    opNodes = new OpNodes(spanIndex, n, opNodeIds, opSpan);
                }
                int j = opNodes.find(iv.spanId());
                if (j < 0) {
                    continue;
                }
                node = n + j;
                if (rows == n) {
                    rows = nodes;
                    self = Arrays.copyOf(self, rows * d);
                    has = Arrays.copyOf(has, rows * d);
                }
            }
            int key = node * d + lastIndex;
            self[key] = Saturating.add(self[key], iv.durationNs());
            has[key] = true;
        }

        long[] total = self.clone();
        // Op nodes first (they are leaves under their span), then spans bottom-up.
        if (rows > n) {
            for (int j = 0; j < opNodeIds.length; j++) {
                if (opSpan[j] >= 0) {
                    addInto(total, has, n + j, opSpan[j], d);
                }
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

    /**
     * The device times of node {@code i} (spans first, then op nodes), in device order: an
     * unmodifiable list, which the node keeps as it is instead of copying it.
     */
    List<DeviceTime> of(int i) {
        if (self == null || i * d >= self.length) {
            return List.of();
        }
        int count = 0;
        int first = -1;
        for (int x = 0; x < d; x++) {
            if (has[i * d + x]) {
                count++;
                first = first < 0 ? x : first;
            }
        }
        if (count == 0) {
            return List.of();
        }
        if (count == 1) {
            return List.of(new DeviceTime(devices[first], self[i * d + first], total[i * d + first]));
        }
        DeviceTime[] times = new DeviceTime[count];
        int k = 0;
        for (int x = first; x < d; x++) {
            if (has[i * d + x]) {
                times[k++] = new DeviceTime(devices[x], self[i * d + x], total[i * d + x]);
            }
        }
        return List.of(times);
    }

    /**
     * Op node ids to op positions. An op node id is {@code <span id>/op/<k>}, the k-th op of that
     * span in document order, so the ops are listed by span (two int arrays, no hash map of every
     * op node id: 380,000 for a 1 GB PyTorch trace) and an id is read as span and k, and checked
     * against the op's id. Ids not read so (ops of unknown spans, ids that are no op node id) are
     * looked up in a hash map of all op node ids, built on first need, as before.
     */
    private static final class OpNodes {
        private static final String OP = "/op/";
        private final Map<String, Integer> spanIndex;
        private final String[] opNodeIds;
        /** Span position → where its ops start in {@link #bySpan}; one more entry at the end. */
        private final int[] firstOf;
        private final int[] bySpan;
        private Map<String, Integer> others;

        OpNodes(Map<String, Integer> spanIndex, int spans, String[] opNodeIds, int[] opSpan) {
            this.spanIndex = spanIndex;
            this.opNodeIds = opNodeIds;
            int[] firstOf = new int[spans + 1];
            for (int s : opSpan) {
                if (s >= 0 && s < spans) {
                    firstOf[s + 1]++;
                }
            }
            for (int s = 0; s < spans; s++) {
                firstOf[s + 1] += firstOf[s];
            }
            int[] next = Arrays.copyOf(firstOf, spans);
            int[] bySpan = new int[firstOf[spans]];
            for (int j = 0; j < opSpan.length; j++) {
                int s = opSpan[j];
                if (s >= 0 && s < spans) {
                    bySpan[next[s]++] = j;
                }
            }
            this.firstOf = firstOf;
            this.bySpan = bySpan;
        }

        /** The position of the first op whose node id is {@code id}, or -1. */
        int find(String id) {
            int j = read(id);
            if (j >= 0) {
                return j;
            }
            if (others == null) {
                others = new HashMap<>(opNodeIds.length * 2);
                for (int k = 0; k < opNodeIds.length; k++) {
                    others.putIfAbsent(opNodeIds[k], k);
                }
            }
            Integer k = others.get(id);
            return k == null ? -1 : k;
        }

        /**
         * The op that {@code <span id>/op/<k>} names, where the span is known and has a k-th op
         * with exactly that id (the only op that can have it: k is written without leading zeros and
         * the last {@code /op/} ends the span id), else -1.
         */
        private int read(String id) {
            int end = id.length();
            int digits = 0;
            int k = 0;
            while (digits < 9 && digits < end && isDigit(id.charAt(end - 1 - digits))) {
                digits++;
            }
            if (digits == 0 || end - digits < OP.length() || !id.startsWith(OP, end - digits - OP.length())) {
                return -1;
            }
            for (int x = end - digits; x < end; x++) {
                k = k * 10 + (id.charAt(x) - '0');
            }
            Integer s = spanIndex.get(id.substring(0, end - digits - OP.length()));
            if (s == null || s >= firstOf.length - 1 || k >= firstOf[s + 1] - firstOf[s]) {
                return -1;
            }
            int j = bySpan[firstOf[s] + k];
            return opNodeIds[j].equals(id) ? j : -1;
        }

        private static boolean isDigit(char c) {
            return c >= '0' && c <= '9';
        }
    }
}
