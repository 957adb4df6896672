package io.tracegraph.domain.health;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/** The verdict of the health analysis: trusted iff no issue is an error. */
public record TraceHealth(boolean trusted, List<HealthIssue> issues, Coverage coverage) {
    public TraceHealth {
        issues = List.copyOf(issues);
        Objects.requireNonNull(coverage, "coverage");
        if (trusted != issues.stream().noneMatch(HealthIssue::isError)) {
            throw new IllegalArgumentException("trusted must be true iff no issue is an error");
        }
    }

    public List<HealthIssue> errors() {
        return issues.stream().filter(HealthIssue::isError).collect(Collectors.toList());
    }

    /** The warning messages, in order (the original's "gaps"). */
    public List<String> gaps() {
        return issues.stream().filter(i -> !i.isError()).map(HealthIssue::message).collect(Collectors.toList());
    }

    /** The original's refusal text: {@code trace is structurally untrusted: m1; m2}. */
    public String untrustedMessage() {
        return "trace is structurally untrusted: "
                + errors().stream().map(HealthIssue::message).collect(Collectors.joining("; "));
    }
}
