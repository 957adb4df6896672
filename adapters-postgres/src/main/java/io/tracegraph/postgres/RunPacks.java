package io.tracegraph.postgres;

import static io.tracegraph.domain.task.Tasks.join;

import io.tracegraph.domain.compare.PathStats;
import io.tracegraph.domain.graph.DeviceTime;
import io.tracegraph.domain.graph.EdgeList;
import io.tracegraph.domain.graph.ExecutionGraph;
import io.tracegraph.domain.graph.GraphNode;
import io.tracegraph.domain.graph.SemanticPaths;
import io.tracegraph.domain.memory.CategoryBytes;
import io.tracegraph.domain.memory.LiveAllocation;
import io.tracegraph.domain.memory.MemoryTimeline;
import io.tracegraph.domain.memory.TimelinePoint;
import io.tracegraph.domain.trace.CodePointOrder;
import io.tracegraph.domain.trace.MemoryCategory;
import io.tracegraph.domain.trace.Shape;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.stream.IntStream;

/**
 * A run's packs (V5, docs/schema.md) as the store writes them: its strings (repeated words and ids)
 * and its nodes, edges, memory timeline, peak breakdown and path statistics, each column packed
 * ({@link Packing}) with its strings as references. The references are assigned in one pass in a
 * fixed order; the columns are then packed in parallel.
 */
final class RunPacks {
    /** The stored names of enum constants, by enum: hundreds of thousands of nodes and edges name one. */
    private static final Map<Class<?>, String[]> WIRE = new ConcurrentHashMap<>();

    final String[] words;
    final String[] ids;
    /** The packs, packed on other threads: the strings can be sent meanwhile. */
    final CompletableFuture<Pack> nodes;
    final CompletableFuture<Pack> edges;
    final CompletableFuture<Pack> timeline;
    final CompletableFuture<Pack> breakdown;
    final CompletableFuture<Pack> paths;
    final long[] pathHashes;
    final String[] pathTexts;
    final CompletableFuture<byte[]> pathDigests;
    /**
     * V6: the nodes' device times (null for a run without device time), the paths' device self and
     * total times with their digests (null likewise) and the peak breakdown's storage ids (null when
     * no allocation has one).
     */
    final CompletableFuture<DevicePack> deviceTimes;
    final CompletableFuture<Pack> pathDeviceTimes;
    final CompletableFuture<byte[]> pathDeviceDigests;
    final CompletableFuture<byte[]> storageIds;

    /** One pack table's row: the count and the packed columns, in the table's column order. */
    record Pack(int count, List<byte[]> columns) {
    }

    /** The row of device_time_packs: the devices in code point order, per device two packed columns. */
    record DevicePack(int nodes, String[] devices, List<byte[]> selfTimes, List<byte[]> totalTimes) {
    }

    private RunPacks(String[] words, String[] ids, CompletableFuture<Pack> nodes, CompletableFuture<Pack> edges,
            CompletableFuture<Pack> timeline, CompletableFuture<Pack> breakdown, CompletableFuture<Pack> paths,
            long[] pathHashes, String[] pathTexts, CompletableFuture<byte[]> pathDigests,
            CompletableFuture<DevicePack> deviceTimes, CompletableFuture<Pack> pathDeviceTimes,
            CompletableFuture<byte[]> pathDeviceDigests, CompletableFuture<byte[]> storageIds) {
        this.words = words;
        this.ids = ids;
        this.nodes = nodes;
        this.edges = edges;
        this.timeline = timeline;
        this.breakdown = breakdown;
        this.paths = paths;
        this.pathHashes = pathHashes;
        this.pathTexts = pathTexts;
        this.pathDigests = pathDigests;
        this.deviceTimes = deviceTimes;
        this.pathDeviceTimes = pathDeviceTimes;
        this.pathDeviceDigests = pathDeviceDigests;
        this.storageIds = storageIds;
    }

