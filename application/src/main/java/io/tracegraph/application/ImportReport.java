package io.tracegraph.application;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What an import did. {@code rejections} lists every input rejected by this import with its
 * one-line reason ({@code ENTRY:LINE: reason} or the health messages), in the order the inputs
 * came; {@code previouslyRejected} counts content rejected for what it is by an earlier import,
 * which is not read again and does not make the import fail.
 */
public record ImportReport(long seen, long imported, long replaced, long duplicates, long previouslyRejected,
        List<Rejection> rejections, long nodes, long edges, long bytes, Duration elapsed) {

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
    }

    public long rejected() {
        return rejections.size();
    }
}
