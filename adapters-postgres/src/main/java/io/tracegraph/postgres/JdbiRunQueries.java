package io.tracegraph.postgres;

import io.tracegraph.domain.compare.GradientFact;
import io.tracegraph.domain.compare.PathColumns;
import io.tracegraph.domain.compare.PathStats;
import io.tracegraph.domain.compare.RunFacts;
import io.tracegraph.domain.graph.ExecutionGraph;
import io.tracegraph.domain.graph.GradientRecord;
import io.tracegraph.domain.graph.GraphEdge;
import io.tracegraph.domain.graph.GraphEdgeKind;
import io.tracegraph.domain.graph.GraphNode;
import io.tracegraph.domain.graph.GraphNodeKind;
import io.tracegraph.domain.graph.GraphSummary;
import io.tracegraph.domain.graph.HeavySpan;
import io.tracegraph.domain.graph.SemanticPaths;
import io.tracegraph.domain.graph.SlowSpan;
import io.tracegraph.domain.graph.TensorRecord;
import io.tracegraph.domain.health.Coverage;
import io.tracegraph.domain.health.HealthIssue;
import io.tracegraph.domain.health.HealthSeverity;
import io.tracegraph.domain.health.TraceHealth;
import io.tracegraph.domain.memory.CategoryBytes;
import io.tracegraph.domain.memory.DeviceMemory;
import io.tracegraph.domain.memory.LiveAllocation;
import io.tracegraph.domain.memory.MemoryProfile;
import io.tracegraph.domain.memory.MemorySummary;
import io.tracegraph.domain.memory.TimelinePoint;
import io.tracegraph.domain.port.RunQueries;
import io.tracegraph.domain.run.PathHistoryPoint;
import io.tracegraph.domain.run.ReadOnlySql;
import io.tracegraph.domain.run.RunFilter;
import io.tracegraph.domain.run.RunListing;
import io.tracegraph.domain.run.RunRef;
import io.tracegraph.domain.run.RunResolution;
import io.tracegraph.domain.run.RunSummary;
import io.tracegraph.domain.run.SqlOutcome;
import io.tracegraph.domain.run.StoredRun;
import io.tracegraph.domain.trace.CodePointOrder;
import io.tracegraph.domain.trace.ExecutionPhase;
import io.tracegraph.domain.trace.GradientState;
import io.tracegraph.domain.trace.MemoryCategory;
import io.tracegraph.domain.trace.RunMeta;
import io.tracegraph.domain.trace.Shape;
import io.tracegraph.domain.trace.TimingMode;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.JdbiException;
import org.jdbi.v3.core.transaction.TransactionIsolationLevel;

/**
 * The PostgreSQL run queries: plain SELECTs over the store's tables and the views of
 * {@code V2__queries.sql}, every value bound. Questions that take several statements read one
 * snapshot (a repeatable-read transaction).
 */
public final class JdbiRunQueries implements RunQueries {
    /** Newest first: the order of listings and of {@code latest~N}. */
    private static final String NEWEST_FIRST = "captured_at DESC NULLS LAST, imported_at DESC, run_key DESC";
    private static final String OLDEST_FIRST = "captured_at ASC NULLS FIRST, imported_at ASC, run_key ASC";
    private static final Pattern LATEST = Pattern.compile("latest(?:~([0-9]{1,9}))?");
    /** Candidates an ambiguous reference lists. */
    private static final int CANDIDATES = 10;
    /** Newest runs searched for a path given by text whose names may contain {@code /}. */
    private static final int PATH_TEXT_RUNS = 20;
    /** The coverage counts (jsonb written by the run store) as columns {@code coverage_<name>}. */
    private static final String COVERAGE_COLUMNS = String.join(", ", List.of("spans", "closed_spans", "root_spans",
            "measured_spans", "operations", "tensors", "memory_events", "device_memory_samples", "gradients", "edges",
            "forward_spans", "backward_spans", "optimizer_spans").stream()
            .map(name -> "coalesce((coverage->>'" + name + "')::bigint, 0) AS coverage_" + name)
            .toList());
    /** Rows fetched at a time from the tables a whole graph is read from. */
    private static final int FETCH_SIZE = 10_000;
    /** The category columns of memory_timeline, in category order. */
    private static final String TIMELINE_CATEGORIES = Arrays.stream(MemoryCategory.ordered())
            .map(c -> c.name().toLowerCase(Locale.ROOT) + "_bytes")
            .reduce((a, b) -> a + ", " + b)
            .orElseThrow();
    private static final String TAG_ARRAYS = "ARRAY(SELECT t.key FROM jsonb_each_text(tags) t ORDER BY t.key) "
            + "AS tag_keys, ARRAY(SELECT t.value FROM jsonb_each_text(tags) t ORDER BY t.key) AS tag_values";