    /**
     * The packs of {@code graph}. Its per-path statistics are aggregated (and sorted) on another
     * thread while the references to its strings are assigned on this one.
     */
    static RunPacks of(ExecutionGraph graph) {
        List<GraphNode> nodes = graph.spans();
        SemanticPaths paths = SemanticPaths.of(nodes);
        CompletableFuture<List<PathStats>> aggregated = CompletableFuture.supplyAsync(
                () -> PathStats.ofGraph(nodes, paths));
        Dictionary words = new Dictionary(1024);
        int n = nodes.size();
        Dictionary ids = new Dictionary(n);
        for (GraphNode node : nodes) {
            ids.add(node.id());
        }

        // The references, in one pass per collection (the dictionaries grow in this order).
        long[] parents = new long[n];
        long[] names = new long[n];
        long[] kinds = new long[n];
        long[] pathRefs = new long[n];
        long[] starts = new long[n];
        long[] selfs = new long[n];
        long[] totals = new long[n];
        long[] shapes = new long[n];
        long[] dtypes = new long[n];
        long[] devices = new long[n];
        long[] bytes = new long[n];
        long[] peaks = new long[n];
        long[] residuals = new long[n];
        long[] storages = new long[n];
        Map<Shape, Integer> shapeRefs = new HashMap<>();
        Column parentIds = ids.column();
        Column nodeNames = words.column();
        Column nodeKinds = words.column();
        Column nodeDtypes = words.column();
        Column nodeDevices = words.column();
        for (int i = 0; i < n; i++) {
            GraphNode node = nodes.get(i);
            parents[i] = parentIds.ref(node.parentId());
            names[i] = nodeNames.ref(node.name());
            kinds[i] = nodeKinds.ref(wire(node.kind()));
            starts[i] = node.startNs();
            selfs[i] = node.selfTimeNs();
            totals[i] = node.totalTimeNs();
            shapes[i] = shape(node.shape(), words, shapeRefs);
            dtypes[i] = nodeDtypes.ref(node.dtype());
            devices[i] = nodeDevices.ref(node.device());
            bytes[i] = node.bytes();
            peaks[i] = node.peakBytes();
            residuals[i] = node.residualBytes();
            storages[i] = node.storageBytes() == null ? -1 : node.storageBytes();
        }

        // By column: no edge object made per read (2.9 M per 1M-op run, twice: 280 MB of garbage).
        EdgeList edgeList = EdgeList.of(graph.edges());
        int m = edgeList.size();
        long[] froms = new long[m];
        long[] tos = new long[m];
        long[] edgeKinds = new long[m];
        long[] durations = new long[m];
        long[] labels = new long[m];
        // Edges come sorted by their origin, most sharing it with the edge before: the origins get
        // their references first, so that those of the ids that are not nodes' rise with the edges.
        Column origins = ids.column();
        for (int i = 0; i < m; i++) {
            froms[i] = origins.ref(edgeList.from(i));
        }
        // Most targets are nodes or origins, known by now: looked up on every core (lookups only), the
        // others then added in edge order, as one pass would.
        int[] known = new int[m];
        IntStream.range(0, m).parallel().forEach(i -> known[i] = ids.find(edgeList.to(i)));
        Column targets = ids.column();
        Column kindsOfEdges = words.column();
        Column edgeLabels = words.column();
        for (int i = 0; i < m; i++) {
            tos[i] = known[i] >= 0 ? known[i] : targets.ref(edgeList.to(i));
            edgeKinds[i] = kindsOfEdges.ref(wire(edgeList.kind(i)));
            durations[i] = edgeList.durationNs(i);
            labels[i] = edgeLabels.ref(edgeList.label(i));
        }

        List<TimelinePoint> points = graph.memory().timeline();
        int t = points.size();
        long[] timestamps = new long[t];
        long[] pointDevices = new long[t];
        long[] live = new long[t];
        long[] heap = new long[t];
        long[] free = new long[t];
        MemoryCategory[] order = MemoryCategory.ordered();
        long[][] categories = new long[order.length][t];
        Column timelineDevices = words.column();
        if (points instanceof MemoryTimeline columns) {
            // Read by column: no point, category array and map made for each (2M for a 1M-op run).
            for (int i = 0; i < t; i++) {
                timestamps[i] = columns.timestampNs(i);
                pointDevices[i] = timelineDevices.ref(columns.device(i));
                live[i] = columns.liveBytes(i);
                heap[i] = live[i];
                free[i] = columns.freeBytes(i);
                for (int k = 0; k < order.length; k++) {
                    categories[k][i] = columns.categoryBytes(i, order[k]);
                }
            }
        } else {
            for (int i = 0; i < t; i++) {
                TimelinePoint point = points.get(i);
                timestamps[i] = point.timestampNs();
                pointDevices[i] = timelineDevices.ref(point.device());
                live[i] = point.liveBytes();
                heap[i] = point.heapBytes();
                free[i] = point.freeBytes();
                CategoryBytes c = point.byCategory();
                for (int k = 0; k < order.length; k++) {
                    categories[k][i] = c.has(order[k]) ? c.get(order[k]) : -1;
                }
            }
        }

        List<LiveAllocation> allocations = graph.memory().peakBreakdown();
        int b = allocations.size();
        long[] tensors = new long[b];
        long[] spans = new long[b];
        long[] ops = new long[b];
        long[] allocationBytes = new long[b];
        long[] allocationShapes = new long[b];
        long[] allocationDtypes = new long[b];
        long[] allocationDevices = new long[b];
        long[] allocationCategories = new long[b];
        long[] allocationStorages = new long[b];
        boolean anyStorage = false;
        for (int i = 0; i < b; i++) {
            LiveAllocation a = allocations.get(i);
            tensors[i] = ids.ref(a.tensorId());
            spans[i] = ids.ref(a.spanId());
            ops[i] = words.ref(a.opName());
            allocationBytes[i] = a.bytes();
            allocationShapes[i] = shape(a.shape(), words, shapeRefs);
            allocationDtypes[i] = words.ref(a.dtype());
            allocationDevices[i] = words.ref(a.device());
            allocationCategories[i] = words.ref(wire(a.category()));
            allocationStorages[i] = ids.ref(a.storageId());
            anyStorage |= a.storageId() != null;
        }

        // The paths: rank by hash, each node's path rank, each path's depth (that of its first node).
        List<PathStats> stats = join(aggregated);
        int p = stats.size();
        long[] hashes = new long[p];
        for (int i = 0; i < p; i++) {
            hashes[i] = stats.get(i).pathHash();
        }
        Ranks rankOf = new Ranks(hashes);
        long[] depths = new long[p];
        Arrays.fill(depths, -1);
        for (int i = 0; i < n; i++) {
            int rank = rankOf.get(paths.hash(i));
            pathRefs[i] = rank;
            if (depths[rank] < 0) {
                depths[rank] = paths.depth(i);
            }
        }
        long[] pathKinds = new long[p];
        long[] counts = new long[p];
        long[] pathSelf = new long[p];
        long[] pathTotal = new long[p];
        long[] pathBytes = new long[p];
        long[] pathPeak = new long[p];
        long[] pathDeviceSelf = new long[p];
        long[] pathDeviceTotal = new long[p];
        String[] texts = new String[p];
        String[] kindTexts = new String[p];
        for (int i = 0; i < p; i++) {
            PathStats s = stats.get(i);
            pathKinds[i] = words.ref(s.kind());
            kindTexts[i] = s.kind();
            counts[i] = s.count();
            pathSelf[i] = s.selfTimeNs();
            pathTotal[i] = s.totalTimeNs();
            pathBytes[i] = s.bytes();
            pathPeak[i] = s.peakBytes();
            pathDeviceSelf[i] = s.deviceSelfTimeNs();
            pathDeviceTotal[i] = s.deviceTotalTimeNs();
            texts[i] = s.path();
            if (depths[i] < 0) {
                depths[i] = 0;
            }
        }
        long[] byHash = byHash(hashes, rankOf);
        // The most frequent words first: most references then take one byte.
        String[] wordList = words.byFrequency(names, kinds, shapes, dtypes, devices, edgeKinds, labels, pointDevices,
                ops, allocationShapes, allocationDtypes, allocationDevices, allocationCategories, pathKinds);

        // Every column packed on its own, in parallel.
        Packer packer = new Packer();
        var nodePack = packer.pack(n, () -> Packing.pack(parents), () -> Packing.pack(names),
                () -> Packing.pack(kinds), () -> Packing.pack(pathRefs), () -> Packing.pack(starts, null, true),
                () -> Packing.pack(selfs), () -> Packing.pack(totals, selfs, false), () -> Packing.pack(shapes),
                () -> Packing.pack(dtypes), () -> Packing.pack(devices), () -> Packing.pack(bytes),
                () -> Packing.pack(peaks, bytes, false), () -> Packing.pack(residuals),
                () -> Packing.pack(storages, bytes, false));
        var edgePack = packer.pack(m, () -> Packing.pack(froms, null, true), () -> Packing.pack(tos, froms, true),
                () -> Packing.pack(edgeKinds), () -> Packing.pack(durations), () -> Packing.pack(labels));
        List<Supplier<byte[]>> timelineColumns = new ArrayList<>(List.of(() -> Packing.pack(timestamps, null, true),
                () -> Packing.pack(pointDevices), () -> Packing.pack(live, null, true),
                () -> Packing.pack(heap, live, false), () -> Packing.pack(free, null, true)));
        for (long[] category : categories) {
            timelineColumns.add(() -> Packing.pack(category, null, true));
        }
        var timelinePack = packer.pack(t, timelineColumns);
        var breakdownPack = packer.pack(b, () -> Packing.pack(tensors), () -> Packing.pack(spans),
                () -> Packing.pack(ops), () -> Packing.pack(allocationBytes, null, true),
                () -> Packing.pack(allocationShapes), () -> Packing.pack(allocationDtypes),
                () -> Packing.pack(allocationDevices), () -> Packing.pack(allocationCategories));
        // Path columns without exceptions: SQL decodes them all in one pass (run_path_rows).
        var pathPack = packer.pack(p, () -> Packing.packFrame(pathKinds, null), () -> Packing.packFrame(counts, null),
                () -> Packing.packFrame(pathSelf, null), () -> Packing.packFrame(pathTotal, pathSelf),
                () -> Packing.packFrame(pathBytes, null), () -> Packing.packFrame(pathPeak, pathBytes),
                () -> Packing.packFrame(depths, null), () -> Packing.packFrame(byHash, null));
        CompletableFuture<byte[]> digests = CompletableFuture.supplyAsync(() -> digests(hashes, kindTexts, counts,
                pathSelf, pathTotal, pathBytes, pathPeak));

        // V6: device times (per node and device; per path, summed over devices) and storage ids.
        boolean device = graph.deviceTimeNs() != null;
        CompletableFuture<DevicePack> devicePack = device
                ? CompletableFuture.supplyAsync(() -> devicePack(nodes)) : null;
        CompletableFuture<Pack> pathDevicePack = device ? packer.pack(p, () -> Packing.packFrame(pathDeviceSelf, null),
                () -> Packing.packFrame(pathDeviceTotal, pathDeviceSelf)) : null;
        CompletableFuture<byte[]> deviceDigests = device ? CompletableFuture.supplyAsync(() -> ByteBuffer.allocate(64)
                .put(sha256(pathDeviceSelf)).put(sha256(pathDeviceTotal)).array()) : null;
        CompletableFuture<byte[]> storageIdColumn = anyStorage
                ? CompletableFuture.supplyAsync(() -> Packing.pack(allocationStorages)) : null;
        return new RunPacks(wordList, ids.strings(), nodePack, edgePack, timelinePack, breakdownPack, pathPack, hashes,
                texts, digests, devicePack, pathDevicePack, deviceDigests, storageIdColumn);
    }

