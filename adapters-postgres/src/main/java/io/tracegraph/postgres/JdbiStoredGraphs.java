package io.tracegraph.postgres;

import static io.tracegraph.postgres.Reads.DAEMON;
import static io.tracegraph.postgres.Reads.call;
import static io.tracegraph.postgres.Reads.gone;
import static io.tracegraph.postgres.Reads.join;
import static io.tracegraph.postgres.RunRows.FETCH_SIZE;
import static io.tracegraph.postgres.RunRows.category;
import static io.tracegraph.postgres.RunRows.devices;
import static io.tracegraph.postgres.RunRows.graphSummary;
import static io.tracegraph.postgres.RunRows.header;
import static io.tracegraph.postgres.RunRows.upper;

import io.tracegraph.domain.graph.ExecutionGraph;
import io.tracegraph.domain.graph.GradientRecord;
import io.tracegraph.domain.graph.GraphEdge;
import io.tracegraph.domain.graph.GraphEdgeKind;
import io.tracegraph.domain.graph.GraphNode;
import io.tracegraph.domain.graph.GraphNodeKind;
import io.tracegraph.domain.graph.GraphSummary;
import io.tracegraph.domain.graph.TensorRecord;
import io.tracegraph.domain.memory.CategoryBytes;
import io.tracegraph.domain.memory.LiveAllocation;
import io.tracegraph.domain.memory.MemoryProfile;
import io.tracegraph.domain.memory.TimelinePoint;
import io.tracegraph.domain.port.StoredGraphs;
import io.tracegraph.domain.run.RunRef;
import io.tracegraph.domain.trace.MemoryCategory;
import io.tracegraph.domain.trace.Shape;
import io.tracegraph.postgres.RunRows.Header;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.transaction.TransactionIsolationLevel;

/**
 * The PostgreSQL reader of stored execution graphs, whole or by part, each part in its stored order
 * and read in one snapshot (a repeatable-read transaction).
 */
