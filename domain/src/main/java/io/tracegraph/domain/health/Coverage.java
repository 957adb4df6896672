package io.tracegraph.domain.health;

/** Counts of what a trace captured (spec 3, member order as written). */
public record Coverage(
        long spans,
        long closedSpans,
        long rootSpans,
        long measuredSpans,
        long operations,
        long tensors,
        long memoryEvents,
        long deviceMemorySamples,
        long gradients,
        long edges,
        long forwardSpans,
        long backwardSpans,
        long optimizerSpans) {
}
