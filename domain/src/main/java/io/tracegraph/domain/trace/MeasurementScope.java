package io.tracegraph.domain.trace;

/** What a capture's measured region stands for, as its producer declared it. */
public enum MeasurementScope {
    UNKNOWN,
    PROFILED_WORK,
    PRODUCTION_EQUIVALENT
}
