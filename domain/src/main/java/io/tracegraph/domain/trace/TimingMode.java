package io.tracegraph.domain.trace;

/** How the producer measured durations. */
public enum TimingMode {
    HOST,
    DEVICE_SYNCHRONIZED
}
