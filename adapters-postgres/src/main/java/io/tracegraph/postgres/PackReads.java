package io.tracegraph.postgres;

import io.tracegraph.domain.graph.DeviceTime;
import io.tracegraph.domain.graph.GraphEdge;
import io.tracegraph.domain.graph.GraphEdgeKind;
import io.tracegraph.domain.graph.GraphNode;
import io.tracegraph.domain.graph.GraphNodeKind;
import io.tracegraph.domain.memory.CategoryBytes;
import io.tracegraph.domain.memory.LiveAllocation;
import io.tracegraph.domain.memory.TimelinePoint;
import io.tracegraph.domain.trace.MemoryCategory;
import io.tracegraph.domain.trace.Shape;
import java.nio.ByteBuffer;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jdbi.v3.core.Handle;

/**
 * Reads a run's packs (V5, docs/schema.md) back into domain values: one row per pack table,
 * received with binary COPY and decoded here ({@link Packing}), its strings looked up in the
 * run's words and ids. The key is a number of ours, formatted into the statement (COPY needs it).
 */
final class PackReads {
    private static final GraphNodeKind[] NODE_KINDS = GraphNodeKind.values();
    private static final GraphEdgeKind[] EDGE_KINDS = GraphEdgeKind.values();
    private static final MemoryCategory[] CATEGORIES = MemoryCategory.ordered();

    private PackReads() {
    }

    /** A run's strings: the repeated words and the ids (node ids by position first). */
    record Strings(String[] words, String[] ids) {
        static final Strings NONE = new Strings(new String[0], new String[0]);

        String word(long ref) {
            return ref < 0 ? null : words[(int) ref];
        }

        String id(long ref) {
            return ref < 0 ? null : ids[(int) ref];
        }
    }

    /** The run's words and, with {@code withIds}, its ids (none when the run is not stored). */
    static Strings strings(Handle h, long key, boolean withIds) throws SQLException {
        BinaryCopyReader copy = BinaryCopyReader.read(h.getConnection(), "COPY (SELECT words" + (withIds ? ", ids" : "")
                + " FROM run_strings WHERE run_key = " + key + ") TO STDOUT (FORMAT binary)");
        if (!copy.nextRow()) {
            return Strings.NONE;
        }
        String[] words = copy.textArray();
        return new Strings(words, withIds ? copy.textArray() : new String[0]);
    }

    /** The run's nodes in node order (ids from {@code strings}), with their device times (V6). */
    static List<GraphNode> nodes(Handle h, long key, Strings strings) throws SQLException {
        List<List<DeviceTime>> deviceTimes = deviceTimes(h, key);
        List<GraphNode> nodes = hostNodes(h, key, strings);
        if (deviceTimes == null) {
            return nodes;
        }
        if (deviceTimes.size() != nodes.size()) {
            throw new SQLException("run " + key + " has device times of " + deviceTimes.size() + " nodes for "
                    + nodes.size() + " nodes");
        }
        List<GraphNode> timed = new ArrayList<>(nodes.size());
        for (int i = 0; i < nodes.size(); i++) {
            GraphNode n = nodes.get(i);
            List<DeviceTime> times = deviceTimes.get(i);
            timed.add(times.isEmpty() ? n : new GraphNode(n.id(), n.parentId(), n.name(), n.kind(), n.startNs(),
                    n.selfTimeNs(), n.totalTimeNs(), n.shape(), n.dtype(), n.device(), n.bytes(), n.peakBytes(),
                    n.residualBytes(), n.storageBytes(), times));
        }
        return timed;
    }

