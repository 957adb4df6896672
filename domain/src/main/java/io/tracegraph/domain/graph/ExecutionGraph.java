package io.tracegraph.domain.graph;

import io.tracegraph.domain.memory.MemoryProfile;
import io.tracegraph.domain.trace.RunOutcome;
import io.tracegraph.domain.trace.Saturating;
import io.tracegraph.domain.trace.TensorStats;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The execution graph of a trace ({@code candle-graph/graph/3}; graphs of trace/7 and later add
 * the capture facts and tensor statistics). The graph of a failed capture holds what was captured
 * and a failed {@link #outcome()}.
 *
 * @param capture the capture facts of a trace with a terminal record (trace/7 and later),
 *     {@code null} for trace/6
 */
public record ExecutionGraph(String schema, List<GraphNode> spans, List<GraphEdge> edges,
        List<TensorRecord> tensors, List<GradientRecord> gradients, GraphSummary summary, MemoryProfile memory,
        Capture capture, List<TensorStats> tensorStats) {

    public static final String SCHEMA = "candle-graph/graph/3";

    public ExecutionGraph {
        Objects.requireNonNull(schema, "schema");
        spans = List.copyOf(spans);
        // Edges still being built are immutable already (the builder's columns), and not copied.
        edges = edges instanceof EdgeList ? edges : List.copyOf(edges);
        tensors = List.copyOf(tensors);
        gradients = List.copyOf(gradients);
        Objects.requireNonNull(summary, "summary");
        Objects.requireNonNull(memory, "memory");
        tensorStats = List.copyOf(tensorStats);
    }

    /** A graph of a trace/6 trace: no capture facts, no tensor statistics. */
    public ExecutionGraph(String schema, List<GraphNode> spans, List<GraphEdge> edges, List<TensorRecord> tensors,
            List<GradientRecord> gradients, GraphSummary summary, MemoryProfile memory) {
        this(schema, spans, edges, tensors, gradients, summary, memory, null, List.of());
    }

    /** The run's outcome: the capture's, or implied complete for a graph without capture facts. */
    public RunOutcome outcome() {
        return capture == null ? RunOutcome.IMPLIED_COMPLETE : capture.outcome();
    }

    /**
     * The device time of the whole graph: every node's device self time, summed over nodes and
     * devices (the device work its trace attributes to the graph); {@code null} when no node has
     * device time.
     */
    public Long deviceTimeNs() {
        long sum = 0;
        boolean any = false;
        for (GraphNode node : spans) {
            List<DeviceTime> times = node.deviceTimes();
            for (int k = 0; k < times.size(); k++) {    // by index: no iterator made per node
                sum = Saturating.add(sum, times.get(k).selfTimeNs());
                any = true;
            }
        }
        return any ? sum : null;
    }

    /** The first node with that id (a scan: meant for tests and one-off lookups). */
    public Optional<GraphNode> node(String id) {
        return spans.stream().filter(n -> n.id().equals(id)).findFirst();
    }

    /** Whether device work is attributed to any node (its trace records device intervals or kernels). */
    public boolean hasDeviceTime() {
        for (GraphNode n : spans) {
            if (n.parentId() == null && n.hasDeviceTime()) {
                return true;
            }
        }
        return false;
    }

    /**
     * This graph on device time: the nodes with device time at or below them, each with its device
     * self and total time (summed over its devices) as its self and total time, the summary's
     * measured total the roots' device total and its slowest spans those with the most device self
     * time; memory, bytes, tensors and gradients unchanged. Empty of nodes when the graph has no
     * device time.
     */
    public ExecutionGraph onDeviceTime() {
        return DeviceTimeView.of(this);
    }
}