    /**
     * The nodes' device times as device_time_packs holds them: per device (code point order) the
     * self and total time of every node, -1 in both where the node has none on that device.
     */
    private static DevicePack devicePack(List<GraphNode> nodes) {
        TreeMap<String, Integer> index = new TreeMap<>(CodePointOrder.COMPARATOR);
        for (GraphNode node : nodes) {
            for (DeviceTime time : node.deviceTimes()) {
                index.putIfAbsent(time.device(), 0);
            }
        }
        String[] devices = index.keySet().toArray(new String[0]);
        for (int d = 0; d < devices.length; d++) {
            index.put(devices[d], d);
        }
        int n = nodes.size();
        long[][] self = new long[devices.length][n];
        long[][] total = new long[devices.length][n];
        for (int d = 0; d < devices.length; d++) {
            Arrays.fill(self[d], -1);
            Arrays.fill(total[d], -1);
        }
        for (int i = 0; i < n; i++) {
            List<DeviceTime> times = nodes.get(i).deviceTimes();
            for (int t = 0; t < times.size(); t++) {
                DeviceTime time = times.get(t);
                int d = devices.length == 1 ? 0 : index.get(time.device());
                self[d][i] = time.selfTimeNs();
                total[d][i] = time.totalTimeNs();
            }
        }
        List<byte[]> selfs = new ArrayList<>(devices.length);
        List<byte[]> totals = new ArrayList<>(devices.length);
        for (int d = 0; d < devices.length; d++) {
            selfs.add(Packing.pack(self[d]));
            totals.add(Packing.pack(total[d], self[d], false));
        }
        return new DevicePack(n, devices, selfs, totals);
    }

