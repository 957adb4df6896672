package io.tracegraph.domain.run;

import io.tracegraph.domain.trace.CodePointOrder;
import io.tracegraph.domain.trace.RunMeta;
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
 */
public record StoredRun(RunRef run, RunMeta meta, Instant capturedAt, Instant importedAt, String sourceName,
        String contentSha256, long contentBytes, String traceSchema, String graphSchema, long nodeCount,
        long edgeCount) {
    public StoredRun {
        Objects.requireNonNull(run, "run");
        Objects.requireNonNull(meta, "meta");
        Objects.requireNonNull(importedAt, "importedAt");
        Objects.requireNonNull(sourceName, "sourceName");
        Objects.requireNonNull(contentSha256, "contentSha256");
        Objects.requireNonNull(traceSchema, "traceSchema");
        Objects.requireNonNull(graphSchema, "graphSchema");
    }

    static Map<String, String> sortedTags(Map<String, String> tags) {
        TreeMap<String, String> sorted = new TreeMap<>(CodePointOrder.COMPARATOR);
        sorted.putAll(Objects.requireNonNull(tags, "tags"));
        return Collections.unmodifiableSortedMap(sorted);
    }
}
