package io.tracegraph.domain.trace;

import java.util.Objects;

/** A {@code span_start} record as read; {@code parentId} and {@code step} may be {@code null}. */
public record SpanStart(String id, String parentId, String name, long startNs, SpanKind kind, boolean measured,
        ExecutionStep step) {
    public SpanStart {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
    }
}
