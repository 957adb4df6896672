package io.tracegraph.domain.run;

import java.util.Objects;
import java.util.UUID;

/**
 * One line of the import log; {@code reason}, {@code runId} and {@code contentSha256} may be null.
 * {@code contentFault} marks a rejection for what the content is (malformed or untrusted), which
 * the same content will always get again.
 */
public record ImportLogEntry(UUID importId, String sourceName, ImportOutcome outcome, String reason, String runId,
        String contentSha256, boolean contentFault) {
    public ImportLogEntry {
        Objects.requireNonNull(importId, "importId");
        Objects.requireNonNull(sourceName, "sourceName");
        Objects.requireNonNull(outcome, "outcome");
    }
}