    /** The kinds by their stored (lower-case) names: hundreds of thousands of rows name one. */
    private static final Map<String, GraphNodeKind> NODE_KINDS = Arrays.stream(GraphNodeKind.values())
            .collect(Collectors.toUnmodifiableMap(k -> k.name().toLowerCase(Locale.ROOT), k -> k));
    private static final Map<String, GraphEdgeKind> EDGE_KINDS = Arrays.stream(GraphEdgeKind.values())
            .collect(Collectors.toUnmodifiableMap(k -> k.name().toLowerCase(Locale.ROOT), k -> k));
    /** The threads that read parts of the store on connections of their own. */
    private static final ThreadFactory DAEMON = task -> {
        Thread thread = new Thread(task, "tracegraph-reader");
        thread.setDaemon(true);
        return thread;
    };

    private final Jdbi jdbi;
    private final Jdbi adHoc;
    private final int parallelism;
    private final int edgesApartFrom;
    /**
     * The path texts the last {@link #facts} call used (its first run's, and those it probed): the
     * next call, mostly about runs with the same paths, need not read them again.
     */
    private volatile PathTexts reference;

    public JdbiRunQueries(Jdbi jdbi) {
        // Twice the cores, at most 4: while one reader decodes, another's rows are being produced.
        this(jdbi, Math.max(2, Math.min(4, 2 * Runtime.getRuntime().availableProcessors())));
    }

    /** {@code parallelism}: how many connections {@link #facts} uses at once. */
    public JdbiRunQueries(Jdbi jdbi, int parallelism) {
        this(jdbi, parallelism, FETCH_SIZE);
    }

    /** {@code edgesApartFrom}: from how many edges on, {@link #graph} reads them beside the nodes. */
    JdbiRunQueries(Jdbi jdbi, int parallelism, int edgesApartFrom) {
        this(jdbi, jdbi, parallelism, edgesApartFrom);
    }

