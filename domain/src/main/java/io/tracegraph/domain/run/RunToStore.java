package io.tracegraph.domain.run;

import io.tracegraph.domain.graph.ExecutionGraph;
import io.tracegraph.domain.health.TraceHealth;
import io.tracegraph.domain.trace.RunMeta;
import java.util.Objects;
import java.util.Optional;

/**
 * A trusted run ready to be stored: where it came from, the hash of its content, its metadata,
 * health and graph, and the bundle it came in.
 *
 * @param contentSha256 lower-case hex SHA-256 of the trace's bytes
 * @param bundle        the verified candle-graph bundle the trace came in (its run id and the hash of
 *                      every file), or {@code null} for a trace that came alone
 */
public record RunToStore(String sourceName, String contentSha256, long contentBytes, String traceSchema,
        RunMeta meta, TraceHealth health, ExecutionGraph graph, BundleIdentity bundle) {
    /** A run of a trace that came alone, in no bundle. */
    public RunToStore(String sourceName, String contentSha256, long contentBytes, String traceSchema, RunMeta meta,
            TraceHealth health, ExecutionGraph graph) {
        this(sourceName, contentSha256, contentBytes, traceSchema, meta, health, graph, null);
    }

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

    /** The bundle the trace came in, if it came in one. */
    public Optional<BundleIdentity> bundled() {
        return Optional.ofNullable(bundle);
    }
}
