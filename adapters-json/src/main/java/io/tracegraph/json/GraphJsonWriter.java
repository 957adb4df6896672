package io.tracegraph.json;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.core.StreamWriteFeature;
import io.tracegraph.domain.graph.Capture;
import io.tracegraph.domain.graph.DeviceSpanCost;
import io.tracegraph.domain.graph.DeviceTime;
import io.tracegraph.domain.graph.ExecutionGraph;
import io.tracegraph.domain.graph.GradientRecord;
import io.tracegraph.domain.graph.GraphEdge;
import io.tracegraph.domain.graph.GraphNode;
import io.tracegraph.domain.graph.GraphSummary;
import io.tracegraph.domain.graph.HeavySpan;
import io.tracegraph.domain.graph.SlowSpan;
import io.tracegraph.domain.graph.TensorRecord;
import io.tracegraph.domain.health.Coverage;
import io.tracegraph.domain.health.HealthIssue;
import io.tracegraph.domain.health.TraceHealth;
import io.tracegraph.domain.memory.CategoryBytes;
import io.tracegraph.domain.memory.DeviceMemory;
import io.tracegraph.domain.memory.LiveAllocation;
import io.tracegraph.domain.memory.MemoryProfile;
import io.tracegraph.domain.memory.MemorySummary;
import io.tracegraph.domain.memory.TimelinePoint;
import io.tracegraph.domain.trace.CaptureContract;
import io.tracegraph.domain.trace.ComparisonIdentity;
import io.tracegraph.domain.trace.GradientContract;
import io.tracegraph.domain.trace.MemoryCategory;
import io.tracegraph.domain.trace.RunOutcome;
import io.tracegraph.domain.trace.Shape;
import io.tracegraph.domain.trace.TensorStats;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Locale;

/**
 * Writes the graph ({@code candle-graph/graph/3}, spec 5.1), health (spec 3) and memory profile
 * (spec 4.1) JSON with the original's member names and orders, pretty-printed the way serde_json
 * does it (two-space indent, {@code "name": value}, {@code []} for empty lists).
 */
