package io.tracegraph.domain.run;

import io.tracegraph.domain.graph.GraphSummary;
import io.tracegraph.domain.health.TraceHealth;
import io.tracegraph.domain.memory.DeviceMemory;
import java.util.List;
import java.util.Objects;

/**
 * A stored run for a person to read: its metadata and outcome, its health (warnings only, with the
 * coverage counts: stored runs are structurally valid; a failed capture is not trusted), its graph
 * summary (measured total, slowest and heaviest spans, memory totals with the peak by category),
 * its memory per device and the bundle it came in.
 *
 * @param bundle the verified candle-graph bundle the run's trace came in, or {@code null}
 */
public record RunSummary(StoredRun run, TraceHealth health, GraphSummary summary, List<DeviceMemory> devices,
        BundleIdentity bundle) {
    public RunSummary {
        Objects.requireNonNull(run, "run");
        Objects.requireNonNull(health, "health");
        Objects.requireNonNull(summary, "summary");
        devices = List.copyOf(devices);
    }

    /** A summary of a run that came in no bundle. */
    public RunSummary(StoredRun run, TraceHealth health, GraphSummary summary, List<DeviceMemory> devices) {
        this(run, health, summary, devices, null);
    }
}
