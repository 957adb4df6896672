package io.tracegraph.cli.report;

import com.fasterxml.jackson.core.JsonGenerator;
import io.tracegraph.domain.graph.DeviceTime;
import io.tracegraph.domain.graph.DeviceTimeSummary;
import io.tracegraph.domain.graph.ExecutionGraph;
import io.tracegraph.domain.graph.GradientRecord;
import io.tracegraph.domain.graph.GraphNode;
import io.tracegraph.domain.graph.GraphNodeKind;
import io.tracegraph.domain.graph.GraphQueries;
import io.tracegraph.domain.graph.SemanticPaths;
import io.tracegraph.domain.graph.TimeBasis;
import io.tracegraph.domain.health.Coverage;
import io.tracegraph.domain.health.HealthIssue;
import io.tracegraph.domain.health.TraceHealth;
import io.tracegraph.domain.memory.LiveAllocation;
import io.tracegraph.domain.memory.MemorySummary;
import io.tracegraph.domain.run.StoredRun;
import io.tracegraph.domain.trace.CodePointOrder;
import io.tracegraph.domain.trace.RunMeta;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * The HTML report of one run: headline facts, a zoomable icicle chart of the span tree (width =
 * total time, colour = node kind), the memory timeline of each device with the peak marked and the
 * peak's breakdown by category and by allocation, sortable tables of the slowest and heaviest spans
 * and ops, the health warnings and the gradient facts; for a run with device time, each device's
 * time and the spans and ops with the most device self time.
 *
 * <p>On device time ({@link TimeBasis#DEVICE}) the icicle chart and the slowest tables are the
 * graph's on device time ({@link ExecutionGraph#onDeviceTime()}: width = device total time, self =
 * device self time); memory and the heaviest tables are the same as on host time.
 */
public final class RunReport {
    /** Spans and ops the icicle chart keeps by default; the rest is merged into boxes that say so. */
    public static final int DEFAULT_MAX_NODES = 5_000;
    /** Points per device the timeline keeps at most. */
    static final int TIMELINE_POINTS = 4_000;
    /** Rows of the span and op tables. */
    static final int TOP = GraphQueries.OP_LIMIT;
    /** Allocations listed from the peak breakdown. */
    static final int BREAKDOWN_ROWS = 25;

    private static final Comparator<GraphNode> BY_ID = Comparator.comparing(GraphNode::id, CodePointOrder.COMPARATOR);

    private RunReport() {
    }

    /**
     * Writes the page.
     *
     * @param label names the run: its trace file or run_id
     * @param stored the stored run's metadata, or {@code null} for a trace file
     * @param maxNodes the most spans and ops the icicle chart keeps
     */
    public static void write(String label, ExecutionGraph graph, TraceHealth health, StoredRun stored, int maxNodes,
            OutputStream out) throws IOException {
        write(label, graph, health, stored, maxNodes, TimeBasis.HOST, out);
    }

    /** {@link #write(String, ExecutionGraph, TraceHealth, StoredRun, int, OutputStream)} on {@code time}. */
    public static void write(String label, ExecutionGraph graph, TraceHealth health, StoredRun stored, int maxNodes,
            TimeBasis time, OutputStream out) throws IOException {
        SemanticPaths paths = SemanticPaths.of(graph.spans());
        ExecutionGraph timed = time == TimeBasis.DEVICE ? graph.onDeviceTime() : graph;
        DeviceTimeSummary device = DeviceTimeSummary.of(graph.spans());
        HtmlPage.write(out, g -> {
            g.writeStartObject();
            g.writeStringField("type", "run");
            g.writeStringField("time", time.wire());
            g.writeStringField("title", label);
            facts(label, graph, health, stored, device, time).write(g, "facts");
            g.writeFieldName("flame");
            flame(g, timed.spans(), maxNodes);
            g.writeFieldName("memory");
            memory(g, graph);
            PageTable.writeAll(g, "tables", tables(graph, timed, paths, time));
            if (!device.isEmpty()) {
                g.writeObjectFieldStart("device");
                PageTable.writeAll(g, "tables", deviceTables(graph, device, paths, time));
                g.writeEndObject();
            }
            g.writeFieldName("health");
            health(g, health);
            g.writeEndObject();
        });
    }

    private static PageFacts facts(String label, ExecutionGraph graph, TraceHealth health, StoredRun stored,
            DeviceTimeSummary device, TimeBasis time) {
        PageFacts facts = new PageFacts();
        MemorySummary memory = graph.summary().memory();
        long ops = graph.spans().stream().filter(n -> n.device() != null).count();
        if (stored != null) {
            RunMeta m = stored.meta();
            facts.add("run", m.runId(), "text")
                    .add("entrypoint", m.entrypoint(), "text")
                    .add("phase", m.phase().name().toLowerCase(Locale.ROOT), "text")
                    .add("captured", m.timestamp(), "text")
                    .add("device", m.device(), "text")
                    .add("timing", m.timingMode().name().toLowerCase(Locale.ROOT), "text")
                    .add("capture step", m.captureStep(), "count")
                    .add("tags", m.tags().isEmpty() ? null : tags(m.tags()), "text")
                    .add("imported from", stored.sourceName(), "text");
        } else {
            facts.add("trace", label, "text").add("entrypoint", graph.summary().entrypoint(), "text");
        }
        facts.add("time", time == TimeBasis.DEVICE ? "device (the chart and the slowest tables)" : null, "text")
                .add("measured total", graph.summary().totalMs(), "ms")
                .add("device time", device.isEmpty() ? null : device.totalTimeNs() / 1e6, "ms")
                .add("memory peak", memory.peakBytes(), "bytes")
                .add("peak device", memory.peakDevice().isEmpty() ? null : memory.peakDevice(), "text")
                .add("spans", (long) graph.spans().size() - ops, "count")
                .add("ops", ops, "count")
                .add("edges", (long) graph.edges().size(), "count")
                .add("health warnings", (long) health.issues().size(), "count");
        return facts;
    }

    private static String tags(Map<String, String> tags) {
        StringBuilder text = new StringBuilder();
        tags.forEach((k, v) -> text.append(text.length() == 0 ? "" : ", ").append(k).append('=').append(v));
        return text.toString();
    }

    /**
     * The icicle chart's boxes as columns: {@code names} (a dictionary), {@code name} (index into
     * it), {@code kind}, {@code parent}, {@code total}, {@code self}, {@code bytes}, {@code peak},
     * {@code count} (nodes a box stands for), {@code id}; plus a note when boxes were merged.
     */
    static void flame(JsonGenerator g, List<GraphNode> nodes, int maxNodes) throws IOException {
        int n = nodes.size();
        Map<String, Integer> index = new HashMap<>(n * 2);
        for (int i = 0; i < n; i++) {
            index.putIfAbsent(nodes.get(i).id(), i);
        }
        int[] parents = new int[n];
        long[] total = new long[n];
        long[] self = new long[n];
        long[] bytes = new long[n];
        long[] start = new long[n];
        for (int i = 0; i < n; i++) {
            GraphNode node = nodes.get(i);
            Integer p = node.parentId() == null ? null : index.get(node.parentId());
            parents[i] = p == null || p == i ? -1 : p;
            total[i] = node.totalTimeNs();
            self[i] = node.selfTimeNs();
            bytes[i] = node.bytes();
            start[i] = node.startNs();
        }
        FlameTree tree = FlameTree.of(parents, total, start, maxNodes);
        long[] subtreeSelf = FlameTree.subtreeSums(parents, self);
        long[] subtreeBytes = FlameTree.subtreeSums(parents, bytes);
        Names names = new Names();
        int size = tree.size();
        int[] name = new int[size];
        String[] kind = new String[size];
        long[] boxTotal = new long[size];
        long[] boxSelf = new long[size];
        long[] boxBytes = new long[size];
        long[] boxPeak = new long[size];
        String[] id = new String[size];
        for (int e = 0; e < size; e++) {
            int source = tree.source(e);
            if (source >= 0) {
                GraphNode node = nodes.get(source);
                name[e] = names.of(node.name());
                kind[e] = node.device() != null ? "op" : node.kind().name().toLowerCase(Locale.ROOT);
                boxTotal[e] = node.totalTimeNs();
                boxSelf[e] = node.selfTimeNs();
                boxBytes[e] = node.bytes();
                boxPeak[e] = node.peakBytes();
                id[e] = node.id();
            } else {
                boolean merged = source == FlameTree.MERGED;
                int[] members = merged ? tree.members(e) : FlameTree.roots(parents);
                name[e] = names.of(merged ? "" : "(all roots)");
                kind[e] = merged ? "merged" : "root";
                for (int c : members) {
                    boxTotal[e] = sat(boxTotal[e] + total[c]);
                    boxSelf[e] = sat(boxSelf[e] + subtreeSelf[c]);
                    boxBytes[e] = sat(boxBytes[e] + subtreeBytes[c]);
                    boxPeak[e] = Math.max(boxPeak[e], nodes.get(c).peakBytes());
                }
                id[e] = "";
            }
        }
        g.writeStartObject();
        names.write(g);
        ints(g, "name", name);
        g.writeArrayFieldStart("kind");
        for (String k : kind) {
            g.writeString(k);
        }
        g.writeEndArray();
        int[] parent = new int[size];
        long[] count = new long[size];
        for (int e = 0; e < size; e++) {
            parent[e] = tree.parent(e);
            count[e] = tree.nodes(e);
        }
        ints(g, "parent", parent);
        longs(g, "total", boxTotal);
        longs(g, "self", boxSelf);
        longs(g, "bytes", boxBytes);
        longs(g, "peak", boxPeak);
        longs(g, "count", count);
        g.writeArrayFieldStart("id");
        for (String s : id) {
            g.writeString(s);
        }
        g.writeEndArray();
        g.writeNumberField("nodes", n);
        g.writeStringField("note", pruneNote(tree, "spans and ops"));
        g.writeEndObject();
    }

    /** Says what was merged, or {@code null} when every node has its box. */
    static String pruneNote(FlameTree tree, String what) {
        if (tree.mergedBoxes() == 0) {
            return null;
        }
        return String.format(Locale.ROOT, "%,d of %,d %s are merged into %,d grey \"more\" boxes (the children of "
                + "a span left out to keep this page small, each under %s); the widest %,d are shown. "
                + "Give --max-nodes to show more.", tree.mergedNodes(), tree.totalNodes(), what, tree.mergedBoxes(),
                duration(tree.widestMerged()), tree.size() - tree.mergedBoxes());
    }

    static String duration(long ns) {
        if (ns < 1_000) {
            return ns + " ns";
        }
        if (ns < 1_000_000) {
            return String.format(Locale.ROOT, "%.3g µs", ns / 1e3);
        }
        if (ns < 1_000_000_000) {
            return String.format(Locale.ROOT, "%.3g ms", ns / 1e6);
        }
        return String.format(Locale.ROOT, "%.3g s", ns / 1e9);
    }

    private static void memory(JsonGenerator g, ExecutionGraph graph) throws IOException {
        MemorySummary summary = graph.summary().memory();
        long origin = MemorySeries.origin(graph.memory().timeline());
        List<MemorySeries> devices = MemorySeries.of(graph.memory().timeline(), TIMELINE_POINTS);
        g.writeStartObject();
        g.writeArrayFieldStart("devices");
        for (MemorySeries s : devices) {
            s.write(g, origin);
        }
        g.writeEndArray();
        List<String> reduced = new ArrayList<>();
        for (MemorySeries s : devices) {
            if (s.reduced()) {
                reduced.add(String.format(Locale.ROOT, "%s: %,d memory records drawn as %,d points", s.device(),
                        s.records(), s.kept().length));
            }
        }
        if (!reduced.isEmpty()) {
            g.writeStringField("note", String.join("; ", reduced) + " (of each run of consecutive records, the "
                    + "first, lowest, highest and last are kept, so spikes and the peak stay visible).");
        }
        g.writeObjectFieldStart("peak");
        g.writeNumberField("bytes", summary.peakBytes());
        g.writeStringField("device", summary.peakDevice());
        g.writeNumberField("t", summary.peakTimestampNs() - origin);
        g.writeEndObject();
        PageTable.Builder byCategory = PageTable.named("peak-by-category", "At the peak, by category",
                "category", "text", "bytes", "bytes", "share", "share");
        summary.peakByCategory().asMap().forEach((c, b) -> byCategory.row(c.name().toLowerCase(Locale.ROOT), b,
                summary.peakBytes() == 0 ? null : 100.0 * b / summary.peakBytes()));
        PageTable.Builder breakdown = PageTable.named("peak-breakdown", "Largest allocations live at the peak",
                "tensor", "text", "span", "text", "op", "text", "bytes", "bytes", "shape", "text", "dtype", "text",
                "device", "text", "category", "text");
        List<LiveAllocation> live = graph.memory().peakBreakdown();
        for (LiveAllocation a : live.subList(0, Math.min(BREAKDOWN_ROWS, live.size()))) {
            breakdown.row(a.tensorId(), a.spanId(), a.opName(), a.bytes(), a.shape() == null ? null : a.shape().toString(),
                    a.dtype(), a.device(), a.category().name().toLowerCase(Locale.ROOT));
        }
        if (live.size() > BREAKDOWN_ROWS) {
            breakdown.note(String.format(Locale.ROOT, "the %d largest of %,d allocations", BREAKDOWN_ROWS,
                    live.size()));
        }
        PageTable.writeAll(g, "tables", List.of(byCategory.build(), breakdown.build()));
        g.writeEndObject();
    }

    /**
     * The slowest tables of {@code timed} (the graph on the time asked for), the heaviest of
     * {@code graph}, and the gradients. Paths are the graph's (a node of {@code timed} is found by id).
     */
    private static List<PageTable> tables(ExecutionGraph graph, ExecutionGraph timed, SemanticPaths paths,
            TimeBasis time) {
        List<GraphNode> nodes = graph.spans();
        Map<GraphNode, Integer> position = new IdentityHashMap<>();
        List<GraphNode> spans = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            position.put(nodes.get(i), i);
            if (nodes.get(i).kind() != GraphNodeKind.OP) {
                spans.add(nodes.get(i));
            }
        }
        Map<GraphNode, Integer> timedPosition = timed == graph ? position : positionsById(graph, timed);
        boolean onDevice = time == TimeBasis.DEVICE;
        // On device time, spans and ops without device self time are not slow there: left out.
        List<GraphNode> timedSpans = timed == graph ? spans
                : timed.spans().stream().filter(n -> n.kind() != GraphNodeKind.OP && (!onDevice || n.selfTimeNs() > 0))
                        .toList();
        String by = time == TimeBasis.DEVICE ? "by device self time" : "by self time";
        String title = time == TimeBasis.DEVICE ? "Slowest spans on the device" : "Slowest spans";
        List<PageTable> tables = new ArrayList<>();
        tables.add(nodeTable("slowest-spans", title, by + "; spans of kind op are listed with ops",
                top(timedSpans, GraphNode::selfTimeNs), paths, timedPosition, time));
        tables.add(nodeTable("slowest-ops", time == TimeBasis.DEVICE ? "Slowest ops on the device" : "Slowest ops",
                by, onDevice ? GraphQueries.slowestOpsOnDevice(timed) : GraphQueries.slowestOps(timed), paths,
                timedPosition, time));
        tables.add(nodeTable("heaviest-spans", "Heaviest spans", "by bytes written by their own ops",
                top(spans, GraphNode::bytes), paths, position, TimeBasis.HOST));
        tables.add(nodeTable("heaviest-ops", "Heaviest ops", "by bytes", GraphQueries.heaviestOps(graph), paths,
                position, TimeBasis.HOST));
        PageTable.Builder gradients = PageTable.named("gradients", "Gradients", "root", "text", "key", "text",
                "state", "text", "norm", "number");
        long failing = 0;
        for (GradientRecord r : graph.gradients()) {
            gradients.row(r.root(), r.key(), r.state().name().toLowerCase(Locale.ROOT), r.norm());
            failing += r.state().name().equals("PRESENT") ? 0 : 1;
        }
        gradients.note(graph.gradients().isEmpty() ? "the trace records no gradient facts"
                : String.format(Locale.ROOT, "%,d of %,d gradients are missing, zero or non-finite", failing,
                        graph.gradients().size()));
        tables.add(gradients.build());
        return tables;
    }

    private static List<GraphNode> top(List<GraphNode> spans, ToLongFunction<GraphNode> metric) {
        return spans.stream().sorted(Comparator.comparingLong(metric).reversed().thenComparing(BY_ID)).limit(TOP)
                .toList();
    }

    /** The positions in {@code graph} of the nodes of {@code timed} (a view of it), found by id. */
    private static Map<GraphNode, Integer> positionsById(ExecutionGraph graph, ExecutionGraph timed) {
        Map<String, Integer> byId = new HashMap<>(graph.spans().size() * 2);
        for (int i = 0; i < graph.spans().size(); i++) {
            byId.putIfAbsent(graph.spans().get(i).id(), i);
        }
        Map<GraphNode, Integer> position = new IdentityHashMap<>();
        for (GraphNode n : timed.spans()) {
            Integer i = byId.get(n.id());
            if (i != null) {
                position.put(n, i);
            }
        }
        return position;
    }

    /**
     * The device time section: each device's time, and (on host time: on device time the slowest
     * tables rank it already) the spans and ops with the most device self time, one row per node and
     * device.
     */
    private static List<PageTable> deviceTables(ExecutionGraph graph, DeviceTimeSummary device, SemanticPaths paths,
            TimeBasis time) {
        PageTable.Builder devices = PageTable.named("device-time", "Device time by device", "device", "text",
                "device time", "ns", "of the root itself", "ns");
        for (DeviceTime t : device.devices()) {
            devices.row(t.device(), t.totalTimeNs(), t.selfTimeNs());
        }
        devices.note("kernels, memcpys and memsets, each counted at the node that launched it");
        List<PageTable> tables = new ArrayList<>(List.of(devices.build()));
        if (time == TimeBasis.HOST) {
            ExecutionGraph onDevice = graph.onDeviceTime();
            tables.add(nodeTable("slowest-device", "Slowest spans and ops on the device", "by device self time (summed "
                    + "over devices); --time device draws the chart by it", slowestByDevice(onDevice), paths,
                    positionsById(graph, onDevice), TimeBasis.DEVICE));
        }
        return tables;
    }

    private static List<GraphNode> slowestByDevice(ExecutionGraph onDevice) {
        return onDevice.spans().stream().filter(n -> n.selfTimeNs() > 0)
                .sorted(Comparator.comparingLong(GraphNode::selfTimeNs).reversed().thenComparing(BY_ID)).limit(TOP)
                .toList();
    }

    private static PageTable nodeTable(String id, String title, String order, List<GraphNode> nodes,
            SemanticPaths paths, Map<GraphNode, Integer> position, TimeBasis time) {
        boolean device = time == TimeBasis.DEVICE;
        PageTable.Builder t = PageTable.named(id, title, "name", "text", "kind", "text",
                device ? "device self time" : "self time", "ns", device ? "device total time" : "total time", "ns",
                "bytes", "bytes", "peak", "bytes", "path", "text", "id", "text");
        for (GraphNode n : nodes) {
            Integer i = position.get(n);
            t.row(n.name(), n.kind().name().toLowerCase(Locale.ROOT), n.selfTimeNs(), n.totalTimeNs(), n.bytes(),
                    n.peakBytes(), i == null ? null : paths.path(i), n.id());
        }
        return t.note(String.format(Locale.ROOT, "top %d %s", TOP, order)).build();
    }

    private static void health(JsonGenerator g, TraceHealth health) throws IOException {
        g.writeStartObject();
        g.writeBooleanField("trusted", health.trusted());
        PageTable.Builder issues = PageTable.named("health-issues", "Health warnings", "severity", "text", "code",
                "text", "message", "text");
        for (HealthIssue issue : health.issues()) {
            issues.row(issue.severity().name().toLowerCase(Locale.ROOT), issue.code(), issue.message());
        }
        Coverage c = health.coverage();
        PageTable.Builder coverage = PageTable.named("coverage", "What the trace captured", "record", "text",
                "count", "count");
        coverage.row("spans", c.spans()).row("closed spans", c.closedSpans()).row("root spans", c.rootSpans())
                .row("measured spans", c.measuredSpans()).row("operations", c.operations())
                .row("tensors", c.tensors()).row("memory events", c.memoryEvents())
                .row("device memory samples", c.deviceMemorySamples()).row("gradients", c.gradients())
                .row("edges", c.edges()).row("forward spans", c.forwardSpans())
                .row("backward spans", c.backwardSpans()).row("optimizer spans", c.optimizerSpans());
        PageTable.writeAll(g, "tables", List.of(issues.build(), coverage.build()));
        g.writeEndObject();
    }

    static long sat(long sum) {
        return sum < 0 ? Long.MAX_VALUE : sum;
    }

    static void ints(JsonGenerator g, String field, int[] values) throws IOException {
        g.writeFieldName(field);
        g.writeArray(values, 0, values.length);
    }

    static void longs(JsonGenerator g, String field, long[] values) throws IOException {
        g.writeFieldName(field);
        g.writeArray(values, 0, values.length);
    }

    /** Names written once each; boxes refer to them by index. */
    static final class Names {
        private final Map<String, Integer> index = new HashMap<>();
        private final List<String> names = new ArrayList<>();

        int of(String name) {
            return index.computeIfAbsent(name, k -> {
                names.add(k);
                return names.size() - 1;
            });
        }

        void write(JsonGenerator g) throws IOException {
            g.writeArrayFieldStart("names");
            for (String s : names) {
                g.writeString(s);
            }
            g.writeEndArray();
        }
    }
}
