package io.tracegraph.postgres;

import io.tracegraph.domain.compare.PathStats;
import io.tracegraph.domain.graph.ExecutionGraph;
import io.tracegraph.domain.graph.GradientRecord;
import io.tracegraph.domain.graph.GraphEdge;
import io.tracegraph.domain.graph.GraphNode;
import io.tracegraph.domain.graph.GraphSummary;
import io.tracegraph.domain.graph.HeavySpan;
import io.tracegraph.domain.graph.SemanticPaths;
import io.tracegraph.domain.graph.SlowSpan;
import io.tracegraph.domain.graph.TensorRecord;
import io.tracegraph.domain.health.Coverage;
import io.tracegraph.domain.health.HealthIssue;
import io.tracegraph.domain.memory.CategoryBytes;
import io.tracegraph.domain.memory.DeviceMemory;
import io.tracegraph.domain.memory.LiveAllocation;
import io.tracegraph.domain.memory.MemoryProfile;
import io.tracegraph.domain.memory.MemorySummary;
import io.tracegraph.domain.memory.TimelinePoint;
import io.tracegraph.domain.run.RunToStore;
import io.tracegraph.domain.trace.MemoryCategory;
import io.tracegraph.domain.trace.RunMeta;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;

/**
 * The run store as tracegraph wrote it up to schema version 4 (a copy of that release's
 * {@code JdbiRunStore}, writing rows into nodes, path_stats, path_columns, edges,
 * memory_timeline, memory_peak_breakdown and the rest): the tests fill old-layout stores with it
 * to check that migrating them in place keeps every answer. Imports get the given import times,
 * so that what the commands print of them is the same on every run of a test.
 */
public final class V4RunWriter {
    private final Jdbi jdbi;

    /** Writes into {@code config}'s database, which must be at schema version 4. */
    public V4RunWriter(DatabaseConfig config) {
        this.jdbi = Jdbi.create(config.jdbcUrl(), config.user(), config.password());
    }

    /** Stores {@code run} whole, imported at {@code importedAt}; returns its run_key. */
    public long store(RunToStore run, Instant importedAt) throws SQLException {
        return jdbi.inTransaction(h -> {
            long key = insertRun(h, run, importedAt).orElseThrow(() -> new IllegalStateException("run `"
                    + run.meta().runId() + "` is stored already"));
            writeGraph(h, key, run);
            return key;
        });
    }

    private static Optional<Long> insertRun(Handle h, RunToStore run, Instant importedAt) {
        RunMeta m = run.meta();
        ExecutionGraph g = run.graph();
        return h.createQuery("INSERT INTO runs (run_id, correlation_id, entrypoint, phase, run_timestamp, captured_at, "
                + "capture_step, warmup_steps, device, timing_mode, tags, candle_version, trace_schema, graph_schema, "
                + "source_name, content_sha256, content_bytes, trusted, coverage, total_ms, node_count, edge_count, "
                + "imported_at) "
                + "VALUES (:runId, :correlationId, :entrypoint, :phase, :timestamp, :capturedAt, :captureStep, "
                + ":warmupSteps, :device, :timingMode, CAST(:tags AS jsonb), :candleVersion, :traceSchema, "
                + ":graphSchema, :source, :sha, :bytes, :trusted, CAST(:coverage AS jsonb), :totalMs, :nodes, :edges, "
                + ":importedAt) "
                + "ON CONFLICT DO NOTHING RETURNING run_key")
                .bind("runId", clean(m.runId()))
                .bind("correlationId", clean(m.correlationId()))
                .bind("entrypoint", clean(m.entrypoint()))
                .bind("phase", m.phase().name().toLowerCase(Locale.ROOT))
                .bind("timestamp", clean(m.timestamp()))
                .bind("capturedAt", capturedAt(m.timestamp()))
                .bind("captureStep", m.captureStep())
                .bind("warmupSteps", m.warmupSteps())
                .bind("device", clean(m.device()))
                .bind("timingMode", m.timingMode().name().toLowerCase(Locale.ROOT))
                .bind("tags", Json.object(m.tags()))
                .bind("candleVersion", clean(m.candleVersion()))
                .bind("traceSchema", clean(run.traceSchema()))
                .bind("graphSchema", g.schema())
                .bind("source", clean(run.sourceName()))
                .bind("sha", run.contentSha256())
                .bind("bytes", run.contentBytes())
                .bind("trusted", run.health().trusted())
                .bind("coverage", coverage(run.health().coverage()))
                .bind("totalMs", g.summary().totalMs())
                .bind("nodes", (long) g.spans().size())
                .bind("edges", (long) g.edges().size())
                .bind("importedAt", importedAt.atOffset(java.time.ZoneOffset.UTC))
                .mapTo(Long.class)
                .findOne();
    }