    private JdbiRunQueries(Jdbi jdbi, Jdbi adHoc, int parallelism, int edgesApartFrom) {
        this.jdbi = Objects.requireNonNull(jdbi, "jdbi");
        this.adHoc = Objects.requireNonNull(adHoc, "adHoc");
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism must be at least 1: " + parallelism);
        }
        this.parallelism = parallelism;
        this.edgesApartFrom = edgesApartFrom;
    }

    /**
     * The same queries, with {@link #sql} run through {@code reader}: a login that may only read
     * (the embedded server's {@code tracegraph_reader}), so that SQL the user wrote cannot use
     * rights the store's own login has.
     */
    public JdbiRunQueries sqlAs(Jdbi reader) {
        return new JdbiRunQueries(jdbi, reader, parallelism, edgesApartFrom);
    }

    @Override
    public List<RunListing> runs(RunFilter filter) {
        StringBuilder sql = new StringBuilder("SELECT run_key, run_id, run_timestamp, captured_at, imported_at, "
                + "entrypoint, phase, device, total_ms, coalesce(peak_bytes, 0) AS peak_bytes, " + TAG_ARRAYS
                + " FROM run_overview WHERE true");
        if (filter.entrypoint() != null) {
            sql.append(" AND entrypoint = :entrypoint");
        }
        if (!filter.tags().isEmpty()) {
            sql.append(" AND tags @> CAST(:tags AS jsonb)");
        }
        if (filter.since() != null) {
            sql.append(" AND coalesce(captured_at, imported_at) >= CAST(:since AS timestamptz)");
        }
        sql.append(" ORDER BY ").append(NEWEST_FIRST).append(" LIMIT :limit");
        return call(() -> jdbi.withHandle(h -> {
            var query = h.createQuery(sql.toString()).bind("limit", filter.limit());
            if (filter.entrypoint() != null) {
                query.bind("entrypoint", JdbiRunStore.clean(filter.entrypoint()));
            }
            if (!filter.tags().isEmpty()) {
                query.bind("tags", Json.object(filter.tags()));
            }
            if (filter.since() != null) {
                query.bind("since", filter.since().toString());
            }
            return query.map((rs, ctx) -> new RunListing(new RunRef(rs.getLong("run_key"), rs.getString("run_id")),
                    rs.getString("run_timestamp"), instant(rs, "captured_at"), instant(rs, "imported_at"),
                    rs.getString("entrypoint"), phase(rs.getString("phase")), rs.getString("device"),
                    rs.getDouble("total_ms"), rs.getLong("peak_bytes"), tags(rs))).list();
        }));
    }

    @Override
    public RunResolution resolve(String reference) {
        Objects.requireNonNull(reference, "reference");
        if (reference.isBlank()) {
            return new RunResolution.NotFound(reference, "an empty run reference names no run");
        }
        String ref = JdbiRunStore.clean(reference);
        return call(() -> jdbi.inTransaction(TransactionIsolationLevel.REPEATABLE_READ, h -> {
            Optional<RunRef> exact = h.createQuery("SELECT run_key, run_id FROM runs WHERE run_id = :ref")
                    .bind("ref", ref).map((rs, ctx) -> runRef(rs)).findOne();
            if (exact.isPresent()) {
                return new RunResolution.Found(reference, exact.get());
            }
            Matcher latest = LATEST.matcher(ref);
            if (latest.matches()) {
                int back = latest.group(1) == null ? 0 : Integer.parseInt(latest.group(1));
                Optional<RunRef> found = h.createQuery("SELECT run_key, run_id FROM runs ORDER BY " + NEWEST_FIRST
                        + " OFFSET :back LIMIT 1").bind("back", back).map((rs, ctx) -> runRef(rs)).findOne();
                if (found.isPresent()) {
                    return new RunResolution.Found(reference, found.get());
                }
                long stored = h.createQuery("SELECT count(*) FROM runs").mapTo(Long.class).one();
                return new RunResolution.NotFound(reference, stored == 0 ? "no runs are stored"
                        : "`" + reference + "` is not stored: there " + (stored == 1 ? "is 1 run" : "are " + stored
                        + " runs") + " (latest to latest~" + (stored - 1) + ")");
            }
            List<Map.Entry<RunRef, Long>> matches = h.createQuery("SELECT run_key, run_id, count(*) OVER () AS "
                    + "matches FROM runs WHERE starts_with(run_id, :ref) ORDER BY " + NEWEST_FIRST + " LIMIT :limit")
                    .bind("ref", ref)
                    .bind("limit", CANDIDATES)
                    .map((rs, ctx) -> Map.entry(runRef(rs), rs.getLong("matches")))
                    .list();
            if (matches.isEmpty()) {
                return new RunResolution.NotFound(reference, "no stored run has the run_id `" + reference
                        + "` or one starting with it");
            }
            if (matches.size() == 1) {
                return new RunResolution.Found(reference, matches.get(0).getKey());
            }
            return new RunResolution.Ambiguous(reference, matches.stream().map(m -> m.getKey().runId()).toList(),
                    matches.get(0).getValue());
        }));
    }

    @Override
    public Optional<RunSummary> summary(RunRef run) {
        return call(() -> jdbi.inTransaction(TransactionIsolationLevel.REPEATABLE_READ, h -> {
            Optional<Header> header = header(h, run.key());
            if (header.isEmpty()) {
                return Optional.empty();
            }
            Header head = header.get();
            List<HealthIssue> issues = h.createQuery("SELECT severity, code, message FROM health_issues "
                    + "WHERE run_key = :key ORDER BY issue_idx")
                    .bind("key", run.key())
                    .map((rs, ctx) -> new HealthIssue(HealthSeverity.valueOf(upper(rs.getString("severity"))),
                            rs.getString("code"), rs.getString("message")))
                    .list();
            TraceHealth health = new TraceHealth(issues.stream().noneMatch(HealthIssue::isError), issues,
                    head.coverage());
            return Optional.of(new RunSummary(head.stored(), health, graphSummary(h, run.key(), head),
                    devices(h, run.key())));
        }));
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

    /** The future's value; a failure as it was thrown (not wrapped in a CompletionException). */
    private static <T> T join(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
    }

    /** The graph of {@code nodes} and {@code edges} with the other {@code parts} read through {@code h}. */
    private static ExecutionGraph graph(Handle h, long key, Header head, Set<GraphPart> parts, List<GraphNode> nodes,
            List<GraphEdge> edges) {
        List<TensorRecord> tensors = parts.contains(GraphPart.TENSORS) ? tensors(h, key) : List.of();
        List<GradientRecord> gradients = parts.contains(GraphPart.GRADIENTS) ? gradients(h, key) : List.of();
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

    private static Optional<Header> header(Handle h, long key) {
        return h.createQuery("SELECT *, " + TAG_ARRAYS + ", " + COVERAGE_COLUMNS + ", "
                + "ARRAY(SELECT c.key FROM jsonb_each_text(peak_by_category) c ORDER BY c.key) AS category_keys, "
                + "ARRAY(SELECT c.value::bigint FROM jsonb_each_text(peak_by_category) c ORDER BY c.key) "
                + "AS category_bytes FROM run_overview WHERE run_key = :key")
                .bind("key", key)
                .map((rs, ctx) -> header(rs))
                .findOne();
    }

    /** The graph summary of a run: its header's total and memory, and the stored top-8 lists. */
    private static GraphSummary graphSummary(Handle h, long key, Header head) {
        List<SlowSpan> slowest = h.createQuery("SELECT e.v->>'id' AS id, e.v->>'name' AS name, "
                + "(e.v->>'self_time_ns')::bigint AS self_time_ns FROM graph_summaries g "
                + "CROSS JOIN LATERAL jsonb_array_elements(g.slowest_spans) WITH ORDINALITY AS e(v, rank) "
                + "WHERE g.run_key = :key ORDER BY e.rank")
                .bind("key", key)
                .map((rs, ctx) -> new SlowSpan(rs.getString("id"), rs.getString("name"),
                        rs.getLong("self_time_ns")))
                .list();
        List<HeavySpan> heaviest = h.createQuery("SELECT e.v->>'id' AS id, e.v->>'name' AS name, "
                + "(e.v->>'bytes')::bigint AS bytes, (e.v->>'peak_bytes')::bigint AS peak_bytes "
                + "FROM graph_summaries g "
                + "CROSS JOIN LATERAL jsonb_array_elements(g.heaviest_spans) WITH ORDINALITY AS e(v, rank) "
                + "WHERE g.run_key = :key ORDER BY e.rank")
                .bind("key", key)
                .map((rs, ctx) -> new HeavySpan(rs.getString("id"), rs.getString("name"), rs.getLong("bytes"),
                        rs.getLong("peak_bytes")))
                .list();
        return new GraphSummary(head.stored().meta().entrypoint(), head.totalMs(), slowest, heaviest, head.memory());
    }

    /** A run's devices in code point order of their names, as the memory analysis lists them. */
    private static List<DeviceMemory> devices(Handle h, long key) {
        List<DeviceMemory> devices = new ArrayList<>(h.createQuery("SELECT device, capacity_bytes, peak_bytes, "
                + "peak_timestamp_ns, alloc_count, free_count FROM memory_devices WHERE run_key = :key")
                .bind("key", key)
                .map((rs, ctx) -> new DeviceMemory(rs.getString("device"), rs.getLong("capacity_bytes"),
                        rs.getLong("peak_bytes"), rs.getLong("peak_timestamp_ns"), rs.getLong("alloc_count"),
                        rs.getLong("free_count")))
                .list());
        devices.sort(Comparator.comparing(DeviceMemory::device, CodePointOrder.COMPARATOR));
        return devices;
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
    public List<PathStats> pathStats(RunRef run) {
        return call(() -> jdbi.inTransaction(TransactionIsolationLevel.REPEATABLE_READ, h -> {
            PackedPaths columns = PackedPaths.read(h, run.key(), run.key());
            String[] texts = pathTexts(h, run);
            if (texts.length != columns.hashes().length) {
                throw new SQLException("run " + run.runId() + " has " + texts.length + " path texts for "
                        + columns.hashes().length + " paths");
            }
            return columns.stats(texts);
        }));
    }

    @Override
    public List<GradientRecord> gradients(RunRef run) {
        return call(() -> jdbi.withHandle(h -> gradients(h, run.key())));
    }

    @Override
    public List<RunFacts> facts(List<RunRef> runs, boolean gradients) {
        List<RunRef> wanted = List.copyOf(runs);
        int n = wanted.size();
        if (n == 0) {
            return List.of();
        }
        // Each run's statistics come as one row of packed columns (path_columns), without path texts:
        // those of the first run are read once (unless an earlier call left some), the runs compared
        // with it mostly have the same paths in the same order, and the few texts still unknown are
        // probed. Each reader keeps one connection for all it reads (a new one costs tens of ms); the
        // tasks are the first run's texts, then each run.
        PathTexts known = reference;
        int tasks = known == null ? n + 1 : n;
        Object[] read = new Object[tasks];
        AtomicInteger next = new AtomicInteger();
        int helpers = Math.min(parallelism, n) - 1;
        ExecutorService pool = helpers <= 0 ? null : Executors.newFixedThreadPool(helpers, DAEMON);
        try {
            List<CompletableFuture<Void>> readers = new ArrayList<>();
            for (int i = 0; i < helpers; i++) {
                readers.add(CompletableFuture.runAsync(() -> call(() -> {
                    try (Handle h = jdbi.open()) {
                        readTasks(h, wanted, known == null, read, next, gradients);
                    }
                    return null;
                }), pool));
            }
            return call(() -> {
                try (Handle h = jdbi.open()) {
                    try {
                        readTasks(h, wanted, known == null, read, next, gradients);
                    } finally {
                        // On failure the helpers find no task left.
                        next.set(tasks);
                    }
                    for (CompletableFuture<Void> reader : readers) {
                        join(reader);
                    }
                    PathTexts texts = known != null ? known : PathTexts.of(wanted.get(0),
                            ((StoredFacts) read[1]).columns().hashes(), (String[]) read[0]);
                    StoredFacts[] stored = new StoredFacts[n];
                    System.arraycopy(read, tasks - n, stored, 0, n);
                    PackedPaths first = stored[0].columns();
                    for (int i = 1; i < n; i++) {
                        stored[i] = stored[i].like(first);
                    }
                    // The texts known already, for all runs at once; then those to probe, on this connection.
                    String[][] names = new String[n][];
                    IntStream.range(0, n).parallel()
                            .forEach(i -> names[i] = texts.known(stored[i].columns().hashes()));
                    for (int i = 0; i < n; i++) {
                        texts.probe(h, wanted.get(i), stored[i].columns().hashes(), names[i]);
                    }
                    RunFacts[] facts = new RunFacts[n];
                    IntStream.range(0, n).parallel().forEach(i -> facts[i] = new RunFacts(wanted.get(i).runId(),
                            stored[i].totalMs(), stored[i].peakBytes(), stored[i].columns().stats(names[i]),
                            stored[i].gradients()));
                    reference = texts;
                    return List.of(facts);
                }
            });
        } finally {
            if (pool != null) {
                pool.shutdownNow();
            }
        }
    }

    /**
     * Does the tasks {@code next} hands out until none is left: with {@code firstTexts}, task 0 reads
     * the first run's path texts and task {@code i + 1} run {@code i}; else task {@code i} reads run
     * {@code i}.
     */
    private static void readTasks(Handle h, List<RunRef> runs, boolean firstTexts, Object[] read, AtomicInteger next,
            boolean gradients) throws SQLException {
        for (int task = next.getAndIncrement(); task < read.length; task = next.getAndIncrement()) {
            if (firstTexts && task == 0) {
                read[0] = pathTexts(h, runs.get(0));
            } else {
                read[task] = storedFacts(h, runs.get(firstTexts ? task - 1 : task), runs.get(0), gradients);
            }
        }
    }

    /** What {@link #facts} reads of one run in one transaction: all but its path texts. */
    private record StoredFacts(double totalMs, long peakBytes, PackedPaths columns, List<GradientFact> gradients) {
        StoredFacts like(PackedPaths first) {
            return new StoredFacts(totalMs, peakBytes, columns.like(first), gradients);
        }
    }

    private static StoredFacts storedFacts(Handle handle, RunRef run, RunRef like, boolean withGradients)
            throws SQLException {
        return handle.inTransaction(TransactionIsolationLevel.REPEATABLE_READ, h -> {
            Map<String, Object> totals = h.createQuery("SELECT r.total_ms, coalesce(m.peak_bytes, 0) AS peak_bytes "
                    + "FROM runs r LEFT JOIN memory_summaries m ON m.run_key = r.run_key WHERE r.run_key = :key")
                    .bind("key", run.key())
                    .mapToMap()
                    .findOne()
                    .orElseThrow(() -> gone(run));
            List<GradientFact> gradients = withGradients
                    ? gradients(h, run.key()).stream().map(GradientFact::of).toList()
                    : List.of();
            return new StoredFacts(((Number) totals.get("total_ms")).doubleValue(),
                    ((Number) totals.get("peak_bytes")).longValue(), PackedPaths.read(h, run.key(), like.key()),
                    gradients);
        });
    }

    private static DatabaseException gone(RunRef run) {
        return new DatabaseException("run `" + run.runId() + "` is no longer stored");
    }

    @Override
    public List<PathHistoryPoint> history(String path, String entrypoint) {
        Objects.requireNonNull(path, "path");
        String text = JdbiRunStore.clean(path);
        long hash = SemanticPaths.hashOf(Arrays.asList(text.split("/", -1)));
        return call(() -> jdbi.inTransaction(TransactionIsolationLevel.REPEATABLE_READ, h -> {
            List<PathHistoryPoint> points = history(h, hash, entrypoint);
            if (!points.isEmpty()) {
                return points;
            }
            // A name containing '/' (or an abbreviated path): find the path by its text in the newest runs.
            var byText = h.createQuery("SELECT n.path_hash FROM (SELECT run_key, captured_at, "
                    + "imported_at FROM runs" + (entrypoint == null ? "" : " WHERE entrypoint = :entrypoint")
                    + " ORDER BY " + NEWEST_FIRST + " LIMIT :runs) r "
                    + "CROSS JOIN LATERAL (SELECT path_hash FROM nodes n WHERE n.run_key = r.run_key "
                    + "AND n.path = :path ORDER BY n.node_idx LIMIT 1) n "
                    + "ORDER BY r." + NEWEST_FIRST.replace(", ", ", r.") + " LIMIT 1")
                    .bind("runs", PATH_TEXT_RUNS)
                    .bind("path", text);
            if (entrypoint != null) {
                byText.bind("entrypoint", JdbiRunStore.clean(entrypoint));
            }
            Optional<Long> found = byText.mapTo(Long.class).findOne();
            return found.isPresent() && found.get() != hash ? history(h, found.get(), entrypoint) : points;
        }));
    }

    private static List<PathHistoryPoint> history(Handle h, long hash, String entrypoint) {
        var query = h.createQuery("SELECT r.run_key, r.run_id, r.run_timestamp, r.captured_at, r.imported_at, "
                + "r.entrypoint, p.* FROM runs r CROSS JOIN LATERAL ("
                + "SELECT (array_agg(n.path ORDER BY n.node_idx))[1] AS path, :hash AS path_hash, "
                + "(array_agg(n.kind ORDER BY n.node_idx))[1] AS kind, count(*) AS count, "
                + "least(sum(n.self_time_ns), 9223372036854775807)::bigint AS self_time_ns, "
                + "least(sum(n.total_time_ns), 9223372036854775807)::bigint AS total_time_ns, "
                + "least(sum(n.bytes), 9223372036854775807)::bigint AS bytes, max(n.peak_bytes) AS peak_bytes "
                + "FROM nodes n WHERE n.run_key = r.run_key AND n.path_hash = :hash) p "
                + "WHERE p.count > 0" + (entrypoint == null ? "" : " AND r.entrypoint = :entrypoint")
                + " ORDER BY r." + OLDEST_FIRST.replace(", ", ", r."))
                .bind("hash", hash);
        if (entrypoint != null) {
            query.bind("entrypoint", JdbiRunStore.clean(entrypoint));
        }
        return query.map((rs, ctx) -> new PathHistoryPoint(runRef(rs), rs.getString("run_timestamp"),
                        instant(rs, "captured_at"), instant(rs, "imported_at"), rs.getString("entrypoint"),
                        pathStats(rs)))
                .list();
    }

    @Override
    public SqlOutcome sql(ReadOnlySql statement) {
        RunQueriesSqlGate.Verdict verdict = RunQueriesSqlGate.check(statement.text());
        if (verdict.refused()) {
            return new SqlOutcome.Refused(verdict.refusal());
        }
        return call(() -> adHoc.withHandle(h -> readOnly(h, verdict.statement(), statement)));
    }

    /**
     * Runs {@code sql} in a read-only transaction that is rolled back. The session is made read-only
     * too, so that a COMMIT slipped past the gate could not open a writable transaction, and
     * {@code standard_conforming_strings} is on, as the gate reads strings.
     */
    private static SqlOutcome readOnly(Handle h, String sql, ReadOnlySql statement) throws SQLException {
        Connection connection = h.getConnection();
        try (Statement session = connection.createStatement()) {
            session.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY");
            session.execute("SET standard_conforming_strings = on");
        }
        h.begin();
        try {
            h.execute("SET TRANSACTION READ ONLY");
            h.createQuery("SELECT set_config('statement_timeout', :timeout, true)")
                    .bind("timeout", Long.toString(statement.timeout().toMillis()))
                    .mapTo(String.class)
                    .one();
            String readOnly = h.createQuery("SELECT current_setting('transaction_read_only')").mapTo(String.class)
                    .one();
            if (!"on".equals(readOnly)) {
                throw new DatabaseException("the database did not open a read-only transaction");
            }
            try (Statement s = connection.createStatement()) {
                s.setEscapeProcessing(false);
                // One row more than wanted tells whether there were more (0: no limit at all).
                s.setMaxRows(statement.maxRows() == Integer.MAX_VALUE ? 0 : statement.maxRows() + 1);
                s.setFetchSize(Math.min(statement.maxRows(), 1000));
                if (!s.execute(sql)) {
                    return new SqlOutcome.Rows(List.of(), List.of(), List.of(), false);
                }
                try (ResultSet rs = s.getResultSet()) {
                    return rows(rs, statement.maxRows());
                }
            }
        } finally {
            h.rollback();
        }
    }

    private static SqlOutcome.Rows rows(ResultSet rs, int maxRows) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        int width = md.getColumnCount();
        List<String> columns = new ArrayList<>(width);
        List<String> types = new ArrayList<>(width);
        for (int c = 1; c <= width; c++) {
            columns.add(md.getColumnLabel(c));
            types.add(md.getColumnTypeName(c));
        }
        List<List<Object>> rows = new ArrayList<>();
        boolean truncated = false;
        while (rs.next()) {
            if (rows.size() == maxRows) {
                truncated = true;
                break;
            }
            List<Object> row = new ArrayList<>(width);
            for (int c = 1; c <= width; c++) {
                row.add(RunQueriesSqlValues.value(rs, c, types.get(c - 1)));
            }
            rows.add(row);
        }
        return new SqlOutcome.Rows(columns, types, rows, truncated);
    }

    /**
     * A run's path statistics as stored at import (V4 {@code path_columns}: aggregated as
     * {@link PathStats#ofGraph} aggregates a graph's nodes), in path order, without their texts: one
     * row of packed columns, read with binary COPY (the key is a number of ours, not user input: it
     * is formatted into the statement, which COPY needs). A run without paths may have no row.
     */
    private record PackedPaths(long[] hashes, String[] kinds, long[] counts, long[] self, long[] total,
            long[] bytes, long[] peak) {
        private static final PackedPaths NONE = new PackedPaths(new long[0], new String[0], new long[0], new long[0],
                new long[0], new long[0], new long[0]);
        private static final String[] COLUMNS = {"path_hashes", "kinds", "counts", "self_times_ns", "total_times_ns",
            "bytes", "peak_bytes"};

        /**
         * Reads run {@code key}'s row. Its columns equal to those of run {@code like} (the first run of
         * a comparison; told by their digests, without reading them) come as null (NULL: not sent):
         * the runs of one model mostly have the same paths, kinds, counts and bytes, which need not
         * be sent and decoded again, and {@link #like} takes them from that run.
         */
        static PackedPaths read(Handle h, long key, long like) throws SQLException {
            StringBuilder query = new StringBuilder("COPY (SELECT p.paths");
            for (int c = 0; c < COLUMNS.length; c++) {
                if (key == like) {
                    query.append(", p.").append(COLUMNS[c]);
                } else {
                    // By their digests (V4): a column equal to the other run's is not even read.
                    String digest = "(p.digests, " + (1 + 32 * c) + ", 32)";
                    query.append(", CASE WHEN substr").append(digest).append(" = substr")
                            .append(digest.replace("p.", "l.")).append(" THEN NULL ELSE p.").append(COLUMNS[c])
                            .append(" END");
                }
            }
            query.append(" FROM path_columns p");
            if (key != like) {
                query.append(" LEFT JOIN path_columns l ON l.run_key = ").append(like);
            }
            query.append(" WHERE p.run_key = ").append(key).append(") TO STDOUT (FORMAT binary)");
            BinaryCopyReader copy = BinaryCopyReader.read(h.getConnection(), query.toString());
            if (!copy.nextRow()) {
                return NONE;
            }
            int n = copy.int4();
            return new PackedPaths(copy.int8Packed(n), copy.kindLines(n), copy.int8Packed(n), copy.int8Packed(n),
                    copy.int8Packed(n), copy.int8Packed(n), copy.int8Packed(n));
        }

        /** These columns, those not sent taken from {@code first} (the run they equal, shared). */
        PackedPaths like(PackedPaths first) {
            return new PackedPaths(hashes != null ? hashes : first.hashes, kinds != null ? kinds : first.kinds,
                    counts != null ? counts : first.counts, self != null ? self : first.self,
                    total != null ? total : first.total, bytes != null ? bytes : first.bytes,
                    peak != null ? peak : first.peak);
        }

        /** The statistics, {@code texts[i]} naming path {@code i}. */
        PathColumns stats(String[] texts) {
            return PathColumns.of(texts, hashes, kinds, counts, self, total, bytes, peak);
        }
    }

    /** A run's path texts in path order (V3 {@code path_stats}), as one array. */
    private static String[] pathTexts(Handle h, RunRef run) throws SQLException {
        BinaryCopyReader copy = BinaryCopyReader.read(h.getConnection(), "COPY (SELECT coalesce(array_agg(path "
                + "ORDER BY path_rank), '{}') FROM path_stats WHERE run_key = " + run.key()
                + ") TO STDOUT (FORMAT binary)");
        return copy.nextRow() ? copy.textArray() : new String[0];
    }

    /**
     * Path texts by path hash, from one run's paths in path order: a hash always names the same text.
     * The runs of one model have mostly the same paths in the same order, so a run's hashes are first
     * matched position by position, then by hash; the texts still unknown are probed in the store.
     */
    private static final class PathTexts {
        private final long[] hashes;
        private final String[] texts;
        private final Map<Long, String> probed = new ConcurrentHashMap<>();
        private volatile Map<Long, String> byHash;

        private PathTexts(long[] hashes, String[] texts) {
            this.hashes = hashes;
            this.texts = texts;
        }

        /** The texts of {@code run}'s paths, read apart from their hashes (in another transaction). */
        static PathTexts of(RunRef run, long[] hashes, String[] texts) {
            if (hashes.length != texts.length) {
                // A run's rows never change: it was deleted in between.
                throw gone(run);
            }
            return new PathTexts(hashes, texts);
        }

        /** The texts of the paths whose hashes are {@code wanted}, in their order; null where not known. */
        String[] known(long[] wanted) {
            if (wanted == hashes) {
                // The paths of the run the texts were read for (shared, as they are by the runs alike).
                return texts;
            }
            String[] found = new String[wanted.length];
            for (int i = 0; i < wanted.length; i++) {
                long hash = wanted[i];
                found[i] = i < hashes.length && hashes[i] == hash ? texts[i] : byHash().get(hash);
                if (found[i] == null) {
                    found[i] = probed.get(hash);
                }
            }
            return found;
        }

        /** Fills in the texts {@link #known} left null, from {@code run}'s paths in the store. */
        void probe(Handle h, RunRef run, long[] wanted, String[] found) {
            List<Long> unknown = new ArrayList<>();
            for (int i = 0; i < found.length; i++) {
                if (found[i] == null) {
                    unknown.add(wanted[i]);
                }
            }
            if (unknown.isEmpty()) {
                return;
            }
            // Few: probe them; many: read the run's texts whole.
            var query = unknown.size() * 4 < wanted.length
                    ? h.createQuery("SELECT path_hash, path FROM path_stats WHERE run_key = :key "
                            + "AND path_hash = ANY(:missing)").bindArray("missing", Long.class, unknown)
                    : h.createQuery("SELECT path_hash, path FROM path_stats WHERE run_key = :key");
            query.bind("key", run.key())
                    .map((rs, ctx) -> Map.entry(rs.getLong(1), rs.getString(2)))
                    .forEach(text -> probed.putIfAbsent(text.getKey(), text.getValue()));
            for (int i = 0; i < found.length; i++) {
                if (found[i] == null) {
                    found[i] = probed.get(wanted[i]);
                    if (found[i] == null) {
                        throw gone(run);
                    }
                }
            }
        }

        private Map<Long, String> byHash() {
            Map<Long, String> map = byHash;
            if (map == null) {
                map = new HashMap<>(hashes.length * 2);
                for (int i = 0; i < hashes.length; i++) {
                    map.put(hashes[i], texts[i]);
                }
                byHash = map;
            }
            return map;
        }
    }

    private static PathStats pathStats(ResultSet rs) throws SQLException {
        return new PathStats(rs.getString("path"), rs.getLong("path_hash"), rs.getString("kind"), rs.getLong("count"),
                rs.getLong("self_time_ns"), rs.getLong("total_time_ns"), rs.getLong("bytes"),
                rs.getLong("peak_bytes"));
    }

    private static List<GradientRecord> gradients(Handle h, long key) {
        return h.createQuery("SELECT root, key, state, norm FROM gradients WHERE run_key = :key "
                + "ORDER BY gradient_idx")
                .bind("key", key)
                .map((rs, ctx) -> new GradientRecord(rs.getString("root"), rs.getString("key"),
                        GradientState.valueOf(upper(rs.getString("state"))), rs.getObject("norm", Double.class)))
                .list();
    }

    /** The run_overview row of a run, as domain values. */
    private record Header(StoredRun stored, Coverage coverage, double totalMs, MemorySummary memory) {
    }

    private static Header header(ResultSet rs) throws SQLException {
        RunRef ref = runRef(rs);
        RunMeta meta = new RunMeta(ref.runId(), rs.getString("correlation_id"), rs.getString("entrypoint"),
                phase(rs.getString("phase")), rs.getString("run_timestamp"), rs.getLong("capture_step"),
                rs.getLong("warmup_steps"), rs.getString("device"),
                TimingMode.valueOf(upper(rs.getString("timing_mode"))), tags(rs), rs.getString("candle_version"));
        StoredRun stored = new StoredRun(ref, meta, instant(rs, "captured_at"), instant(rs, "imported_at"),
                rs.getString("source_name"), rs.getString("content_sha256"), rs.getLong("content_bytes"),
                rs.getString("trace_schema"), rs.getString("graph_schema"), rs.getLong("node_count"),
                rs.getLong("edge_count"));
        Coverage coverage = new Coverage(rs.getLong("coverage_spans"), rs.getLong("coverage_closed_spans"),
                rs.getLong("coverage_root_spans"), rs.getLong("coverage_measured_spans"),
                rs.getLong("coverage_operations"), rs.getLong("coverage_tensors"), rs.getLong("coverage_memory_events"),
                rs.getLong("coverage_device_memory_samples"), rs.getLong("coverage_gradients"),
                rs.getLong("coverage_edges"), rs.getLong("coverage_forward_spans"),
                rs.getLong("coverage_backward_spans"), rs.getLong("coverage_optimizer_spans"));
        MemorySummary memory = MemorySummary.EMPTY;
        if (rs.getObject("peak_bytes") != null) {
            Map<MemoryCategory, Long> categories = new EnumMap<>(MemoryCategory.class);
            String[] keys = (String[]) rs.getArray("category_keys").getArray();
            Long[] bytes = (Long[]) rs.getArray("category_bytes").getArray();
            for (int k = 0; k < keys.length; k++) {
                int index = k;
                category(keys[k]).ifPresent(category -> categories.put(category, bytes[index]));
            }
            memory = new MemorySummary(rs.getLong("alloc_count"), rs.getLong("free_count"),
                    rs.getLong("total_alloc_bytes"), rs.getLong("peak_bytes"), rs.getLong("peak_timestamp_ns"),
                    rs.getString("peak_device"), CategoryBytes.of(categories), rs.getLong("autograd_retained_bytes"));
        }
        return new Header(stored, coverage, rs.getDouble("total_ms"), memory);
    }

    private static Optional<MemoryCategory> category(String wire) {
        try {
            return Optional.of(MemoryCategory.valueOf(upper(wire)));
        } catch (IllegalArgumentException e) {
            // A category a newer version wrote: not one this version can show.
            return Optional.empty();
        }
    }

    private static RunRef runRef(ResultSet rs) throws SQLException {
        return new RunRef(rs.getLong("run_key"), rs.getString("run_id"));
    }

    private static Map<String, String> tags(ResultSet rs) throws SQLException {
        String[] keys = (String[]) rs.getArray("tag_keys").getArray();
        String[] values = (String[]) rs.getArray("tag_values").getArray();
        Map<String, String> tags = new HashMap<>(keys.length * 2);
        for (int k = 0; k < keys.length; k++) {
            tags.put(keys[k], values[k]);
        }
        return tags;
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        OffsetDateTime time = rs.getObject(column, OffsetDateTime.class);
        return time == null ? null : time.toInstant();
    }

    private static ExecutionPhase phase(String wire) {
        return ExecutionPhase.valueOf(upper(wire));
    }

    private static String upper(String wire) {
        return wire.toUpperCase(Locale.ROOT);
    }

    private interface Work<T> {
        T run() throws SQLException;
    }

    private static <T> T call(Work<T> work) {
        try {
            return work.run();
        } catch (SQLException | JdbiException e) {
            throw DatabaseException.wrap(e);
        }
    }
}
