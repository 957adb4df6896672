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
 * {@code origin} says what the trace's producer records and what its reader repaired
 * ({@link TraceOrigin#CANDLE_GRAPH} for candle-graph traces).
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
        RunOutcome outcome,
        TraceOrigin origin) {

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
        Objects.requireNonNull(origin, "origin");
    }

    /** A candle-graph document ({@link TraceOrigin#CANDLE_GRAPH}). */
    public TraceDocument(String schema, RunMeta run, List<SpanRecord> spans, List<OpEvent> ops,
            List<TensorEvent> tensors, List<MemoryEvent> memory, List<DeviceMemoryEvent> deviceMemory,
            List<GradientEvent> gradients, List<EdgeEvent> edges, List<DataEdgeEvent> dataEdges,
            List<DeviceInterval> deviceIntervals, List<TensorStats> tensorStats, RunOutcome outcome) {
        this(schema, run, spans, ops, tensors, memory, deviceMemory, gradients, edges, dataEdges, deviceIntervals,
                tensorStats, outcome, TraceOrigin.CANDLE_GRAPH);
    }

    /** A trace/6 document: none of the later records, outcome implied complete. */
    public TraceDocument(String schema, RunMeta run, List<SpanRecord> spans, List<OpEvent> ops,
            List<TensorEvent> tensors, List<MemoryEvent> memory, List<DeviceMemoryEvent> deviceMemory,
            List<GradientEvent> gradients, List<EdgeEvent> edges) {
        this(schema, run, spans, ops, tensors, memory, deviceMemory, gradients, edges, List.of(), List.of(),
                List.of(), RunOutcome.IMPLIED_COMPLETE, TraceOrigin.CANDLE_GRAPH);
    }

    /** The candle-graph revision of {@link #schema()} (6..10), or 0 for another schema. */
    public int revision() {
        return TraceSchemas.revision(schema);
    }
}