    private static void writeGraph(Handle h, long key, RunToStore run) throws SQLException {
        ExecutionGraph g = run.graph();
        CopyManager copy = h.getConnection().unwrap(PGConnection.class).getCopyAPI();
        SemanticPaths paths = SemanticPaths.of(g.spans());
        try (CopyRows rows = CopyRows.open(copy, "nodes", "run_key, node_idx, id, parent_id, name, kind, depth, path, "
                + "path_hash, start_ns, self_time_ns, total_time_ns, shape, dtype, device, bytes, peak_bytes, "
                + "residual_bytes, storage_bytes")) {
            List<GraphNode> nodes = g.spans();
            for (int i = 0; i < nodes.size(); i++) {
                GraphNode n = nodes.get(i);
                rows.int8(key).int4(i).text(n.id()).text(n.parentId()).text(n.name()).text(wire(n.kind()))
                        .int4(paths.depth(i)).text(paths.path(i)).int8(paths.hash(i)).int8(n.startNs())
                        .int8(n.selfTimeNs()).int8(n.totalTimeNs()).int8Array(n.shape()).text(n.dtype())
                        .text(n.device()).int8(n.bytes()).int8(n.peakBytes()).int8(n.residualBytes())
                        .int8(n.storageBytes());
                rows.endRow();
            }
            rows.finish();
        }
        List<PathStats> stats = PathStats.ofGraph(g.spans(), paths);
        try (CopyRows rows = CopyRows.open(copy, "path_stats", "run_key, path_rank, path_hash, path, kind, count, "
                + "self_time_ns, total_time_ns, bytes, peak_bytes")) {
            for (int i = 0; i < stats.size(); i++) {
                PathStats p = stats.get(i);
                rows.int8(key).int4(i).int8(p.pathHash()).text(p.path()).text(p.kind()).int8(p.count())
                        .int8(p.selfTimeNs()).int8(p.totalTimeNs()).int8(p.bytes()).int8(p.peakBytes());
                rows.endRow();
            }
            rows.finish();
        }
        writePathColumns(copy, key, stats);
        try (CopyRows rows = CopyRows.open(copy, "edges", "run_key, edge_idx, from_id, to_id, kind, duration_ns, label")) {
            List<GraphEdge> edges = g.edges();
            for (int i = 0; i < edges.size(); i++) {
                GraphEdge e = edges.get(i);
                rows.int8(key).int4(i).text(e.from()).text(e.to()).text(wire(e.kind())).int8(e.durationNs())
                        .text(e.label());
                rows.endRow();
            }
            rows.finish();
        }
        try (CopyRows rows = CopyRows.open(copy, "tensors", "run_key, tensor_idx, span_id, tensor_id, shape, dtype, "
                + "device, requires_grad, storage_bytes, category")) {
            List<TensorRecord> tensors = g.tensors();
            for (int i = 0; i < tensors.size(); i++) {
                TensorRecord t = tensors.get(i);
                rows.int8(key).int4(i).text(t.spanId()).text(t.tensorId()).int8Array(t.shape()).text(t.dtype())
                        .text(t.device()).bool(t.requiresGrad()).int8(t.storageBytes()).text(wire(t.category()));
                rows.endRow();
            }
            rows.finish();
        }
        try (CopyRows rows = CopyRows.open(copy, "gradients", "run_key, gradient_idx, root, key, state, norm")) {
            List<GradientRecord> gradients = g.gradients();
            for (int i = 0; i < gradients.size(); i++) {
                GradientRecord r = gradients.get(i);
                rows.int8(key).int4(i).text(r.root()).text(r.key()).text(wire(r.state())).float8(r.norm());
                rows.endRow();
            }
            rows.finish();
        }
        try (CopyRows rows = CopyRows.open(copy, "health_issues", "run_key, issue_idx, severity, code, message")) {
            List<HealthIssue> issues = run.health().issues();
            for (int i = 0; i < issues.size(); i++) {
                HealthIssue issue = issues.get(i);
                rows.int8(key).int4(i).text(wire(issue.severity())).text(issue.code()).text(issue.message());
                rows.endRow();
            }
            rows.finish();
        }
        writeMemory(h, copy, key, g.memory());
        GraphSummary s = g.summary();
        h.createUpdate("INSERT INTO graph_summaries (run_key, entrypoint, total_ms, slowest_spans, heaviest_spans) "
                + "VALUES (:key, :entrypoint, :totalMs, CAST(:slowest AS jsonb), CAST(:heaviest AS jsonb))")
                .bind("key", key)
                .bind("entrypoint", clean(s.entrypoint()))
                .bind("totalMs", s.totalMs())
                .bind("slowest", slowest(s.slowestSpans()))
                .bind("heaviest", heaviest(s.heaviestSpans()))
                .execute();
    }