    /** The path ranks in the order of their hashes (signed, as SQL compares them); a run's hashes are distinct. */
    private static long[] byHash(long[] hashes, Ranks rankOf) {
        long[] sorted = hashes.clone();
        Arrays.parallelSort(sorted);
        long[] ranks = new long[sorted.length];
        for (int i = 0; i < sorted.length; i++) {
            ranks[i] = rankOf.get(sorted[i]);
        }
        return ranks;
    }

    /**
     * The SHA-256 of each of the seven path columns as V4 packed them (8-byte big-endian integers;
     * kinds joined by line feeds), 7 x 32 bytes: equal columns of two runs are told by their digests.
     */
    static byte[] digests(long[] hashes, String[] kinds, long[] counts, long[] self, long[] total, long[] bytes,
            long[] peak) {
        ByteBuffer digests = ByteBuffer.allocate(7 * 32);
        digests.put(sha256(hashes)).put(sha256(String.join("\n", kinds).getBytes(StandardCharsets.UTF_8)))
                .put(sha256(counts)).put(sha256(self)).put(sha256(total)).put(sha256(bytes)).put(sha256(peak));
        return digests.array();
    }

    /** The SHA-256 of {@code values} as 8-byte big-endian integers. */
    static byte[] sha256(long[] values) {
        ByteBuffer packed = ByteBuffer.allocate(values.length * 8);
        packed.asLongBuffer().put(values);
        return sha256(packed.array());
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java has SHA-256", e);
        }
    }

    /** A shape's words reference: its text as a PostgreSQL array ({@code {2,128,64}}); -1 for none. */
    private static long shape(Shape shape, Dictionary words, Map<Shape, Integer> refs) {
        if (shape == null) {
            return -1;
        }
        Integer ref = refs.get(shape);
        if (ref == null) {
            ref = (int) words.ref(shapeText(shape));
            refs.put(shape, ref);
        }
        return ref;
    }

    static String shapeText(Shape shape) {
        StringBuilder text = new StringBuilder("{");
        for (int d = 0; d < shape.rank(); d++) {
            text.append(d > 0 ? "," : "").append(shape.dim(d));
        }
        return text.append('}').toString();
    }

    /** The stored name of an enum value (its name in lower case), made once per constant. */
    static String wire(Enum<?> value) {
        String[] names = WIRE.computeIfAbsent(value.getDeclaringClass(), type -> Arrays.stream(type.getEnumConstants())
                .map(v -> ((Enum<?>) v).name().toLowerCase(Locale.ROOT)).toArray(String[]::new));
        return names[value.ordinal()];
    }

    /**
     * Distinct strings in the order first seen, each with its position; null is -1. An open-addressing
     * index of positions (no entry objects, no boxed integers): a big run looks up millions of ids.
     * The last string looked up is remembered, as runs of equal strings are common (an op's span,
     * an edge's origin).
     */
    private static final class Dictionary {
        private String[] strings;
        private int size;
        /** Per slot the string's hash (high half) and position + 1 (low half; 0: empty), to read with one miss. */
        private long[] slots;
        private String last;
        private int lastRef = -1;

        /** Sized for {@code expected} strings (a run's node ids: no rehash on the way). */
        Dictionary(int expected) {
            int capacity = Math.max(1024, expected);
            strings = new String[capacity];
            slots = new long[Integer.highestOneBit(capacity * 3)];
        }

        /** Appends {@code s} whether or not it is there already (the node ids, which are positional). */
        void add(String s) {
            if (find(s) < 0) {
                insert(s, size);
            }
            append(s);
        }

        long ref(String s) {
            if (s == null) {
                return -1;
            }
            if (s == last) {
                return lastRef;
            }
            int ref = find(s);
            if (ref < 0) {
                ref = size;
                insert(s, ref);
                append(s);
            }
            last = s;
            lastRef = ref;
            return ref;
        }

        String[] strings() {
            return Arrays.copyOf(strings, size);
        }

        /** References for one column, which remembers its own last string. */
        Column column() {
            return new Column(this);
        }

        /** The position of {@code s}, or -1; safe from several threads while nothing is added. */
        int find(String s) {
            int h = s.hashCode();
            int mask = slots.length - 1;
            for (int i = spread(h) & mask; slots[i] != 0; i = (i + 1) & mask) {
                long slot = slots[i];
                if ((int) (slot >>> 32) == h) {
                    int ref = (int) slot - 1;
                    String t = strings[ref];
                    if (t == s || t.equals(s)) {
                        return ref;
                    }
                }
            }
            return -1;
        }

        private void insert(String s, int ref) {
            // At most two thirds full.
            if ((size + 1) * 3L > slots.length * 2L) {
                rehash(slots.length * 2);
            }
            place(slots, s.hashCode(), ref);
        }

        private static void place(long[] slots, int h, int ref) {
            int mask = slots.length - 1;
            int i = spread(h) & mask;
            while (slots[i] != 0) {
                i = (i + 1) & mask;
            }
            slots[i] = ((long) h << 32) | (ref + 1L);
        }

        private void append(String s) {
            if (size == strings.length) {
                strings = Arrays.copyOf(strings, size * 2);
            }
            strings[size++] = s;
        }

        private void rehash(int capacity) {
            long[] grown = new long[capacity];
            for (long slot : slots) {
                if (slot != 0) {
                    place(grown, (int) (slot >>> 32), (int) slot - 1);
                }
            }
            slots = grown;
        }

        private static int spread(int h) {
            return (h ^ (h >>> 16)) * 0x9E3779B1;
        }

        /**
         * The strings by how often {@code columns} refer to them, most often first (ties in the order
         * first seen), with every reference in {@code columns} changed to match.
         */
        String[] byFrequency(long[]... columns) {
            int n = size;
            long[] counts = new long[n];
            for (long[] column : columns) {
                for (long ref : column) {
                    if (ref >= 0) {
                        counts[(int) ref]++;
                    }
                }
            }
            Integer[] order = new Integer[n];
            for (int i = 0; i < n; i++) {
                order[i] = i;
            }
            Arrays.sort(order, (a, b) -> counts[a] != counts[b] ? Long.compare(counts[b], counts[a])
                    : Integer.compare(a, b));
            long[] renumbered = new long[n];
            String[] sorted = new String[n];
            for (int i = 0; i < n; i++) {
                renumbered[order[i]] = i;
                sorted[i] = strings[order[i]];
            }
            for (long[] column : columns) {
                for (int i = 0; i < column.length; i++) {
                    if (column[i] >= 0) {
                        column[i] = renumbered[(int) column[i]];
                    }
                }
            }
            return sorted;
        }
    }

    /** References into a dictionary for one column: runs of equal strings in it cost one lookup. */
    private static final class Column {
        private final Dictionary dictionary;
        private String last;
        private long lastRef = -1;

        Column(Dictionary dictionary) {
            this.dictionary = dictionary;
        }

        long ref(String s) {
            if (s == null) {
                return -1;
            }
            // Equal strings are often other instances (an edge's origin is decoded once per edge): a
            // comparison with the last one costs less than a lookup in a table of millions.
            if (s != last && !s.equals(last)) {
                last = s;
                lastRef = dictionary.ref(s);
            }
            return lastRef;
        }
    }

    /** The rank of each path hash (a run's hashes are distinct), without boxing: a big run has a million nodes. */
    private static final class Ranks {
        private final long[] keys;
        private final int[] ranks;
        private final int mask;

        Ranks(long[] hashes) {
            int capacity = Integer.highestOneBit(Math.max(2, hashes.length) * 2) * 2;
            keys = new long[capacity];
            ranks = new int[capacity];
            Arrays.fill(ranks, -1);
            mask = capacity - 1;
            for (int r = 0; r < hashes.length; r++) {
                int i = slot(hashes[r]);
                while (ranks[i] >= 0) {
                    i = (i + 1) & mask;
                }
                keys[i] = hashes[r];
                ranks[i] = r;
            }
        }

        int get(long hash) {
            for (int i = slot(hash); ranks[i] >= 0; i = (i + 1) & mask) {
                if (keys[i] == hash) {
                    return ranks[i];
                }
            }
            throw new IllegalStateException("a node's path is missing from the path statistics");
        }

        private int slot(long hash) {
            return (int) (hash ^ (hash >>> 32)) * 0x9E3779B1 & mask;
        }
    }

    /** Packs columns in parallel (the common pool), each pack's columns in their order. */
    private static final class Packer {
        @SafeVarargs
        final CompletableFuture<Pack> pack(int count, Supplier<byte[]>... columns) {
            return pack(count, List.of(columns));
        }

        CompletableFuture<Pack> pack(int count, List<Supplier<byte[]>> columns) {
            List<CompletableFuture<byte[]>> packed = columns.stream().map(CompletableFuture::supplyAsync).toList();
            return CompletableFuture.allOf(packed.toArray(new CompletableFuture<?>[0]))
                    .thenApply(done -> new Pack(count, packed.stream().map(CompletableFuture::join).toList()));
        }
    }
}
