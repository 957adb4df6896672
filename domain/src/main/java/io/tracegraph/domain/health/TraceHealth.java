package io.tracegraph.domain.health;

import io.tracegraph.domain.trace.RunOutcome;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The verdict of the health analysis. A trace is <em>structurally valid</em> when no issue is an
 * error, its <em>capture complete</em> unless its terminal record declared it failed, and
 * <em>trusted</em> (a graph is built and stored as a complete run) when both hold. A trace without
 * a terminal record (trace/6) is always capture-complete, so trusted iff structurally valid.
 *
 * @param outcome the trace's outcome; {@link RunOutcome#isDeclared()} tells whether the report has
 *     the trace/7 layout (structurally valid and capture complete reported apart)
 */
public record TraceHealth(boolean trusted, List<HealthIssue> issues, Coverage coverage, RunOutcome outcome) {
    public TraceHealth {
        issues = List.copyOf(issues);
        Objects.requireNonNull(coverage, "coverage");
        Objects.requireNonNull(outcome, "outcome");
        if (trusted != (issues.stream().noneMatch(HealthIssue::isError) && !outcome.isFailed())) {
            throw new IllegalArgumentException("trusted must be true iff no issue is an error and the capture is complete");
        }
    }

    /** A trace/6 verdict: trusted iff no issue is an error. */
    public TraceHealth(boolean trusted, List<HealthIssue> issues, Coverage coverage) {
        this(trusted, issues, coverage, RunOutcome.IMPLIED_COMPLETE);
    }

    /** No issue is an error: the records are consistent enough to build (a partial) graph. */
    public boolean structurallyValid() {
        return issues.stream().noneMatch(HealthIssue::isError);
    }

    /** The producer did not declare the capture failed. */
    public boolean captureComplete() {
        return !outcome.isFailed();
    }

    public List<HealthIssue> errors() {
        return issues.stream().filter(HealthIssue::isError).collect(Collectors.toList());
    }

    /** The warning messages, in order (the original's "gaps"). */
    public List<String> gaps() {
        return issues.stream().filter(i -> !i.isError()).map(HealthIssue::message).collect(Collectors.toList());
    }

    /**
     * Why the trace is not trusted: the original's {@code trace is structurally untrusted: m1; m2}
     * when there are errors, else {@code capture failed: REASON} for a failed capture.
     */
    public String untrustedMessage() {
        if (!structurallyValid() || !outcome.isFailed()) {
            return "trace is structurally untrusted: "
                    + errors().stream().map(HealthIssue::message).collect(Collectors.joining("; "));
        }
        return "capture failed: " + (outcome.reason() != null ? outcome.reason() : "capture ended with a failed outcome");
    }
}
