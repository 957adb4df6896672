package io.tracegraph.domain.port;

import io.tracegraph.domain.compare.PathStats;
import io.tracegraph.domain.compare.RunFacts;
import io.tracegraph.domain.graph.ExecutionGraph;
import io.tracegraph.domain.graph.GradientRecord;
import io.tracegraph.domain.run.PathHistoryPoint;
import io.tracegraph.domain.run.ReadOnlySql;
import io.tracegraph.domain.run.RunFilter;
import io.tracegraph.domain.run.RunListing;
import io.tracegraph.domain.run.RunRef;
import io.tracegraph.domain.run.RunResolution;
import io.tracegraph.domain.run.RunSummary;
import io.tracegraph.domain.run.SqlOutcome;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Answers questions about stored runs. Nothing here changes the store.
 *
 * <p>"Newest first" is the order of capture time (the meta timestamp, when it is ISO-8601), then of
 * import time: runs whose timestamp is not ISO-8601 come after the others.
 */
public interface RunQueries {
    /** Stored runs matching {@code filter}, newest first. */
    List<RunListing> runs(RunFilter filter);

    /**
     * The run a reference names: a run_id (exactly), {@code latest}, {@code latest~N} (the N-th run
     * before the newest, newest first) or an unambiguous prefix of a run_id.
     */
    RunResolution resolve(String reference);

    /** The run's metadata, health, graph summary and memory, or empty when it is no longer stored. */
    Optional<RunSummary> summary(RunRef run);

    /**
     * The run's whole execution graph as it was stored (nodes, edges, tensors, gradients, summary and
     * memory profile, each in its stored order), or empty when the run is no longer stored.
     */
    default Optional<ExecutionGraph> graph(RunRef run) {
        return graph(run, EnumSet.allOf(GraphPart.class));
    }

    /**
     * The run's execution graph with only the {@code parts} asked for read (the others empty: no
     * nodes, no edges, ..., a memory profile with its summary only); the summary always comes.
     * A query about the slowest spans of a 100,000-node run need not read its 250,000 edges.
     */
    Optional<ExecutionGraph> graph(RunRef run, Set<GraphPart> parts);

    /** The parts of a stored graph that {@link #graph(RunRef, Set)} reads on request. */
    enum GraphPart {
        NODES, EDGES, TENSORS, GRADIENTS,
        /** The memory profile's timeline, peak breakdown and devices (its summary always comes). */
        MEMORY
    }

    /**
     * The run's semantic paths, each aggregated over its occurrences (as
     * {@link PathStats#ofGraph} does for a graph), in path order (code point order of the text, then
     * hash); empty when the run is not stored.
     */
    List<PathStats> pathStats(RunRef run);

    /** The run's gradient records in trace order; empty when the run is not stored. */
    List<GradientRecord> gradients(RunRef run);

    /**
     * What a comparison needs of each run (total time, memory peak, paths and gradients), in the
     * order given, each run's paths as {@link #pathStats} gives them. Runs are read concurrently;
     * this fails when one of them is no longer stored.
     */
    default List<RunFacts> facts(List<RunRef> runs) {
        return facts(runs, true);
    }

    /**
     * {@link #facts(List)}, with each run's gradient records only when {@code gradients} (set
     * comparisons do not use them, and a training run may have tens of thousands).
     */
    List<RunFacts> facts(List<RunRef> runs, boolean gradients);

    /**
     * One semantic path (its text as {@code /}-joined names from the root, like the paths that
     * comparisons print) across the stored runs that have it, oldest first; only runs of
     * {@code entrypoint} unless it is {@code null}.
     */
    List<PathHistoryPoint> history(String path, String entrypoint);

    /**
     * Runs an ad-hoc statement over the store in a read-only transaction. Anything but a single
     * SELECT, WITH, VALUES, TABLE or EXPLAIN statement is refused without being run; a statement
     * that tries to write anyway fails in the read-only transaction (an exception, like any error
     * the database reports for the statement).
     */
    SqlOutcome sql(ReadOnlySql statement);
}
