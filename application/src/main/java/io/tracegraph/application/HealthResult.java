package io.tracegraph.application;

import io.tracegraph.domain.health.TraceHealth;
import io.tracegraph.domain.trace.TraceProblem;
import java.util.Objects;

/** What checking a trace gave: its health (trusted or not), or the reason it could not be read. */
public sealed interface HealthResult permits HealthResult.Checked, HealthResult.Malformed {

    record Checked(String source, TraceHealth health) implements HealthResult {
        public Checked {
            Objects.requireNonNull(health, "health");
        }
    }

    record Malformed(TraceProblem problem) implements HealthResult {
        public Malformed {
            Objects.requireNonNull(problem, "problem");
        }
    }
}