    /**
     * Each node's device times in node order, its devices in code point order (the shared empty
     * list for a node without); null when the run has no device time (no row in device_time_packs).
     */
    static List<List<DeviceTime>> deviceTimes(Handle h, long key) throws SQLException {
        BinaryCopyReader copy = read(h, "nodes, devices, self_times_ns, total_times_ns", "device_time_packs", key);
        if (copy == null) {
            return null;
        }
        int n = copy.int4();
        String[] devices = copy.textArray();
        ByteBuffer[] selfs = copy.byteaArray();
        ByteBuffer[] totals = copy.byteaArray();
        if (selfs.length != devices.length || totals.length != devices.length) {
            throw new SQLException("run " + key + " has device times of " + selfs.length + " and " + totals.length
                    + " devices for " + devices.length + " devices");
        }
        long[][] self = new long[devices.length][];
        long[][] total = new long[devices.length][];
        for (int d = 0; d < devices.length; d++) {
            self[d] = Packing.unpack(selfs[d], null);
            total[d] = Packing.unpack(totals[d], self[d]);
            requireLength(n, self[d], total[d]);
        }
        List<List<DeviceTime>> times = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            List<DeviceTime> node = null;
            for (int d = 0; d < devices.length; d++) {
                if (self[d][i] >= 0) {
                    if (node == null) {
                        node = new ArrayList<>(devices.length);
                    }
                    node.add(new DeviceTime(devices[d], self[d][i], total[d][i]));
                }
            }
            times.add(node == null ? List.of() : node);
        }
        return times;
    }

    /** The run's nodes in node order without device times. */
    private static List<GraphNode> hostNodes(Handle h, long key, Strings strings) throws SQLException {
        BinaryCopyReader copy = read(h, "nodes, parents, names, kinds, start_ns, self_times_ns, total_times_ns, shapes, "
                + "dtypes, devices, bytes, peak_bytes, residual_bytes, storage_bytes", "node_packs", key);
        if (copy == null) {
            return List.of();
        }
        int n = copy.int4();
        long[] parents = Packing.unpack(copy.bytea(), null);
        long[] names = Packing.unpack(copy.bytea(), null);
        long[] kinds = Packing.unpack(copy.bytea(), null);
        long[] starts = Packing.unpack(copy.bytea(), null);
        long[] self = Packing.unpack(copy.bytea(), null);
        long[] total = Packing.unpack(copy.bytea(), self);
        long[] shapes = Packing.unpack(copy.bytea(), null);
        long[] dtypes = Packing.unpack(copy.bytea(), null);
        long[] devices = Packing.unpack(copy.bytea(), null);
        long[] bytes = Packing.unpack(copy.bytea(), null);
        long[] peak = Packing.unpack(copy.bytea(), bytes);
        long[] residual = Packing.unpack(copy.bytea(), null);
        long[] storage = Packing.unpack(copy.bytea(), bytes);
        requireLength(n, parents, names, kinds, starts, self, total, shapes, dtypes, devices, bytes, peak, residual,
                storage);
        if (strings.ids().length < n) {
            throw new SQLException("run " + key + " has " + strings.ids().length + " ids for " + n + " nodes");
        }
        Words words = new Words(strings.words());
        List<GraphNode> nodes = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            nodes.add(new GraphNode(strings.ids()[i], strings.id(parents[i]), words.text(names[i]),
                    words.nodeKind(kinds[i]), starts[i], self[i], total[i], words.shape(shapes[i]),
                    words.text(dtypes[i]), words.text(devices[i]), bytes[i], peak[i], residual[i],
                    storage[i] < 0 ? null : storage[i]));
        }
        return nodes;
    }

    /** The run's edges in graph order. */
    static List<GraphEdge> edges(Handle h, long key, Strings strings) throws SQLException {
        BinaryCopyReader copy = read(h, "edges, froms, tos, kinds, durations_ns, labels", "edge_packs", key);
        if (copy == null) {
            return List.of();
        }
        int n = copy.int4();
        long[] froms = Packing.unpack(copy.bytea(), null);
        long[] tos = Packing.unpack(copy.bytea(), froms);
        long[] kinds = Packing.unpack(copy.bytea(), null);
        long[] durations = Packing.unpack(copy.bytea(), null);
        long[] labels = Packing.unpack(copy.bytea(), null);
        requireLength(n, froms, tos, kinds, durations, labels);
        Words words = new Words(strings.words());
        List<GraphEdge> edges = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            edges.add(new GraphEdge(strings.id(froms[i]), strings.id(tos[i]), words.edgeKind(kinds[i]), durations[i],
                    words.text(labels[i])));
        }
        return edges;
    }

    /** The run's memory timeline in analysis order: points made as they are read (2 million is no rare count). */
    static List<TimelinePoint> timeline(Handle h, long key, Strings strings) throws SQLException {
        BinaryCopyReader copy = read(h, "points, timestamps_ns, devices, live_bytes, heap_bytes, free_bytes, "
                + "activation_bytes, gradient_bytes, optimizer_bytes, other_bytes, parameter_bytes", "timeline_packs", key);
        if (copy == null) {
            return List.of();
        }
        int n = copy.int4();
        long[] timestamps = Packing.unpack(copy.bytea(), null);
        long[] devices = Packing.unpack(copy.bytea(), null);
        long[] live = Packing.unpack(copy.bytea(), null);
        long[] heap = Packing.unpack(copy.bytea(), live);
        long[] free = Packing.unpack(copy.bytea(), null);
        long[][] categories = new long[CATEGORIES.length][];
        for (int c = 0; c < CATEGORIES.length; c++) {
            categories[c] = Packing.unpack(copy.bytea(), null);
        }
        requireLength(n, timestamps, devices, live, heap, free);
        requireLength(n, categories);
        Words words = new Words(strings.words());
        List<TimelinePoint> points = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Map<MemoryCategory, Long> present = new EnumMap<>(MemoryCategory.class);
            for (int c = 0; c < CATEGORIES.length; c++) {
                if (categories[c][i] >= 0) {
                    present.put(CATEGORIES[c], categories[c][i]);
                }
            }
            points.add(new TimelinePoint(timestamps[i], words.text(devices[i]), live[i], heap[i], free[i],
                    CategoryBytes.of(present)));
        }
        return points;
    }

    /** The allocations live at the run's memory peak, in breakdown order. */
    static List<LiveAllocation> peakBreakdown(Handle h, long key, Strings strings) throws SQLException {
        BinaryCopyReader copy = read(h, "allocations, tensor_ids, span_ids, op_names, bytes, shapes, dtypes, devices, "
                + "categories, storage_ids", "breakdown_packs", key);
        if (copy == null) {
            return List.of();
        }
        int n = copy.int4();
        long[] tensors = Packing.unpack(copy.bytea(), null);
        long[] spans = Packing.unpack(copy.bytea(), null);
        long[] ops = Packing.unpack(copy.bytea(), null);
        long[] bytes = Packing.unpack(copy.bytea(), null);
        long[] shapes = Packing.unpack(copy.bytea(), null);
        long[] dtypes = Packing.unpack(copy.bytea(), null);
        long[] devices = Packing.unpack(copy.bytea(), null);
        long[] categories = Packing.unpack(copy.bytea(), null);
        ByteBuffer storageIds = copy.bytea();
        long[] storages = storageIds == null ? null : Packing.unpack(storageIds, null);
        requireLength(n, tensors, spans, ops, bytes, shapes, dtypes, devices, categories);
        if (storages != null) {
            requireLength(n, storages);
        }
        Words words = new Words(strings.words());
        List<LiveAllocation> allocations = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            allocations.add(new LiveAllocation(strings.id(tensors[i]), strings.id(spans[i]), words.text(ops[i]),
                    bytes[i], words.shape(shapes[i]), words.text(dtypes[i]), words.text(devices[i]),
                    words.category(categories[i]), storages == null ? null : strings.id(storages[i])));
        }
        return allocations;
    }

    /** The one row of {@code table} for run {@code key}, positioned on it; null when there is none. */
    private static BinaryCopyReader read(Handle h, String columns, String table, long key) throws SQLException {
        BinaryCopyReader copy = BinaryCopyReader.read(h.getConnection(), "COPY (SELECT " + columns + " FROM " + table
                + " WHERE run_key = " + key + ") TO STDOUT (FORMAT binary)");
        return copy.nextRow() ? copy : null;
    }

    private static void requireLength(int n, long[]... columns) throws SQLException {
        for (long[] column : columns) {
            if (column.length != n) {
                throw new SQLException("a packed column of " + column.length + " values where " + n + " were stored");
            }
        }
    }

    /** A run's words with what they stand for made once: kinds, categories and shapes. */
    private static final class Words {
        private final String[] words;
        private final Shape[] shapes;
        private final GraphNodeKind[] nodeKinds;

        Words(String[] words) {
            this.words = words;
            this.shapes = new Shape[words.length];
            this.nodeKinds = new GraphNodeKind[words.length];
        }

        String text(long ref) {
            return ref < 0 ? null : words[(int) ref];
        }

        GraphNodeKind nodeKind(long ref) {
            int i = (int) ref;
            GraphNodeKind kind = nodeKinds[i];
            if (kind == null) {
                kind = GraphNodeKind.OTHER;
                for (GraphNodeKind k : NODE_KINDS) {
                    if (RunPacks.wire(k).equals(words[i])) {
                        kind = k;
                    }
                }
                nodeKinds[i] = kind;
            }
            return kind;
        }

        GraphEdgeKind edgeKind(long ref) {
            String wire = words[(int) ref];
            for (GraphEdgeKind k : EDGE_KINDS) {
                if (RunPacks.wire(k).equals(wire)) {
                    return k;
                }
            }
            return GraphEdgeKind.valueOf(wire.toUpperCase(Locale.ROOT));
        }

        MemoryCategory category(long ref) {
            return RunRows.category(words[(int) ref]).orElse(MemoryCategory.OTHER);
        }

        /** The shape a words entry such as {@code {2,128,64}} writes; null for -1. */
        Shape shape(long ref) {
            if (ref < 0) {
                return null;
            }
            int i = (int) ref;
            Shape shape = shapes[i];
            if (shape == null) {
                String text = words[i];
                String inner = text.substring(1, text.length() - 1);
                if (inner.isEmpty()) {
                    shape = Shape.SCALAR;
                } else {
                    String[] dims = inner.split(",");
                    long[] values = new long[dims.length];
                    for (int d = 0; d < dims.length; d++) {
                        values[d] = Long.parseLong(dims[d]);
                    }
                    shape = Shape.of(values);
                }
                shapes[i] = shape;
            }
            return shape;
        }
    }
}
