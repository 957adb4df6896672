package io.tracegraph.domain.run;

import io.tracegraph.domain.compare.PathStats;
import java.time.Instant;
import java.util.Objects;

/**
 * One semantic path in one stored run: when the run was captured and the path's statistics there
 * (its occurrences aggregated).
 *
 * @param timestamp the run's timestamp as its producer wrote it
 * @param capturedAt that timestamp as an instant, or {@code null} when it is not ISO-8601
 */
public record PathHistoryPoint(RunRef run, String timestamp, Instant capturedAt, Instant importedAt,
        String entrypoint, PathStats stats) {
    public PathHistoryPoint {
        Objects.requireNonNull(run, "run");
        Objects.requireNonNull(timestamp, "timestamp");
        Objects.requireNonNull(importedAt, "importedAt");
        Objects.requireNonNull(entrypoint, "entrypoint");
        Objects.requireNonNull(stats, "stats");
    }

    public String runId() {
        return run.runId();
    }
}
