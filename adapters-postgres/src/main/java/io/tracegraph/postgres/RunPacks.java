package io.tracegraph.postgres;

import io.tracegraph.domain.compare.PathStats;
import io.tracegraph.domain.graph.ExecutionGraph;
import io.tracegraph.domain.graph.GraphEdge;
import io.tracegraph.domain.graph.GraphNode;
import io.tracegraph.domain.graph.SemanticPaths;
import io.tracegraph.domain.memory.CategoryBytes;
import io.tracegraph.domain.memory.LiveAllocation;
import io.tracegraph.domain.memory.TimelinePoint;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

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
    final Pack nodes;
    final Pack edges;
    final Pack timeline;
    final Pack breakdown;
    final Pack paths;
    final long[] pathHashes;
    final String[] pathTexts;
    final byte[] pathDigests;

    /** One pack table's row: the count and the packed columns, in the table's column order. */
    record Pack(int count, List<byte[]> columns) {
    }

    private RunPacks(String[] words, String[] ids, Pack nodes, Pack edges, Pack timeline, Pack breakdown,
            Pack paths, long[] pathHashes, String[] pathTexts, byte[] pathDigests) {
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
    }

    /** The packs of {@code graph}, whose semantic paths are {@code paths} and path statistics {@code stats}. */
    static RunPacks of(ExecutionGraph graph, SemanticPaths paths, List<PathStats> stats) {
        Dictionary words = new Dictionary();
        List<GraphNode> nodes = graph.spans();
        int n = nodes.size();
        Dictionary ids = new Dictionary();
        for (GraphNode node : nodes) {
            ids.add(node.id());
        }

        // The paths: rank by hash, and each path's depth (that of its first node).
        int p = stats.size();
        Map<Long, Integer> rankOf = new HashMap<>(p * 2);
        long[] hashes = new long[p];
        for (int i = 0; i < p; i++) {
            hashes[i] = stats.get(i).pathHash();
            rankOf.put(hashes[i], i);
        }
        long[] depths = new long[p];
        Arrays.fill(depths, -1);

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
        for (int i = 0; i < n; i++) {
            GraphNode node = nodes.get(i);
            parents[i] = ids.ref(node.parentId());
            names[i] = words.ref(node.name());
            kinds[i] = words.ref(wire(node.kind()));
            int rank = rankOf.get(paths.hash(i));
            pathRefs[i] = rank;
            if (depths[rank] < 0) {
                depths[rank] = paths.depth(i);
            }
            starts[i] = node.startNs();
            selfs[i] = node.selfTimeNs();
            totals[i] = node.totalTimeNs();
            shapes[i] = shape(node.shape(), words, shapeRefs);
            dtypes[i] = words.ref(node.dtype());
            devices[i] = words.ref(node.device());
            bytes[i] = node.bytes();
            peaks[i] = node.peakBytes();
            residuals[i] = node.residualBytes();
            storages[i] = node.storageBytes() == null ? -1 : node.storageBytes();
        }

        List<GraphEdge> edgeList = graph.edges();
        int m = edgeList.size();
        long[] froms = new long[m];
        long[] tos = new long[m];
        long[] edgeKinds = new long[m];
        long[] durations = new long[m];
        long[] labels = new long[m];
        // Edges come sorted by their origin, most sharing it with the edge before: the origins get
        // their references first, so that those of the ids that are not nodes' rise with the edges.
        String lastFrom = null;
        long lastFromRef = -1;
        for (int i = 0; i < m; i++) {
            GraphEdge e = edgeList.get(i);
            if (e.from() != lastFrom) {
                lastFrom = e.from();
                lastFromRef = ids.ref(lastFrom);
            }
            froms[i] = lastFromRef;
        }
        for (int i = 0; i < m; i++) {
            GraphEdge e = edgeList.get(i);
            tos[i] = ids.ref(e.to());
            edgeKinds[i] = words.ref(wire(e.kind()));
            durations[i] = e.durationNs();
            labels[i] = words.ref(e.label());
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
        for (int i = 0; i < t; i++) {
            TimelinePoint point = points.get(i);
            timestamps[i] = point.timestampNs();
            pointDevices[i] = words.ref(point.device());
            live[i] = point.liveBytes();
            heap[i] = point.heapBytes();
            free[i] = point.freeBytes();
            CategoryBytes c = point.byCategory();
            for (int k = 0; k < order.length; k++) {
                categories[k][i] = c.has(order[k]) ? c.get(order[k]) : -1;
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
        }

        long[] pathKinds = new long[p];
        long[] counts = new long[p];
        long[] pathSelf = new long[p];
        long[] pathTotal = new long[p];
        long[] pathBytes = new long[p];
        long[] pathPeak = new long[p];
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
        var pathPack = packer.pack(p, () -> Packing.pack(pathKinds), () -> Packing.pack(counts),
                () -> Packing.pack(pathSelf), () -> Packing.pack(pathTotal, pathSelf, false),
                () -> Packing.pack(pathBytes), () -> Packing.pack(pathPeak, pathBytes, false),
                () -> Packing.pack(depths), () -> Packing.pack(byHash));
        CompletableFuture<byte[]> digests = CompletableFuture.supplyAsync(() -> digests(hashes, kindTexts, counts,
                pathSelf, pathTotal, pathBytes, pathPeak));
        return new RunPacks(wordList, ids.strings(), nodePack.join(), edgePack.join(), timelinePack.join(),
                breakdownPack.join(), pathPack.join(), hashes, texts, digests.join());
    }

    /** The path ranks in the order of their hashes (signed, as SQL compares them); a run's hashes are distinct. */
    private static long[] byHash(long[] hashes, Map<Long, Integer> rankOf) {
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

    /** Distinct strings in the order first seen, each with its position; null is -1. */
    private static final class Dictionary {
        private final Map<String, Integer> refs = new HashMap<>();
        private final List<String> strings = new ArrayList<>();

        /** Appends {@code s} whether or not it is there already (the node ids, which are positional). */
        void add(String s) {
            refs.putIfAbsent(s, strings.size());
            strings.add(s);
        }

        long ref(String s) {
            if (s == null) {
                return -1;
            }
            Integer ref = refs.get(s);
            if (ref == null) {
                ref = strings.size();
                refs.put(s, ref);
                strings.add(s);
            }
            return ref;
        }

        String[] strings() {
            return strings.toArray(new String[0]);
        }

        /**
         * The strings by how often {@code columns} refer to them, most often first (ties in the order
         * first seen), with every reference in {@code columns} changed to match.
         */
        String[] byFrequency(long[]... columns) {
            int n = strings.size();
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
                sorted[i] = strings.get(order[i]);
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
