package io.tracegraph.domain.graph;

import io.tracegraph.domain.memory.MemorySummary;
import java.util.List;
import java.util.Objects;

/** The headline figures of a graph: measured total, top-8 slowest and heaviest spans, memory. */
public record GraphSummary(String entrypoint, double totalMs, List<SlowSpan> slowestSpans,
        List<HeavySpan> heaviestSpans, MemorySummary memory) {
    public GraphSummary {
        Objects.requireNonNull(entrypoint, "entrypoint");
        slowestSpans = List.copyOf(slowestSpans);
        heaviestSpans = List.copyOf(heaviestSpans);
        Objects.requireNonNull(memory, "memory");
    }
}