public final class GraphJsonWriter {
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(StreamWriteFeature.USE_FAST_DOUBLE_WRITER)
            .enable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8)
            .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
            .build();

    private GraphJsonWriter() {
    }

    /** A UTF-8 generator over {@code out}, pretty-printed like serde_json; closing it flushes, not closes. */
    public static JsonGenerator generator(OutputStream out) {
        try {
            JsonGenerator g = FACTORY.createGenerator(out, JsonEncoding.UTF8);
            g.setPrettyPrinter(new SerdePrettyPrinter());
            return g;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes the graph using every processor (the big lists are rendered in parallel chunks). */
    public static void writeGraph(ExecutionGraph graph, OutputStream out) {
        ParallelGraphWriter.write(graph, out, Math.max(2, Runtime.getRuntime().availableProcessors()));
    }

    /** The same bytes as {@link #writeGraph}, on the calling thread only. */
    static void writeGraphSequentially(ExecutionGraph graph, OutputStream out) {
        write(out, g -> graph(g, graph));
    }

    static JsonFactory factory() {
        return FACTORY;
    }


    public static void writeHealth(TraceHealth health, OutputStream out) {
        write(out, g -> health(g, health));
    }

    public static void writeMemory(MemoryProfile memory, OutputStream out) {
        write(out, g -> memory(g, memory));
    }

    /** Something that writes one JSON value. */
    @FunctionalInterface
    public interface Body {
        void write(JsonGenerator g) throws IOException;
    }

    /** Writes one pretty value followed by a newline, as the original's CLI does. */
    public static void write(OutputStream out, Body body) {
        try (JsonGenerator g = generator(out)) {
            body.write(g);
            g.writeRaw('\n');
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The wire spellings of each enum's constants, by ordinal (made once per enum, not once per value written). */
    private static final ClassValue<String[]> WIRE = new ClassValue<>() {
        @Override
        protected String[] computeValue(Class<?> type) {
            Object[] constants = type.getEnumConstants();
            String[] names = new String[constants.length];
            for (int i = 0; i < constants.length; i++) {
                names[i] = ((Enum<?>) constants[i]).name().toLowerCase(Locale.ROOT);
            }
            return names;
        }
    };

    /** The wire spelling of one of the domain's closed sets: its name in lower case. */
    public static String wire(Enum<?> value) {
        return WIRE.get(value.getDeclaringClass())[value.ordinal()];
    }

    public static void graph(JsonGenerator g, ExecutionGraph graph) throws IOException {
        g.writeStartObject();
        g.writeStringField("schema", graph.schema());
        g.writeFieldName("spans");
        nodes(g, graph.spans());
        g.writeFieldName("edges");
        edges(g, graph.edges());
        g.writeFieldName("tensors");
        tensors(g, graph.tensors());
        g.writeFieldName("gradients");
        gradients(g, graph.gradients());
        g.writeFieldName("summary");
        summary(g, graph.summary(), hasDeviceSummary(graph));
        g.writeFieldName("memory");
        memory(g, graph.memory());
        if (graph.capture() != null) {
            g.writeFieldName("capture");
            capture(g, graph.capture());
            g.writeFieldName("tensor_stats");
            tensorStats(g, graph.tensorStats());
        }
        g.writeEndObject();
    }

    /**
     * Whether the summary lists the slowest spans by device time: for every graph with capture
     * facts (trace/7 and later), and for any other one that has device time; never for trace/6.
     */
    static boolean hasDeviceSummary(ExecutionGraph graph) {
        return graph.capture() != null || !graph.summary().slowestDeviceSpans().isEmpty();
    }

    public static void nodes(JsonGenerator g, List<GraphNode> nodes) throws IOException {
        g.writeStartArray();
        for (GraphNode node : nodes) {
            node(g, node);
        }
        g.writeEndArray();
    }

    public static void node(JsonGenerator g, GraphNode node) throws IOException {
        g.writeStartObject();
        g.writeStringField("id", node.id());
        g.writeFieldName("parent_id");
        if (node.parentId() == null) {
            g.writeNull();
        } else {
            g.writeString(node.parentId());
        }
        g.writeStringField("name", node.name());
        g.writeStringField("kind", wire(node.kind()));
        g.writeNumberField("start_ns", node.startNs());
        g.writeNumberField("self_time_ns", node.selfTimeNs());
        g.writeNumberField("total_time_ns", node.totalTimeNs());
        if (node.shape() != null) {
            g.writeFieldName("shape");
            shape(g, node.shape());
        }
        if (node.dtype() != null) {
            g.writeStringField("dtype", node.dtype());
        }
        if (node.device() != null) {
            g.writeStringField("device", node.device());
        }
        g.writeNumberField("bytes", node.bytes());
        g.writeNumberField("peak_bytes", node.peakBytes());
        g.writeNumberField("residual_bytes", node.residualBytes());
        if (node.storageBytes() != null) {
            g.writeNumberField("storage_bytes", node.storageBytes());
        }
        if (!node.deviceTimes().isEmpty()) {
            g.writeFieldName("device_times");
            g.writeStartArray();
            for (DeviceTime t : node.deviceTimes()) {
                g.writeStartObject();
                g.writeStringField("device", t.device());
                g.writeNumberField("self_time_ns", t.selfTimeNs());
                g.writeNumberField("total_time_ns", t.totalTimeNs());
                g.writeEndObject();
            }
            g.writeEndArray();
        }
        g.writeEndObject();
    }

    public static void edges(JsonGenerator g, List<GraphEdge> edges) throws IOException {
        g.writeStartArray();
        for (GraphEdge edge : edges) {
            edge(g, edge);
        }
        g.writeEndArray();
    }

    public static void edge(JsonGenerator g, GraphEdge edge) throws IOException {
        g.writeStartObject();
        g.writeStringField("from", edge.from());
        g.writeStringField("to", edge.to());
        g.writeStringField("kind", wire(edge.kind()));
        g.writeNumberField("duration_ns", edge.durationNs());
        if (edge.label() != null) {
            g.writeStringField("label", edge.label());
        }
        g.writeEndObject();
    }

    public static void tensors(JsonGenerator g, List<TensorRecord> tensors) throws IOException {
        g.writeStartArray();
        for (TensorRecord t : tensors) {
            tensor(g, t);
        }
        g.writeEndArray();
    }

    public static void tensor(JsonGenerator g, TensorRecord t) throws IOException {
        g.writeStartObject();
        g.writeStringField("span_id", t.spanId());
        g.writeStringField("tensor_id", t.tensorId());
        if (t.label() != null) {
            g.writeStringField("label", t.label());
        }
        g.writeFieldName("shape");
        shape(g, t.shape());
        g.writeStringField("dtype", t.dtype());
        g.writeStringField("device", t.device());
        g.writeBooleanField("requires_grad", t.requiresGrad());
        g.writeNumberField("storage_bytes", t.storageBytes());
        g.writeStringField("category", wire(t.category()));
        g.writeEndObject();
    }

    public static void gradients(JsonGenerator g, List<GradientRecord> gradients) throws IOException {
        g.writeStartArray();
        for (GradientRecord r : gradients) {
            gradient(g, r);
        }
        g.writeEndArray();
    }

    public static void gradient(JsonGenerator g, GradientRecord r) throws IOException {
        g.writeStartObject();
        g.writeStringField("root", r.root());
        g.writeStringField("key", r.key());
        g.writeStringField("state", wire(r.state()));
        if (r.norm() != null) {
            g.writeNumberField("norm", r.norm());
        }
        g.writeEndObject();
    }

    public static void summary(JsonGenerator g, GraphSummary summary) throws IOException {
        summary(g, summary, !summary.slowestDeviceSpans().isEmpty());
    }

    /** The summary; with {@code device}, also {@code slowest_device_spans} after {@code memory}. */
    public static void summary(JsonGenerator g, GraphSummary summary, boolean device) throws IOException {
        g.writeStartObject();
        g.writeStringField("entrypoint", summary.entrypoint());
        g.writeNumberField("total_ms", summary.totalMs());
        g.writeFieldName("slowest_spans");
        slowest(g, summary.slowestSpans());
        g.writeFieldName("heaviest_spans");
        heaviest(g, summary.heaviestSpans());
        g.writeFieldName("memory");
        memorySummary(g, summary.memory());
        if (device) {
            g.writeFieldName("slowest_device_spans");
            g.writeStartArray();
            for (DeviceSpanCost s : summary.slowestDeviceSpans()) {
                g.writeStartObject();
                g.writeStringField("id", s.id());
                g.writeStringField("name", s.name());
                g.writeStringField("device", s.device());
                g.writeNumberField("device_self_time_ns", s.selfTimeNs());
                g.writeEndObject();
            }
            g.writeEndArray();
        }
        g.writeEndObject();
    }

    /** The capture facts of a graph of trace/7 and later (docs/trace-formats.md). */
    public static void capture(JsonGenerator g, Capture capture) throws IOException {
        g.writeStartObject();
        g.writeStringField("trace_schema", capture.traceSchema());
        RunOutcome outcome = capture.outcome();
        g.writeStringField("outcome", wire(outcome.status()));
        if (outcome.reason() != null) {
            g.writeStringField("reason", outcome.reason());
        }
        if (outcome.timestampNs() != null) {
            g.writeNumberField("terminal_timestamp_ns", outcome.timestampNs());
        }
        g.writeBooleanField("measured_region_device_synchronized", capture.measuredRegionDeviceSynchronized());
        if (capture.contract() != null) {
            g.writeFieldName("capture_contract");
            contract(g, capture.contract());
        }
        if (capture.identity() != null) {
            g.writeFieldName("comparison_identity");
            identity(g, capture.identity());
        }
        g.writeEndObject();
    }

    public static void contract(JsonGenerator g, CaptureContract c) throws IOException {
        g.writeStartObject();
        g.writeStringField("measurement_scope", wire(c.measurementScope()));
        g.writeStringField("operations", wire(c.operations()));
        g.writeStringField("tensors", wire(c.tensors()));
        g.writeStringField("gradients", wire(c.gradients()));
        GradientContract gc = c.gradientContract();
        if (gc != null) {
            // The manifest itself stays in the trace (it can list every parameter of a model):
            // the graph names it by its digest and sizes.
            g.writeFieldName("gradient_contract");
            g.writeStartObject();
            g.writeStringField("manifest_sha256", gc.manifestSha256());
            g.writeNumberField("expected_gradients", gc.expected().size());
            g.writeNumberField("families", gc.families().size());
            g.writeEndObject();
        }
        g.writeStringField("logical_memory", wire(c.logicalMemory()));
        g.writeStringField("physical_memory", wire(c.physicalMemory()));
        g.writeStringField("device_timing", wire(c.deviceTiming()));
        labels(g, "required_semantic_labels", c.requiredSemanticLabels());
        if (!c.gpuExpectedSemanticLabels().isEmpty()) {
            labels(g, "gpu_expected_semantic_labels", c.gpuExpectedSemanticLabels());
        }
        if (!c.cpuOnlySemanticLabels().isEmpty()) {
            labels(g, "cpu_only_semantic_labels", c.cpuOnlySemanticLabels());
        }
        g.writeEndObject();
    }

    private static void labels(JsonGenerator g, String name, List<String> labels) throws IOException {
        g.writeFieldName(name);
        g.writeStartArray();
        for (String label : labels) {
            g.writeString(label);
        }
        g.writeEndArray();
    }

    public static void identity(JsonGenerator g, ComparisonIdentity i) throws IOException {
        g.writeStartObject();
        if (i.implementationId() != null) {
            g.writeStringField("implementation_id", i.implementationId());
        }
        g.writeStringField("workload_id", i.workloadId());
        g.writeStringField("model_id", i.modelId());
        g.writeStringField("config_id", i.configId());
        g.writeStringField("data_id", i.dataId());
        g.writeStringField("seed_policy", i.seedPolicy());
        g.writeNumberField("physical_batch", i.physicalBatch());
        g.writeNumberField("accumulation_steps", i.accumulationSteps());
        g.writeStringField("precision", i.precision());
        g.writeStringField("device_state", i.deviceState());
        if (i.pairId() != null) {
            g.writeStringField("pair_id", i.pairId());
        }
        g.writeEndObject();
    }

    public static void tensorStats(JsonGenerator g, List<TensorStats> stats) throws IOException {
        g.writeStartArray();
        for (TensorStats s : stats) {
            g.writeStartObject();
            g.writeStringField("span_id", s.spanId());
            g.writeStringField("label", s.label());
            g.writeFieldName("shape");
            shape(g, s.shape());
            g.writeStringField("dtype", s.dtype());
            g.writeNumberField("elements", s.elements());
            g.writeNumberField("non_finite", s.nonFinite());
            g.writeNumberField("rms", s.rms());
            g.writeNumberField("abs_max", s.absMax());
            g.writeNumberField("mean", s.mean());
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    public static void slowest(JsonGenerator g, List<SlowSpan> spans) throws IOException {
        g.writeStartArray();
        for (SlowSpan s : spans) {
            g.writeStartObject();
            g.writeStringField("id", s.id());
            g.writeStringField("name", s.name());
            g.writeNumberField("self_time_ns", s.selfTimeNs());
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    public static void heaviest(JsonGenerator g, List<HeavySpan> spans) throws IOException {
        g.writeStartArray();
        for (HeavySpan s : spans) {
            g.writeStartObject();
            g.writeStringField("id", s.id());
            g.writeStringField("name", s.name());
            g.writeNumberField("bytes", s.bytes());
            g.writeNumberField("peak_bytes", s.peakBytes());
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    public static void memory(JsonGenerator g, MemoryProfile memory) throws IOException {
        g.writeStartObject();
        g.writeFieldName("summary");
        memorySummary(g, memory.summary());
        g.writeFieldName("timeline");
        timeline(g, memory.timeline());
        g.writeFieldName("peak_breakdown");
        allocations(g, memory.peakBreakdown());
        g.writeFieldName("by_device");
        devices(g, memory.byDevice());
        g.writeEndObject();
    }

    public static void memorySummary(JsonGenerator g, MemorySummary s) throws IOException {
        g.writeStartObject();
        g.writeNumberField("alloc_count", s.allocCount());
        g.writeNumberField("free_count", s.freeCount());
        g.writeNumberField("total_alloc_bytes", s.totalAllocBytes());
        g.writeNumberField("peak_bytes", s.peakBytes());
        g.writeNumberField("peak_timestamp_ns", s.peakTimestampNs());
        g.writeStringField("peak_device", s.peakDevice());
        g.writeFieldName("peak_by_category");
        categories(g, s.peakByCategory());
        g.writeNumberField("autograd_retained_bytes", s.autogradRetainedBytes());
        g.writeEndObject();
    }

    public static void timeline(JsonGenerator g, List<TimelinePoint> timeline) throws IOException {
        g.writeStartArray();
        for (int i = 0, n = timeline.size(); i < n; i++) {
            timelinePoint(g, timeline.get(i));
        }
        g.writeEndArray();
    }

    public static void timelinePoint(JsonGenerator g, TimelinePoint point) throws IOException {
        g.writeStartObject();
        g.writeNumberField("timestamp_ns", point.timestampNs());
        g.writeStringField("device", point.device());
        g.writeNumberField("live_bytes", point.liveBytes());
        g.writeNumberField("heap_bytes", point.heapBytes());
        g.writeNumberField("free_bytes", point.freeBytes());
        g.writeFieldName("by_category");
        categories(g, point.byCategory());
        g.writeEndObject();
    }

    public static void allocations(JsonGenerator g, List<LiveAllocation> allocations) throws IOException {
        g.writeStartArray();
        for (LiveAllocation a : allocations) {
            allocation(g, a);
        }
        g.writeEndArray();
    }

    public static void allocation(JsonGenerator g, LiveAllocation a) throws IOException {
        g.writeStartObject();
        g.writeStringField("tensor_id", a.tensorId());
        g.writeStringField("span_id", a.spanId());
        g.writeFieldName("op_name");
        if (a.opName() == null) {
            g.writeNull();
        } else {
            g.writeString(a.opName());
        }
        g.writeNumberField("bytes", a.bytes());
        g.writeFieldName("shape");
        shape(g, a.shape());
        g.writeStringField("dtype", a.dtype());
        g.writeStringField("device", a.device());
        g.writeStringField("category", wire(a.category()));
        if (a.storageId() != null) {
            g.writeStringField("storage_id", a.storageId());
        }
        g.writeEndObject();
    }

    public static void devices(JsonGenerator g, List<DeviceMemory> devices) throws IOException {
        g.writeStartArray();
        for (DeviceMemory d : devices) {
            g.writeStartObject();
            g.writeStringField("device", d.device());
            g.writeNumberField("capacity_bytes", d.capacityBytes());
            g.writeNumberField("peak_bytes", d.peakBytes());
            g.writeNumberField("peak_timestamp_ns", d.peakTimestampNs());
            g.writeNumberField("alloc_count", d.allocCount());
            g.writeNumberField("free_count", d.freeCount());
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    public static void categories(JsonGenerator g, CategoryBytes categories) throws IOException {
        g.writeStartObject();
        for (MemoryCategory category : MemoryCategory.ordered()) {
            if (categories.has(category)) {
                g.writeNumberField(wire(category), categories.get(category));
            }
        }
        g.writeEndObject();
    }

    public static void shape(JsonGenerator g, Shape shape) throws IOException {
        g.writeStartArray();
        for (int i = 0; i < shape.rank(); i++) {
            g.writeNumber(shape.dim(i));
        }
        g.writeEndArray();
    }

    /**
     * The health report. For a trace that declares its outcome (trace/7 and later) it also reports
     * {@code structurally_valid} and {@code capture_complete}, and the coverage counts device
     * intervals, call and data edges apart (candle-graph 0.8's members) and tensor statistics.
     */
    public static void health(JsonGenerator g, TraceHealth health) throws IOException {
        boolean capture = health.outcome().isDeclared();
        g.writeStartObject();
        g.writeBooleanField("trusted", health.trusted());
        if (capture) {
            g.writeBooleanField("structurally_valid", health.structurallyValid());
            g.writeBooleanField("capture_complete", health.captureComplete());
        }
        g.writeFieldName("issues");
        g.writeStartArray();
        for (HealthIssue issue : health.issues()) {
            g.writeStartObject();
            g.writeStringField("severity", wire(issue.severity()));
            g.writeStringField("code", issue.code());
            g.writeStringField("message", issue.message());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeFieldName("coverage");
        Coverage c = health.coverage();
        g.writeStartObject();
        g.writeNumberField("spans", c.spans());
        g.writeNumberField("closed_spans", c.closedSpans());
        g.writeNumberField("root_spans", c.rootSpans());
        g.writeNumberField("measured_spans", c.measuredSpans());
        g.writeNumberField("operations", c.operations());
        g.writeNumberField("tensors", c.tensors());
        g.writeNumberField("memory_events", c.memoryEvents());
        g.writeNumberField("device_memory_samples", c.deviceMemorySamples());
        if (capture) {
            g.writeNumberField("device_intervals", c.deviceIntervals());
            g.writeNumberField("gradients", c.gradients());
            g.writeNumberField("call_edges", c.callEdges());
            g.writeNumberField("data_edges", c.dataEdges());
        } else {
            g.writeNumberField("gradients", c.gradients());
            g.writeNumberField("edges", c.edges());
        }
        g.writeNumberField("forward_spans", c.forwardSpans());
        g.writeNumberField("backward_spans", c.backwardSpans());
        g.writeNumberField("optimizer_spans", c.optimizerSpans());
        if (capture) {
            g.writeNumberField("tensor_stats", c.tensorStats());
        }
        g.writeEndObject();
        g.writeEndObject();
    }
}
