package io.tracegraph.domain.trace;

/** The state of one parameter's gradient at capture time. */
public enum GradientState {
    PRESENT,
    MISSING,
    ZERO,
    NON_FINITE
}
