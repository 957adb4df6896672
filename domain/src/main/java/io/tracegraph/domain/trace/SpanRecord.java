package io.tracegraph.domain.trace;

import java.util.Objects;

/**
 * One span of the trace, assembled from its {@code span_start} and (when seen) {@code span_end}.
 *
 * @param parentId the parent span id, or {@code null} for a root candidate
 * @param durationNs the span_end's duration, 0 when the span was never closed
 * @param step the training step tag, or {@code null}
 */
public record SpanRecord(
        String id,
        String parentId,
        String name,
        SpanKind kind,
        boolean measured,
        long startNs,
        boolean closed,
        long durationNs,
        ExecutionStep step) {

    public SpanRecord {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
    }
}
