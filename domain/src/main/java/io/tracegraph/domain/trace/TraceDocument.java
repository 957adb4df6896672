package io.tracegraph.domain.trace;

import java.util.List;
import java.util.Objects;

/**
 * A whole trace after assembly (spec 2.2): spans sorted by id (code point order), every other
 * record list in file order. {@code origin} says what its producer records and what its reader
 * repaired ({@link TraceOrigin#CANDLE_GRAPH} for candle-graph traces).
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
        TraceOrigin origin) {

    /** The only trace schema this version reads. */
    public static final String SCHEMA = "candle-graph/trace/6";

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
        Objects.requireNonNull(origin, "origin");
    }

    /** A candle-graph trace ({@link TraceOrigin#CANDLE_GRAPH}). */
    public TraceDocument(String schema, RunMeta run, List<SpanRecord> spans, List<OpEvent> ops,
            List<TensorEvent> tensors, List<MemoryEvent> memory, List<DeviceMemoryEvent> deviceMemory,
            List<GradientEvent> gradients, List<EdgeEvent> edges) {
        this(schema, run, spans, ops, tensors, memory, deviceMemory, gradients, edges, TraceOrigin.CANDLE_GRAPH);
    }
}
