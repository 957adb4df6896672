package io.tracegraph.domain.run;

import io.tracegraph.domain.trace.ComparisonIdentity;
import io.tracegraph.domain.trace.ExecutionPhase;
import io.tracegraph.domain.trace.RunOutcome;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * One line of the list of stored runs.
 *
 * @param timestamp the run's timestamp as its producer wrote it
 * @param capturedAt that timestamp as an instant, or {@code null} when it is not ISO-8601
 * @param importedAt when the run was stored
 * @param peakBytes the global memory peak
 * @param tags the producer's tags, sorted by key
 * @param outcome how the capture ended (complete, or failed with its reason)
 * @param identity the comparison identity the run declared, or {@code null}
 */
public record RunListing(RunRef run, String timestamp, Instant capturedAt, Instant importedAt, String entrypoint,
        ExecutionPhase phase, String device, double totalMs, long peakBytes, Map<String, String> tags,
        RunOutcome outcome, ComparisonIdentity identity) {
    public RunListing {
        Objects.requireNonNull(run, "run");
        Objects.requireNonNull(timestamp, "timestamp");
        Objects.requireNonNull(importedAt, "importedAt");
        Objects.requireNonNull(entrypoint, "entrypoint");
        Objects.requireNonNull(phase, "phase");
        Objects.requireNonNull(device, "device");
        tags = StoredRun.sortedTags(tags);
        Objects.requireNonNull(outcome, "outcome");
    }

    /** A listing of a complete run without capture facts (trace/6). */
    public RunListing(RunRef run, String timestamp, Instant capturedAt, Instant importedAt, String entrypoint,
            ExecutionPhase phase, String device, double totalMs, long peakBytes, Map<String, String> tags) {
        this(run, timestamp, capturedAt, importedAt, entrypoint, phase, device, totalMs, peakBytes, tags,
                RunOutcome.IMPLIED_COMPLETE, null);
    }

    /** Whether the capture failed. */
    public boolean failed() {
        return outcome.isFailed();
    }

    public String runId() {
        return run.runId();
    }
}
