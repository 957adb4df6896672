package io.tracegraph.postgres;

import static io.tracegraph.domain.task.Tasks.join;
import static io.tracegraph.postgres.Reads.DAEMON;
import static io.tracegraph.postgres.Reads.call;
import static io.tracegraph.postgres.Reads.gone;
import static io.tracegraph.postgres.RunRows.FETCH_SIZE;
import static io.tracegraph.postgres.RunRows.category;
import static io.tracegraph.postgres.RunRows.devices;
import static io.tracegraph.postgres.RunRows.graphSummary;
import static io.tracegraph.postgres.RunRows.header;

import io.tracegraph.domain.graph.ExecutionGraph;
import io.tracegraph.domain.graph.GradientRecord;
import io.tracegraph.domain.graph.GraphEdge;
import io.tracegraph.domain.graph.GraphNode;
import io.tracegraph.domain.graph.GraphSummary;
import io.tracegraph.domain.graph.TensorRecord;
import io.tracegraph.domain.memory.MemoryProfile;
import io.tracegraph.domain.port.StoredGraphs;
import io.tracegraph.domain.run.RunRef;
import io.tracegraph.domain.trace.MemoryCategory;
import io.tracegraph.domain.trace.Shape;
import io.tracegraph.domain.trace.TensorStats;
import io.tracegraph.postgres.RunRows.Header;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.transaction.TransactionIsolationLevel;

/**
 * The PostgreSQL reader of stored execution graphs, whole or by part, each part in its stored order
 * and read in one snapshot (a repeatable-read transaction).
 */
final class JdbiStoredGraphs implements StoredGraphs {
    private final Jdbi jdbi;
    private final int edgesApartFrom;

    JdbiStoredGraphs(Jdbi jdbi) {
        this(jdbi, FETCH_SIZE);
    }

    /** {@code edgesApartFrom}: from how many edges on, {@link #graph} reads them beside the nodes. */
    JdbiStoredGraphs(Jdbi jdbi, int edgesApartFrom) {
        this.jdbi = Objects.requireNonNull(jdbi, "jdbi");
        this.edgesApartFrom = edgesApartFrom;
    }

    @Override
    public Optional<ExecutionGraph> graph(RunRef run, Set<GraphPart> parts) {
        return call(() -> jdbi.inTransaction(TransactionIsolationLevel.REPEATABLE_READ, h -> {
            Optional<Header> header = header(h, run.key());
            if (header.isEmpty()) {
                return Optional.empty();
            }
            Header head = header.get();
            long key = run.key();
            boolean packed = parts.contains(GraphPart.NODES) || parts.contains(GraphPart.EDGES)
                    || parts.contains(GraphPart.MEMORY);
            PackReads.Strings strings = packed ? PackReads.strings(h, key, true) : PackReads.Strings.NONE;
            // With the nodes, the edges are read at the same time on a connection of their own (a
            // stored run never changes; the count tells whether it was deleted meanwhile).
            boolean apart = parts.contains(GraphPart.NODES) && parts.contains(GraphPart.EDGES)
                    && head.stored().edgeCount() >= edgesApartFrom;
            ExecutorService reader = apart ? Executors.newSingleThreadExecutor(DAEMON) : null;
            try {
                CompletableFuture<List<GraphEdge>> edgesApart = apart ? CompletableFuture.supplyAsync(() -> call(
                        () -> jdbi.inTransaction(TransactionIsolationLevel.REPEATABLE_READ,
                                other -> PackReads.edges(other, key, strings))), reader) : null;
                List<GraphNode> nodes = parts.contains(GraphPart.NODES) ? PackReads.nodes(h, key, strings)
                        : List.of();
                List<GraphEdge> edges = apart ? join(edgesApart)
                        : parts.contains(GraphPart.EDGES) ? PackReads.edges(h, key, strings) : List.of();
                if (apart && edges.size() != head.stored().edgeCount()) {
                    throw gone(run);
                }
                return Optional.of(graph(h, key, head, parts, strings, nodes, edges));
            } finally {
                if (reader != null) {
                    reader.shutdownNow();
                }
            }
        }));
    }

    /** The graph of {@code nodes} and {@code edges} with the other {@code parts} read through {@code h}. */
    private static ExecutionGraph graph(Handle h, long key, Header head, Set<GraphPart> parts,
            PackReads.Strings strings, List<GraphNode> nodes, List<GraphEdge> edges) throws SQLException {
        List<TensorRecord> tensors = parts.contains(GraphPart.TENSORS) ? tensors(h, key) : List.of();
        List<GradientRecord> gradients = parts.contains(GraphPart.GRADIENTS) ? RunRows.gradients(h, key) : List.of();
        GraphSummary summary = graphSummary(h, key, head);
        MemoryProfile memory = parts.contains(GraphPart.MEMORY)
                ? new MemoryProfile(summary.memory(), PackReads.timeline(h, key, strings),
                        PackReads.peakBreakdown(h, key, strings), devices(h, key))
                : new MemoryProfile(summary.memory(), List.of(), List.of(), List.of());
        List<TensorStats> stats = parts.contains(GraphPart.TENSOR_STATS) ? tensorStats(h, key) : List.of();
        return new ExecutionGraph(head.stored().graphSchema(), nodes, edges, tensors, gradients, summary, memory,
                head.capture(), stats);
    }

    private static List<TensorRecord> tensors(Handle h, long key) {
        return h.createQuery("SELECT span_id, tensor_id, shape, dtype, device, requires_grad, storage_bytes, "
                + "category, label FROM tensors WHERE run_key = :key ORDER BY tensor_idx")
                .bind("key", key)
                .setFetchSize(FETCH_SIZE)
                .map((rs, ctx) -> new TensorRecord(rs.getString("span_id"), rs.getString("tensor_id"),
                        shape(rs, "shape"), rs.getString("dtype"), rs.getString("device"),
                        rs.getBoolean("requires_grad"), rs.getLong("storage_bytes"),
                        category(rs.getString("category")).orElse(MemoryCategory.OTHER), rs.getString("label")))
                .list();
    }

    /** The run's tensor statistics in trace order (V6 rows). */
    static List<TensorStats> tensorStats(Handle h, long key) {
        return h.createQuery("SELECT span_id, label, shape, dtype, elements, non_finite, rms, abs_max, mean "
                + "FROM tensor_stats WHERE run_key = :key ORDER BY stat_idx")
                .bind("key", key)
                .setFetchSize(FETCH_SIZE)
                .map((rs, ctx) -> new TensorStats(rs.getString("span_id"), rs.getString("label"), shape(rs, "shape"),
                        rs.getString("dtype"), rs.getLong("elements"), rs.getLong("non_finite"), rs.getDouble("rms"),
                        rs.getDouble("abs_max"), rs.getDouble("mean")))
                .list();
    }

    private static Shape shape(ResultSet rs, String column) throws SQLException {
        java.sql.Array array = rs.getArray(column);
        if (array == null) {
            return null;
        }
        Long[] dims = (Long[]) array.getArray();
        long[] values = new long[dims.length];
        for (int i = 0; i < dims.length; i++) {
            values[i] = dims[i];
        }
        return Shape.of(values);
    }

    @Override
    public List<GradientRecord> gradients(RunRef run) {
        return call(() -> jdbi.withHandle(h -> RunRows.gradients(h, run.key())));
    }
}
