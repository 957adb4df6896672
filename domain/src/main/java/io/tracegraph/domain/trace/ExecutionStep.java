package io.tracegraph.domain.trace;

/** The training step a span belongs to, when the producer tagged it. */
public enum ExecutionStep {
    FORWARD,
    BACKWARD,
    OPTIMIZER
}
