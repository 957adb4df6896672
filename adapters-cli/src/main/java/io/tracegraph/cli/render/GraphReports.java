package io.tracegraph.cli.render;

import io.tracegraph.application.QueryKind;
import io.tracegraph.domain.graph.DeviceTime;
import io.tracegraph.domain.graph.DeviceTimeSummary;
import io.tracegraph.domain.graph.ExecutionGraph;
import io.tracegraph.domain.graph.GradientRecord;
import io.tracegraph.domain.graph.GraphEdge;
import io.tracegraph.domain.graph.GraphNode;
import io.tracegraph.domain.graph.GraphQueries;
import io.tracegraph.domain.graph.HeavySpan;
import io.tracegraph.domain.graph.SlowSpan;
import io.tracegraph.domain.graph.TensorRecord;
import io.tracegraph.domain.graph.TimeBasis;
import io.tracegraph.domain.health.Coverage;
import io.tracegraph.domain.health.HealthIssue;
import io.tracegraph.domain.health.TraceHealth;
import io.tracegraph.domain.memory.CategoryBytes;
import io.tracegraph.domain.memory.DeviceMemory;
import io.tracegraph.domain.memory.LiveAllocation;
import io.tracegraph.domain.memory.MemoryProfile;
import io.tracegraph.domain.memory.MemorySummary;
import io.tracegraph.domain.memory.TimelinePoint;
import io.tracegraph.domain.trace.MemoryCategory;
import io.tracegraph.domain.trace.Shape;
import io.tracegraph.domain.trace.TensorStats;
import io.tracegraph.json.GraphJsonWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The query kinds of the original (spec 6) as reports over one execution graph. */
public final class GraphReports {
    private GraphReports() {
    }

    /** The report of one kind over a trusted graph and the health of the trace it was built from. */
    public static Report report(QueryKind kind, ExecutionGraph graph, TraceHealth health) {
        return report(kind, graph, health, TimeBasis.HOST);
    }

    /**
     * The report of one kind, asked on {@code time}: on device time ({@code slowest} only) the total
     * is the device time of the run, spans and ops are ranked by their device self time (summed over
     * devices), and a table gives each device's time.
     */
    public static Report report(QueryKind kind, ExecutionGraph graph, TraceHealth health, TimeBasis time) {
        if (time == TimeBasis.DEVICE) {
            if (kind != QueryKind.SLOWEST) {
                throw new IllegalArgumentException("device time answers slowest only: " + kind);
            }
            return slowestOnDevice(graph);
        }
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("schema", "candle-graph/trace-query/1");
        // As the command line spells it: tensor-stats.
        facts.put("kind", GraphJsonWriter.wire(kind).replace('_', '-'));
        facts.put("entrypoint", graph.summary().entrypoint());
        List<Table> tables = new ArrayList<>();
        switch (kind) {
            case SLOWEST:
                facts.put("total_ms", graph.summary().totalMs());
                tables.add(slowSpans(graph.summary().slowestSpans()));
                tables.add(ops("slowest_ops", GraphQueries.slowestOps(graph)));
                break;
            case HEAVIEST:
                facts.put("peak_bytes", graph.summary().memory().peakBytes());
                tables.add(heavySpans(graph.summary().heaviestSpans()));
                tables.add(ops("heaviest_ops", GraphQueries.heaviestOps(graph)));
                break;
            case MEMORY:
                memory(facts, tables, graph.memory());
                break;
            case EFFICIENCY:
                facts.put("note", GraphQueries.EFFICIENCY_NOTE);
                tables.add(efficiency(GraphQueries.efficientOps(graph)));
                break;
            case SPANS:
                tables.add(ops("spans", graph.spans()));
                tables.add(edges(graph.edges()));
                break;
            case EDGES:
                tables.add(edges(graph.edges()));
                break;
            case TENSORS:
                tables.add(tensors(graph.tensors()));
                break;
            case GRADIENTS:
                tables.add(gradients(graph.gradients()));
                break;
            case HEALTH:
                health(facts, tables, health);
                break;
            case TENSOR_STATS:
                tables.add(tensorStats(graph.tensorStats()));
                break;
            default:
                throw new IllegalArgumentException("unknown kind " + kind);
        }
        return new Report(facts, tables);
    }

