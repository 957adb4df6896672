package io.tracegraph.domain.health;

/**
 * Counts of what a trace captured (spec 3, member order as written). {@code edges} counts every
 * edge record; from trace/7 on it is split into {@code callEdges} and {@code dataEdges}, and
 * device intervals and tensor statistics (trace/10) are counted too (0 for trace/6).
 */
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
        long optimizerSpans,
        long deviceIntervals,
        long callEdges,
        long dataEdges,
        long tensorStats) {

    /** The trace/6 counts: every edge is a call edge, nothing of the later records. */
    public Coverage(long spans, long closedSpans, long rootSpans, long measuredSpans, long operations, long tensors,
            long memoryEvents, long deviceMemorySamples, long gradients, long edges, long forwardSpans,
            long backwardSpans, long optimizerSpans) {
        this(spans, closedSpans, rootSpans, measuredSpans, operations, tensors, memoryEvents, deviceMemorySamples,
                gradients, edges, forwardSpans, backwardSpans, optimizerSpans, 0, edges, 0, 0);
    }
}
