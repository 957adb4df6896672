package io.tracegraph.domain.run;

import io.tracegraph.domain.compare.PathStats;
import io.tracegraph.domain.trace.RunOutcome;
import java.time.Instant;
import java.util.Objects;

/**
 * One semantic path in one stored run: when the run was captured and the path's statistics there
 * (its occurrences aggregated).
 *
 * @param timestamp the run's timestamp as its producer wrote it
 * @param capturedAt that timestamp as an instant, or {@code null} when it is not ISO-8601
 * @param outcome how the run's capture ended (a failed capture's figures cover what it captured)
 */
public record PathHistoryPoint(RunRef run, String timestamp, Instant capturedAt, Instant importedAt,
        String entrypoint, PathStats stats, RunOutcome outcome) {
    public PathHistoryPoint {
        Objects.requireNonNull(run, "run");
        Objects.requireNonNull(timestamp, "timestamp");
        Objects.requireNonNull(importedAt, "importedAt");
        Objects.requireNonNull(entrypoint, "entrypoint");
        Objects.requireNonNull(stats, "stats");
        Objects.requireNonNull(outcome, "outcome");
    }

    /** A point of a complete run without a terminal record (trace/6). */
    public PathHistoryPoint(RunRef run, String timestamp, Instant capturedAt, Instant importedAt, String entrypoint,
            PathStats stats) {
        this(run, timestamp, capturedAt, importedAt, entrypoint, stats, RunOutcome.IMPLIED_COMPLETE);
    }

    /** Whether the run's capture failed. */
    public boolean failed() {
        return outcome.isFailed();
    }

    public String runId() {
        return run.runId();
    }
}
