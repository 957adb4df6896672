package io.tracegraph.domain.trace;

import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Where a trace comes from: what its producer records, which decides the health checks that apply
 * to it, and the notes of the reader that made the trace from its format.
 *
 * @param evidence what the producer can record: a missing kind it cannot record is no capture gap
 * @param concurrentSpans whether sibling spans may run at the same time (threads of a profiled
 *     process), so that children may total more than their parent
 * @param notes what the reader repaired or set aside, in the order found
 */
public record TraceOrigin(Set<Evidence> evidence, boolean concurrentSpans, List<CaptureNote> notes) {
    /** candle-graph traces: every kind of evidence, sequential spans, nothing repaired. */
    public static final TraceOrigin CANDLE_GRAPH = new TraceOrigin(EnumSet.allOf(Evidence.class), false, List.of());

    public TraceOrigin {
        Objects.requireNonNull(evidence, "evidence");
        evidence = evidence.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(evidence));
        notes = List.copyOf(notes);
    }

    public boolean records(Evidence kind) {
        return evidence.contains(kind);
    }
}
