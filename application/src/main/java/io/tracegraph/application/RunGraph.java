package io.tracegraph.application;

import io.tracegraph.domain.graph.ExecutionGraph;
import io.tracegraph.domain.health.TraceHealth;
import io.tracegraph.domain.run.StoredRun;
import java.util.Objects;

/**
 * A run's graph (whole, unless only some parts of a stored one were asked for) with the health of
 * its trace: a trace file's, built now ({@code stored} is {@code null}), or a stored run's.
 * {@code label} names it for people: the file or the run_id.
 */
public record RunGraph(String label, ExecutionGraph graph, TraceHealth health, StoredRun stored) {
    public RunGraph {
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(graph, "graph");
        Objects.requireNonNull(health, "health");
    }

    /** Whether it was built from a trace file now rather than read from the store. */
    public boolean fromFile() {
        return stored == null;
    }
}
