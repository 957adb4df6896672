package io.tracegraph.domain.run;

import io.tracegraph.domain.trace.CodePointOrder;
import io.tracegraph.domain.trace.RunMeta;
import io.tracegraph.domain.trace.RunOutcome;
import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A stored run's metadata and what the store recorded about it.
 *
 * @param capturedAt the meta timestamp as an instant, or {@code null} when it is not ISO-8601
 * @param importedAt when the run was stored
 * @param sourceName the input it was imported from
 * @param contentSha256 hex SHA-256 of the trace's bytes
 * @param outcome how the capture ended: complete, or failed with its reason (a failed capture is
 *     stored with what could be built of it); {@link RunOutcome#IMPLIED_COMPLETE} for a trace without
 *     a terminal record
 */
public record StoredRun(RunRef run, RunMeta meta, Instant capturedAt, Instant importedAt, String sourceName,
        String contentSha256, long contentBytes, String traceSchema, String graphSchema, long nodeCount,
        long edgeCount, RunOutcome outcome) {
    public StoredRun {
        Objects.requireNonNull(run, "run");
        Objects.requireNonNull(meta, "meta");
        Objects.requireNonNull(importedAt, "importedAt");
        Objects.requireNonNull(sourceName, "sourceName");
        Objects.requireNonNull(contentSha256, "contentSha256");
        Objects.requireNonNull(traceSchema, "traceSchema");
        Objects.requireNonNull(graphSchema, "graphSchema");
        Objects.requireNonNull(outcome, "outcome");
    }

    /** A stored run of a complete capture without a terminal record (trace/6). */
    public StoredRun(RunRef run, RunMeta meta, Instant capturedAt, Instant importedAt, String sourceName,
            String contentSha256, long contentBytes, String traceSchema, String graphSchema, long nodeCount,
            long edgeCount) {
        this(run, meta, capturedAt, importedAt, sourceName, contentSha256, contentBytes, traceSchema, graphSchema,
                nodeCount, edgeCount, RunOutcome.IMPLIED_COMPLETE);
    }

    /** Whether the capture failed (stored with what could be built of it). */
    public boolean failed() {
        return outcome.isFailed();
    }

    static Map<String, String> sortedTags(Map<String, String> tags) {
        TreeMap<String, String> sorted = new TreeMap<>(CodePointOrder.COMPARATOR);
        sorted.putAll(Objects.requireNonNull(tags, "tags"));
        return Collections.unmodifiableSortedMap(sorted);
    }
}