    private static Report slowestOnDevice(ExecutionGraph graph) {
        ExecutionGraph device = graph.onDeviceTime();
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("schema", "candle-graph/trace-query/1");
        facts.put("kind", GraphJsonWriter.wire(QueryKind.SLOWEST));
        facts.put("time", TimeBasis.DEVICE.wire());
        facts.put("entrypoint", graph.summary().entrypoint());
        facts.put("total_ms", device.summary().totalMs());
        // Each device's time: its intervals' summed duration (the roots' device totals there).
        Table.Builder devices = Table.named("devices", "device", "device_time_ns");
        for (DeviceTime t : DeviceTimeSummary.of(graph.spans()).devices()) {
            devices.row(t.device(), t.totalTimeNs());
        }
        return new Report(facts, List.of(slowSpans(device.summary().slowestSpans()),
                ops("slowest_ops", GraphQueries.slowestOpsOnDevice(device)), devices.build()));
    }

    private static Table slowSpans(List<SlowSpan> spans) {
        Table.Builder t = Table.named("slowest_spans", "id", "name", "self_time_ns");
        spans.forEach(s -> t.row(s.id(), s.name(), s.selfTimeNs()));
        return t.build();
    }

    private static Table heavySpans(List<HeavySpan> spans) {
        Table.Builder t = Table.named("heaviest_spans", "id", "name", "bytes", "peak_bytes");
        spans.forEach(s -> t.row(s.id(), s.name(), s.bytes(), s.peakBytes()));
        return t.build();
    }

    private static Table ops(String name, List<GraphNode> nodes) {
        Table.Builder t = Table.named(name, "id", "parent_id", "name", "kind", "start_ns", "self_time_ns",
                "total_time_ns", "shape", "dtype", "device", "bytes", "peak_bytes", "residual_bytes",
                "storage_bytes");
        for (GraphNode n : nodes) {
            t.row(n.id(), n.parentId(), n.name(), GraphJsonWriter.wire(n.kind()), n.startNs(), n.selfTimeNs(),
                    n.totalTimeNs(), shape(n.shape()), n.dtype(), n.device(), n.bytes(), n.peakBytes(),
                    n.residualBytes(), n.storageBytes());
        }
        return t.build();
    }

    private static Table efficiency(List<GraphNode> nodes) {
        Table.Builder t = Table.named("ops", "id", "name", "self_time_ns", "bytes", "bytes_per_ns");
        nodes.forEach(n -> t.row(n.id(), n.name(), n.selfTimeNs(), n.bytes(), GraphQueries.bytesPerNs(n)));
        return t.build();
    }

    private static Table edges(List<GraphEdge> edges) {
        Table.Builder t = Table.named("edges", "from", "to", "kind", "duration_ns", "label");
        edges.forEach(e -> t.row(e.from(), e.to(), GraphJsonWriter.wire(e.kind()), e.durationNs(), e.label()));
        return t.build();
    }

    private static Table tensors(List<TensorRecord> tensors) {
        Table.Builder t = Table.named("tensors", "span_id", "tensor_id", "shape", "dtype", "device",
                "requires_grad", "storage_bytes", "category");
        tensors.forEach(r -> t.row(r.spanId(), r.tensorId(), shape(r.shape()), r.dtype(), r.device(),
                r.requiresGrad(), r.storageBytes(), GraphJsonWriter.wire(r.category())));
        return t.build();
    }

    private static Table tensorStats(List<TensorStats> stats) {
        Table.Builder t = Table.named("tensor_stats", "span_id", "label", "shape", "dtype", "elements", "non_finite",
                "rms", "abs_max", "mean");
        stats.forEach(r -> t.row(r.spanId(), r.label(), shape(r.shape()), r.dtype(), r.elements(), r.nonFinite(),
                r.rms(), r.absMax(), r.mean()));
        return t.build();
    }

