package io.tracegraph.domain.health;

import java.util.Objects;

/** One finding of the health analysis: a stable code and a message for people. */
public record HealthIssue(HealthSeverity severity, String code, String message) {
    public HealthIssue {
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(message, "message");
    }

    public boolean isError() {
        return severity == HealthSeverity.ERROR;
    }
}
