package io.tracegraph.domain.port;

import io.tracegraph.domain.graph.ExecutionGraph;
import io.tracegraph.domain.graph.GradientRecord;
import io.tracegraph.domain.run.RunRef;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** The execution graphs of stored runs, read back as they were stored. Nothing here changes the store. */
public interface StoredGraphs {
    /**
     * The run's whole execution graph as it was stored (nodes with their device times, edges, tensors,
     * gradients, tensor statistics, summary, memory profile and capture facts, each in its stored
     * order): the graph that building its trace gives; empty when the run is no longer stored.
     */
    default Optional<ExecutionGraph> graph(RunRef run) {
        return graph(run, EnumSet.allOf(GraphPart.class));
    }

    /**
     * The run's execution graph with only the {@code parts} asked for read (the others empty: no
     * nodes, no edges, ..., a memory profile with its summary only); the summary and the capture
     * facts (outcome, contract, identity) always come.
     * A query about the slowest spans of a 100,000-node run need not read its 250,000 edges.
     */
    Optional<ExecutionGraph> graph(RunRef run, Set<GraphPart> parts);

    /** The run's gradient records in trace order; empty when the run is not stored. */
    List<GradientRecord> gradients(RunRef run);

    /** The parts of a stored graph that {@link #graph(RunRef, Set)} reads on request. */
    enum GraphPart {
        /** The nodes, each with its device times. */
        NODES, EDGES, TENSORS, GRADIENTS,
        /** The memory profile's timeline, peak breakdown and devices (its summary always comes). */
        MEMORY,
        /** The tensor statistics (candle-graph trace/10). */
        TENSOR_STATS
    }
}
