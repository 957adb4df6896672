package io.tracegraph.application;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What an import did. {@code rejections} lists every input that was not stored because of what it
 * is, with its one-line reason ({@code ENTRY:LINE: reason} or the health messages), in the order
 * the inputs came: the ones this import rejected, and content an earlier import rejected, which is
 * not read again (reason {@code rejected before: ...}; counted by {@code previouslyRejected}).
 * {@code failedRuns} lists the stored runs whose capture failed (they are stored, not rejected).
 */
public record ImportReport(long seen, long imported, long replaced, long duplicates, long previouslyRejected,
        List<Rejection> rejections, long nodes, long edges, long bytes, Duration elapsed, List<FailedRun> failedRuns) {

    /**
     * A failed capture (candle-graph trace/7+ terminal outcome {@code failed}) that was stored as a
     * run with outcome failed, its reason and what could be built of it; counted among the imported
     * (or replaced) runs.
     */
    public record FailedRun(String source, String runId, String reason) {
        public FailedRun {
            Objects.requireNonNull(source, "source");
            Objects.requireNonNull(runId, "runId");
            Objects.requireNonNull(reason, "reason");
        }
    }

    /** One rejected input. */
    public record Rejection(String source, String reason) {
        public Rejection {
            Objects.requireNonNull(source, "source");
            Objects.requireNonNull(reason, "reason");
        }
    }

    public ImportReport {
        rejections = List.copyOf(rejections);
        Objects.requireNonNull(elapsed, "elapsed");
        failedRuns = List.copyOf(failedRuns);
    }

    /** Inputs this import rejected (content rejected by an earlier import not counted). */
    public long rejected() {
        return rejections.size() - previouslyRejected;
    }
}
