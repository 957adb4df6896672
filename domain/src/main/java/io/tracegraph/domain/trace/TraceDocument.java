package io.tracegraph.domain.trace;

import java.util.List;
import java.util.Objects;

/**
 * A whole trace after assembly (spec 2.2): spans sorted by id (code point order), every other
 * record list in file order.
 *
 * <p>trace/7 and later add device intervals, recorded data edges, tensor statistics (trace/10)
 * and the outcome of the terminal record; a trace/6 document has empty lists and
 * {@link RunOutcome#IMPLIED_COMPLETE}. {@code edges} are the call edges between spans.
 */
public record TraceDocument(
        String schema,
        RunMeta run,
        List<SpanRecord> spans,
        List<OpEvent> ops,
        List<TensorEvent> tensors,
        List<MemoryEvent> memory,
        List<DeviceMemoryEvent> deviceMemory,
        List<GradientEvent> gradients,
        List<EdgeEvent> edges,
        List<DataEdgeEvent> dataEdges,
        List<DeviceInterval> deviceIntervals,
        List<TensorStats> tensorStats,
        RunOutcome outcome) {

    /** The oldest trace schema read, whose rules apply to documents without a terminal record. */
    public static final String SCHEMA = TraceSchemas.TRACE_6;

    public TraceDocument {
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(run, "run");
        spans = List.copyOf(spans);
        ops = List.copyOf(ops);
        tensors = List.copyOf(tensors);
        memory = List.copyOf(memory);
        deviceMemory = List.copyOf(deviceMemory);
        gradients = List.copyOf(gradients);
        edges = List.copyOf(edges);
        dataEdges = List.copyOf(dataEdges);
        deviceIntervals = List.copyOf(deviceIntervals);
        tensorStats = List.copyOf(tensorStats);
        Objects.requireNonNull(outcome, "outcome");
    }

    /** A trace/6 document: none of the later records, outcome implied complete. */
    public TraceDocument(String schema, RunMeta run, List<SpanRecord> spans, List<OpEvent> ops,
            List<TensorEvent> tensors, List<MemoryEvent> memory, List<DeviceMemoryEvent> deviceMemory,
            List<GradientEvent> gradients, List<EdgeEvent> edges) {
        this(schema, run, spans, ops, tensors, memory, deviceMemory, gradients, edges, List.of(), List.of(),
                List.of(), RunOutcome.IMPLIED_COMPLETE);
    }

    /** The candle-graph revision of {@link #schema()} (6..10), or 0 for another schema. */
    public int revision() {
        return TraceSchemas.revision(schema);
    }
}