    private static Table gradients(List<GradientRecord> gradients) {
        Table.Builder t = Table.named("gradients", "root", "key", "state", "norm");
        gradients.forEach(g -> t.row(g.root(), g.key(), GraphJsonWriter.wire(g.state()), g.norm()));
        return t.build();
    }

    private static void health(Map<String, Object> facts, List<Table> tables, TraceHealth health) {
        Coverage c = health.coverage();
        facts.put("trusted", health.trusted());
        facts.put("spans", c.spans());
        facts.put("closed_spans", c.closedSpans());
        facts.put("root_spans", c.rootSpans());
        facts.put("measured_spans", c.measuredSpans());
        facts.put("operations", c.operations());
        facts.put("tensors", c.tensors());
        facts.put("memory_events", c.memoryEvents());
        facts.put("device_memory_samples", c.deviceMemorySamples());
        facts.put("gradients", c.gradients());
        facts.put("edges", c.edges());
        facts.put("forward_spans", c.forwardSpans());
        facts.put("backward_spans", c.backwardSpans());
        facts.put("optimizer_spans", c.optimizerSpans());
        Table.Builder issues = Table.named("issues", "severity", "code", "message");
        for (HealthIssue issue : health.issues()) {
            issues.row(GraphJsonWriter.wire(issue.severity()), issue.code(), issue.message());
        }
        tables.add(issues.build());
    }

    private static void memory(Map<String, Object> facts, List<Table> tables, MemoryProfile memory) {
        MemorySummary s = memory.summary();
        facts.put("alloc_count", s.allocCount());
        facts.put("free_count", s.freeCount());
        facts.put("total_alloc_bytes", s.totalAllocBytes());
        facts.put("peak_bytes", s.peakBytes());
        facts.put("peak_timestamp_ns", s.peakTimestampNs());
        facts.put("peak_device", s.peakDevice());
        facts.put("autograd_retained_bytes", s.autogradRetainedBytes());
        Table.Builder byCategory = Table.named("peak_by_category", "category", "bytes");
        s.peakByCategory().asMap().forEach((c, b) -> byCategory.row(GraphJsonWriter.wire(c), b));
        tables.add(byCategory.build());
        Table.Builder breakdown = Table.named("peak_breakdown", "tensor_id", "span_id", "op_name", "bytes", "shape",
                "dtype", "device", "category");
        for (LiveAllocation a : memory.peakBreakdown()) {
            breakdown.row(a.tensorId(), a.spanId(), a.opName(), a.bytes(), shape(a.shape()), a.dtype(), a.device(),
                    GraphJsonWriter.wire(a.category()));
        }
        tables.add(breakdown.build());
        Table.Builder devices = Table.named("by_device", "device", "capacity_bytes", "peak_bytes",
                "peak_timestamp_ns", "alloc_count", "free_count");
        for (DeviceMemory d : memory.byDevice()) {
            devices.row(d.device(), d.capacityBytes(), d.peakBytes(), d.peakTimestampNs(), d.allocCount(),
                    d.freeCount());
        }
        tables.add(devices.build());
        List<String> columns = new ArrayList<>(List.of("timestamp_ns", "device", "live_bytes", "heap_bytes",
                "free_bytes"));
        for (MemoryCategory c : MemoryCategory.ordered()) {
            columns.add(GraphJsonWriter.wire(c));
        }
        Table.Builder timeline = Table.named("timeline", columns.toArray(new String[0]));
        for (TimelinePoint p : memory.timeline()) {
            List<Object> row = new ArrayList<>(List.of(p.timestampNs(), p.device(), p.liveBytes(), p.heapBytes(),
                    p.freeBytes()));
            CategoryBytes cats = p.byCategory();
            for (MemoryCategory c : MemoryCategory.ordered()) {
                row.add(cats.has(c) ? cats.get(c) : null);
            }
            timeline.row(row.toArray());
        }
        tables.add(timeline.build());
    }

    private static List<Long> shape(Shape shape) {
        if (shape == null) {
            return null;
        }
        List<Long> dims = new ArrayList<>(shape.rank());
        for (int i = 0; i < shape.rank(); i++) {
            dims.add(shape.dim(i));
        }
        return dims;
    }
}