final class JdbiStoredGraphs implements StoredGraphs {
    /** The category columns of memory_timeline, in category order. */
    private static final String TIMELINE_CATEGORIES = Arrays.stream(MemoryCategory.ordered())
            .map(c -> c.name().toLowerCase(Locale.ROOT) + "_bytes")
            .reduce((a, b) -> a + ", " + b)
            .orElseThrow();
    /** The kinds by their stored (lower-case) names: hundreds of thousands of rows name one. */
    private static final Map<String, GraphNodeKind> NODE_KINDS = Arrays.stream(GraphNodeKind.values())
            .collect(Collectors.toUnmodifiableMap(k -> k.name().toLowerCase(Locale.ROOT), k -> k));
    private static final Map<String, GraphEdgeKind> EDGE_KINDS = Arrays.stream(GraphEdgeKind.values())
            .collect(Collectors.toUnmodifiableMap(k -> k.name().toLowerCase(Locale.ROOT), k -> k));

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
            // With the nodes, the edges are read at the same time on a connection of their own (a
            // stored run never changes; the count tells whether it was deleted meanwhile).
            boolean apart = parts.contains(GraphPart.NODES) && parts.contains(GraphPart.EDGES)
                    && head.stored().edgeCount() >= edgesApartFrom;
            ExecutorService reader = apart ? Executors.newSingleThreadExecutor(DAEMON) : null;
            try {
                CompletableFuture<List<GraphEdge>> edgesApart = apart ? CompletableFuture.supplyAsync(() -> call(
                        () -> jdbi.inTransaction(TransactionIsolationLevel.REPEATABLE_READ,
                                other -> edges(other, key, head))), reader) : null;
                List<GraphNode> nodes = parts.contains(GraphPart.NODES) ? nodes(h, key, head) : List.of();
                List<GraphEdge> edges = apart ? join(edgesApart)
                        : parts.contains(GraphPart.EDGES) ? edges(h, key, head) : List.of();
                if (apart && edges.size() != head.stored().edgeCount()) {
                    throw gone(run);
                }
                return Optional.of(graph(h, key, head, parts, nodes, edges));
            } finally {
                if (reader != null) {
                    reader.shutdownNow();
                }
            }
        }));
    }

    /** The graph of {@code nodes} and {@code edges} with the other {@code parts} read through {@code h}. */
    private static ExecutionGraph graph(Handle h, long key, Header head, Set<GraphPart> parts, List<GraphNode> nodes,
            List<GraphEdge> edges) {
        List<TensorRecord> tensors = parts.contains(GraphPart.TENSORS) ? tensors(h, key) : List.of();
        List<GradientRecord> gradients = parts.contains(GraphPart.GRADIENTS) ? RunRows.gradients(h, key) : List.of();
        GraphSummary summary = graphSummary(h, key, head);
        MemoryProfile memory = parts.contains(GraphPart.MEMORY)
                ? new MemoryProfile(summary.memory(), timeline(h, key), peakBreakdown(h, key), devices(h, key))
                : new MemoryProfile(summary.memory(), List.of(), List.of(), List.of());
        return new ExecutionGraph(head.stored().graphSchema(), nodes, edges, tensors, gradients, summary, memory);
    }

    private static List<GraphNode> nodes(Handle h, long key, Header head) {
        List<GraphNode> nodes = new ArrayList<>(capacity(head.stored().nodeCount()));
        h.createQuery("SELECT id, parent_id, name, kind, start_ns, self_time_ns, total_time_ns, shape, dtype, "
                + "device, bytes, peak_bytes, residual_bytes, storage_bytes FROM nodes WHERE run_key = :key "
                + "ORDER BY node_idx")
                .bind("key", key)
                .setFetchSize(FETCH_SIZE)
                .map((rs, ctx) -> new GraphNode(rs.getString("id"), rs.getString("parent_id"),
                        rs.getString("name"), nodeKind(rs.getString("kind")), rs.getLong("start_ns"),
                        rs.getLong("self_time_ns"), rs.getLong("total_time_ns"), shape(rs, "shape"),
                        rs.getString("dtype"), rs.getString("device"), rs.getLong("bytes"),
                        rs.getLong("peak_bytes"), rs.getLong("residual_bytes"),
                        rs.getObject("storage_bytes", Long.class)))
                .forEach(nodes::add);
        return nodes;
    }

    private static List<GraphEdge> edges(Handle h, long key, Header head) {
        List<GraphEdge> edges = new ArrayList<>(capacity(head.stored().edgeCount()));
        h.createQuery("SELECT from_id, to_id, kind, duration_ns, label FROM edges WHERE run_key = :key "
                + "ORDER BY edge_idx")
                .bind("key", key)
                .setFetchSize(FETCH_SIZE)
                .map((rs, ctx) -> new GraphEdge(rs.getString("from_id"), rs.getString("to_id"),
                        edgeKind(rs.getString("kind")), rs.getLong("duration_ns"),
                        rs.getString("label")))
                .forEach(edges::add);
        return edges;
    }

    private static List<TensorRecord> tensors(Handle h, long key) {
        return h.createQuery("SELECT span_id, tensor_id, shape, dtype, device, requires_grad, storage_bytes, "
                + "category FROM tensors WHERE run_key = :key ORDER BY tensor_idx")
                .bind("key", key)
                .setFetchSize(FETCH_SIZE)
                .map((rs, ctx) -> new TensorRecord(rs.getString("span_id"), rs.getString("tensor_id"),
                        shape(rs, "shape"), rs.getString("dtype"), rs.getString("device"),
                        rs.getBoolean("requires_grad"), rs.getLong("storage_bytes"),
                        category(rs.getString("category")).orElse(MemoryCategory.OTHER)))
                .list();
    }

    private static List<TimelinePoint> timeline(Handle h, long key) {
        return h.createQuery("SELECT timestamp_ns, device, live_bytes, heap_bytes, free_bytes, "
                + TIMELINE_CATEGORIES + " FROM memory_timeline WHERE run_key = :key ORDER BY point_idx")
                .bind("key", key)
                .setFetchSize(FETCH_SIZE)
                .map((rs, ctx) -> new TimelinePoint(rs.getLong("timestamp_ns"), rs.getString("device"),
                        rs.getLong("live_bytes"), rs.getLong("heap_bytes"), rs.getLong("free_bytes"),
                        timelineCategories(rs)))
                .list();
    }

    private static List<LiveAllocation> peakBreakdown(Handle h, long key) {
        return h.createQuery("SELECT tensor_id, span_id, op_name, bytes, shape, dtype, device, category "
                + "FROM memory_peak_breakdown WHERE run_key = :key ORDER BY rank")
                .bind("key", key)
                .setFetchSize(FETCH_SIZE)
                .map((rs, ctx) -> new LiveAllocation(rs.getString("tensor_id"), rs.getString("span_id"),
                        rs.getString("op_name"), rs.getLong("bytes"), shape(rs, "shape"), rs.getString("dtype"),
                        rs.getString("device"), category(rs.getString("category")).orElse(MemoryCategory.OTHER)))
                .list();
    }

    private static int capacity(long count) {
        return (int) Math.min(Math.max(count, 0), Integer.MAX_VALUE - 8);
    }

    private static GraphNodeKind nodeKind(String wire) {
        GraphNodeKind kind = NODE_KINDS.get(wire);
        return kind != null ? kind : GraphNodeKind.OTHER;
    }

    private static GraphEdgeKind edgeKind(String wire) {
        GraphEdgeKind kind = EDGE_KINDS.get(wire);
        return kind != null ? kind : GraphEdgeKind.valueOf(upper(wire));
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

    /** A timeline point's categories: the columns that are not NULL. */
    private static CategoryBytes timelineCategories(ResultSet rs) throws SQLException {
        Map<MemoryCategory, Long> present = new EnumMap<>(MemoryCategory.class);
        for (MemoryCategory category : MemoryCategory.ordered()) {
            long bytes = rs.getLong(category.name().toLowerCase(Locale.ROOT) + "_bytes");
            if (!rs.wasNull()) {
                present.put(category, bytes);
            }
        }
        return CategoryBytes.of(present);
    }

    @Override
    public List<GradientRecord> gradients(RunRef run) {
        return call(() -> jdbi.withHandle(h -> RunRows.gradients(h, run.key())));
    }
}
