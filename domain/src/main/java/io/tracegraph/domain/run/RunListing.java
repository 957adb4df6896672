package io.tracegraph.domain.run;

import io.tracegraph.domain.trace.ExecutionPhase;
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
 */
public record RunListing(RunRef run, String timestamp, Instant capturedAt, Instant importedAt, String entrypoint,
        ExecutionPhase phase, String device, double totalMs, long peakBytes, Map<String, String> tags) {
    public RunListing {
        Objects.requireNonNull(run, "run");
        Objects.requireNonNull(timestamp, "timestamp");
        Objects.requireNonNull(importedAt, "importedAt");
        Objects.requireNonNull(entrypoint, "entrypoint");
        Objects.requireNonNull(phase, "phase");
        Objects.requireNonNull(device, "device");
        tags = StoredRun.sortedTags(tags);
    }

    public String runId() {
        return run.runId();
    }
}
