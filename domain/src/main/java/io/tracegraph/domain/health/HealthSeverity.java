package io.tracegraph.domain.health;

/** How bad a health issue is: errors make a trace untrusted, warnings never do. */
public enum HealthSeverity {
    ERROR,
    WARNING
}
