package io.tracegraph.domain.graph;

import io.tracegraph.domain.trace.CaptureContract;
import io.tracegraph.domain.trace.ComparisonIdentity;
import io.tracegraph.domain.trace.RunOutcome;
import java.util.Objects;

/**
 * What a graph knows about its capture beyond the trace/6 facts: the trace schema it was built
 * from, the run's outcome, whether the measured region was device-synchronized, the capture
 * contract and the comparison identity (the last two {@code null} when not declared).
 */
public record Capture(String traceSchema, RunOutcome outcome, boolean measuredRegionDeviceSynchronized,
        CaptureContract contract, ComparisonIdentity identity) {
    public Capture {
        Objects.requireNonNull(traceSchema, "traceSchema");
        Objects.requireNonNull(outcome, "outcome");
    }
}