    /** The same statistics as one row of packed columns in path order (V4), which set comparisons read. */
    private static void writePathColumns(CopyManager copy, long key, List<PathStats> stats) throws SQLException {
        int n = stats.size();
        long[] hashes = new long[n];
        String[] kinds = new String[n];
        long[] counts = new long[n];
        long[] self = new long[n];
        long[] total = new long[n];
        long[] bytes = new long[n];
        long[] peak = new long[n];
        for (int i = 0; i < n; i++) {
            PathStats p = stats.get(i);
            hashes[i] = p.pathHash();
            kinds[i] = p.kind();
            counts[i] = p.count();
            self[i] = p.selfTimeNs();
            total[i] = p.totalTimeNs();
            bytes[i] = p.bytes();
            peak[i] = p.peakBytes();
        }
        String kindLines = String.join("\n", kinds);
        ByteBuffer digests = ByteBuffer.allocate(7 * 32);
        digests.put(sha256(hashes)).put(sha256(kindLines.getBytes(StandardCharsets.UTF_8))).put(sha256(counts))
                .put(sha256(self)).put(sha256(total)).put(sha256(bytes)).put(sha256(peak));
        try (CopyRows rows = CopyRows.open(copy, "path_columns", "run_key, paths, path_hashes, kinds, counts, "
                + "self_times_ns, total_times_ns, bytes, peak_bytes, digests")) {
            rows.int8(key).int4(n).int8Packed(hashes).text(kindLines).int8Packed(counts).int8Packed(self)
                    .int8Packed(total).int8Packed(bytes).int8Packed(peak).bytea(digests.array());
            rows.endRow();
            rows.finish();
        }
    }

