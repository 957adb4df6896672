package io.tracegraph.domain.run;

import io.tracegraph.domain.graph.ExecutionGraph;
import io.tracegraph.domain.health.TraceHealth;
import io.tracegraph.domain.trace.RunMeta;
import java.util.Objects;

/**
 * A trusted run ready to be stored: where it came from, the hash of its content, its metadata,
 * health and graph.
 *
 * @param contentSha256 lower-case hex SHA-256 of the trace's bytes
 */
public record RunToStore(String sourceName, String contentSha256, long contentBytes, String traceSchema,
        RunMeta meta, TraceHealth health, ExecutionGraph graph) {
    public RunToStore {
        Objects.requireNonNull(sourceName, "sourceName");
        Objects.requireNonNull(contentSha256, "contentSha256");
        Objects.requireNonNull(traceSchema, "traceSchema");
        Objects.requireNonNull(meta, "meta");
        Objects.requireNonNull(health, "health");
        Objects.requireNonNull(graph, "graph");
        if (!health.trusted()) {
            throw new IllegalArgumentException("only trusted runs are stored");
        }
    }
}
