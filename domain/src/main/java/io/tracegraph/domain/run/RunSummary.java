package io.tracegraph.domain.run;

import io.tracegraph.domain.graph.GraphSummary;
import io.tracegraph.domain.health.TraceHealth;
import io.tracegraph.domain.memory.DeviceMemory;
import java.util.List;
import java.util.Objects;

/**
 * A stored run for a person to read: its metadata, its health (stored runs are trusted: warnings
 * only, with the coverage counts), its graph summary (measured total, slowest and heaviest spans,
 * memory totals with the peak by category) and its memory per device.
 */
public record RunSummary(StoredRun run, TraceHealth health, GraphSummary summary, List<DeviceMemory> devices) {
    public RunSummary {
        Objects.requireNonNull(run, "run");
        Objects.requireNonNull(health, "health");
        Objects.requireNonNull(summary, "summary");
        devices = List.copyOf(devices);
    }
}