    /** The SHA-256 of {@code values} packed as path_columns packs them (8-byte big-endian integers). */
    static byte[] sha256(long[] values) {
        ByteBuffer packed = ByteBuffer.allocate(values.length * 8);
        packed.asLongBuffer().put(values);
        return sha256(packed.array());
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java has SHA-256", e);
        }
    }

    private static void writeMemory(Handle h, CopyManager copy, long key, MemoryProfile memory) throws SQLException {
        MemorySummary s = memory.summary();
        h.createUpdate("INSERT INTO memory_summaries (run_key, alloc_count, free_count, total_alloc_bytes, peak_bytes, "
                + "peak_timestamp_ns, peak_device, peak_by_category, autograd_retained_bytes) VALUES (:key, :allocs, "
                + ":frees, :total, :peak, :peakTs, :peakDevice, CAST(:categories AS jsonb), :autograd)")
                .bind("key", key)
                .bind("allocs", s.allocCount())
                .bind("frees", s.freeCount())
                .bind("total", s.totalAllocBytes())
                .bind("peak", s.peakBytes())
                .bind("peakTs", s.peakTimestampNs())
                .bind("peakDevice", clean(s.peakDevice()))
                .bind("categories", categories(s.peakByCategory()))
                .bind("autograd", s.autogradRetainedBytes())
                .execute();
        try (CopyRows rows = CopyRows.open(copy, "memory_devices", "run_key, device, capacity_bytes, peak_bytes, "
                + "peak_timestamp_ns, alloc_count, free_count")) {
            for (DeviceMemory d : memory.byDevice()) {
                rows.int8(key).text(d.device()).int8(d.capacityBytes()).int8(d.peakBytes())
                        .int8(d.peakTimestampNs()).int8(d.allocCount()).int8(d.freeCount());
                rows.endRow();
            }
            rows.finish();
        }
        try (CopyRows rows = CopyRows.open(copy, "memory_timeline", "run_key, point_idx, timestamp_ns, device, "
                + "live_bytes, heap_bytes, free_bytes, activation_bytes, gradient_bytes, optimizer_bytes, other_bytes, "
                + "parameter_bytes")) {
            List<TimelinePoint> timeline = memory.timeline();
            for (int i = 0, n = timeline.size(); i < n; i++) {
                TimelinePoint p = timeline.get(i);
                rows.int8(key).int4(i).int8(p.timestampNs()).text(p.device()).int8(p.liveBytes())
                        .int8(p.heapBytes()).int8(p.freeBytes());
                CategoryBytes c = p.byCategory();
                for (MemoryCategory category : MemoryCategory.ordered()) {
                    if (c.has(category)) {
                        rows.int8(c.get(category));
                    } else {
                        rows.nul();
                    }
                }
                rows.endRow();
            }
            rows.finish();
        }
        try (CopyRows rows = CopyRows.open(copy, "memory_peak_breakdown", "run_key, rank, tensor_id, span_id, op_name, "
                + "bytes, shape, dtype, device, category")) {
            List<LiveAllocation> breakdown = memory.peakBreakdown();
            for (int i = 0; i < breakdown.size(); i++) {
                LiveAllocation a = breakdown.get(i);
                rows.int8(key).int4(i).text(a.tensorId()).text(a.spanId()).text(a.opName()).int8(a.bytes())
                        .int8Array(a.shape()).text(a.dtype()).text(a.device()).text(wire(a.category()));
                rows.endRow();
            }
            rows.finish();
        }
    }

    private static String coverage(Coverage c) {
        return Json.object(new Object[][] {
            {"spans", c.spans()}, {"closed_spans", c.closedSpans()}, {"root_spans", c.rootSpans()},
            {"measured_spans", c.measuredSpans()}, {"operations", c.operations()}, {"tensors", c.tensors()},
            {"memory_events", c.memoryEvents()}, {"device_memory_samples", c.deviceMemorySamples()},
            {"gradients", c.gradients()}, {"edges", c.edges()}, {"forward_spans", c.forwardSpans()},
            {"backward_spans", c.backwardSpans()}, {"optimizer_spans", c.optimizerSpans()}});
    }

    private static String categories(CategoryBytes categories) {
        StringBuilder json = new StringBuilder("{");
        categories.asMap().forEach((category, bytes) -> {
            if (json.length() > 1) {
                json.append(',');
            }
            json.append(Json.string(wire(category))).append(':').append(bytes);
        });
        return json.append('}').toString();
    }

    private static String slowest(List<SlowSpan> spans) {
        StringBuilder json = new StringBuilder("[");
        for (SlowSpan s : spans) {
            json.append(json.length() > 1 ? "," : "").append(Json.object(new Object[][] {
                {"id", s.id()}, {"name", s.name()}, {"self_time_ns", s.selfTimeNs()}}));
        }
        return json.append(']').toString();
    }

    private static String heaviest(List<HeavySpan> spans) {
        StringBuilder json = new StringBuilder("[");
        for (HeavySpan s : spans) {
            json.append(json.length() > 1 ? "," : "").append(Json.object(new Object[][] {
                {"id", s.id()}, {"name", s.name()}, {"bytes", s.bytes()}, {"peak_bytes", s.peakBytes()}}));
        }
        return json.append(']').toString();
    }

    private static OffsetDateTime capturedAt(String timestamp) {
        try {
            return OffsetDateTime.parse(timestamp);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    static String wire(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }

    static String clean(String s) {
        return JdbiRunStore.clean(s);
    }
}
