package io.tracegraph.domain.run;

import io.tracegraph.domain.graph.ExecutionGraph;
import io.tracegraph.domain.health.TraceHealth;
import io.tracegraph.domain.trace.RunMeta;
import java.util.Objects;
import java.util.Optional;

/**
 * A run ready to be stored: where it came from, the hash of its content, its metadata, health and
 * graph, and the bundle it came in. It is trusted, or a failed capture that is structurally valid
 * (its graph then holds what was captured, and its outcome says failed with the reason): history
 * keeps when captures failed.
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
        if (!health.trusted() && !(health.structurallyValid() && !health.captureComplete())) {
            throw new IllegalArgumentException("only trusted runs and structurally valid failed captures are stored");
        }
        if (graph.outcome().isFailed() != !health.captureComplete()) {
            throw new IllegalArgumentException("the graph's outcome and the health's disagree");
        }
    }

    /** Whether the capture failed (structurally valid: the graph holds what was captured). */
    public boolean failed() {
        return !health.captureComplete();
    }

    /** The bundle the trace came in, if it came in one. */
    public Optional<BundleIdentity> bundled() {
        return Optional.ofNullable(bundle);
    }
}
