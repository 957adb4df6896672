package io.tracegraph.domain.graph;

import io.tracegraph.domain.trace.Shape;
import java.util.Objects;

/**
 * A span or op node of the execution graph. {@code parentId} is {@code null} for the root;
 * {@code shape}, {@code dtype}, {@code device} and {@code storageBytes} are {@code null} when
 * absent (always for spans).
 */
public record GraphNode(
        String id,
        String parentId,
        String name,
        GraphNodeKind kind,
        long startNs,
        long selfTimeNs,
        long totalTimeNs,
        Shape shape,
        String dtype,
        String device,
        long bytes,
        long peakBytes,
        long residualBytes,
        Long storageBytes) {

    public GraphNode {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
    }
}
