package io.tracegraph.domain.graph;

import io.tracegraph.domain.memory.MemorySummary;
import java.util.List;
import java.util.Objects;

/**
 * The headline figures of a graph: measured total, top-8 slowest (host self time) and heaviest
 * spans, memory, and the top-8 spans by device self time (empty without device intervals).
 */
public record GraphSummary(String entrypoint, double totalMs, List<SlowSpan> slowestSpans,
        List<HeavySpan> heaviestSpans, MemorySummary memory, List<DeviceSpanCost> slowestDeviceSpans) {
    public GraphSummary {
        Objects.requireNonNull(entrypoint, "entrypoint");
        slowestSpans = List.copyOf(slowestSpans);
        heaviestSpans = List.copyOf(heaviestSpans);
        Objects.requireNonNull(memory, "memory");
        slowestDeviceSpans = List.copyOf(slowestDeviceSpans);
    }

    /** A summary without device time. */
    public GraphSummary(String entrypoint, double totalMs, List<SlowSpan> slowestSpans, List<HeavySpan> heaviestSpans,
            MemorySummary memory) {
        this(entrypoint, totalMs, slowestSpans, heaviestSpans, memory, List.of());
    }
}
