package io.tracegraph.domain.trace;

import java.util.Objects;

/**
 * How a capture ended, as its producer declared it in the trace's {@code terminal} record
 * (candle-graph trace/7 and later): complete, or failed with a reason, at a host timestamp.
 *
 * <p>Traces without a terminal record (candle-graph trace/6) carry {@link #IMPLIED_COMPLETE}: complete,
 * no reason, no timestamp ({@link #isDeclared()} is false).
 *
 * @param reason why the capture failed; {@code null} for a complete capture
 * @param timestampNs the terminal record's host timestamp, {@code null} when no terminal was recorded
 */
public record RunOutcome(Status status, String reason, Long timestampNs) {

    /** The closed set of outcomes. */
    public enum Status {
        COMPLETE,
        FAILED
    }

    /** The outcome of a trace that has no terminal record: complete, undeclared. */
    public static final RunOutcome IMPLIED_COMPLETE = new RunOutcome(Status.COMPLETE, null, null);

    public RunOutcome {
        Objects.requireNonNull(status, "status");
        if (timestampNs != null && timestampNs < 0) {
            throw new IllegalArgumentException("timestampNs must be >= 0");
        }
    }

    public static RunOutcome complete(long timestampNs) {
        return new RunOutcome(Status.COMPLETE, null, timestampNs);
    }

    public static RunOutcome failed(String reason, long timestampNs) {
        return new RunOutcome(Status.FAILED, reason, timestampNs);
    }

    public boolean isFailed() {
        return status == Status.FAILED;
    }

    /** Whether the trace declared its outcome in a terminal record. */
    public boolean isDeclared() {
        return timestampNs != null;
    }
}
