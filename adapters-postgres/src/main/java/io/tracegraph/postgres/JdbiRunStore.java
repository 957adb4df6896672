package io.tracegraph.postgres;

import io.tracegraph.domain.graph.DeviceSpanCost;
import io.tracegraph.domain.graph.ExecutionGraph;
import io.tracegraph.domain.graph.GradientRecord;
import io.tracegraph.domain.graph.GraphSummary;
import io.tracegraph.domain.graph.HeavySpan;
import io.tracegraph.domain.graph.SlowSpan;
import io.tracegraph.domain.graph.TensorRecord;
import io.tracegraph.domain.health.Coverage;
import io.tracegraph.domain.health.HealthIssue;
import io.tracegraph.domain.memory.CategoryBytes;
import io.tracegraph.domain.memory.DeviceMemory;
import io.tracegraph.domain.memory.MemoryProfile;
import io.tracegraph.domain.memory.MemorySummary;
import io.tracegraph.domain.port.RunStore;
import io.tracegraph.domain.run.BundleFile;
import io.tracegraph.domain.run.BundleIdentity;
import io.tracegraph.domain.run.CampaignCapture;
import io.tracegraph.domain.run.ImportLogEntry;
import io.tracegraph.domain.run.KnownContent;
import io.tracegraph.domain.run.RunToStore;
import io.tracegraph.domain.run.StoreResult;
import io.tracegraph.domain.task.Tasks;
import io.tracegraph.domain.trace.RunMeta;
import io.tracegraph.domain.trace.RunOutcome;
import io.tracegraph.domain.trace.TensorStats;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.JdbiException;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The PostgreSQL run store. A run is written in one transaction: its {@code runs} row first (which
 * settles duplicates and run_id conflicts through the unique constraints, also between concurrent
 * importers), then every child table through binary COPY. Every statement binds its values.
 */
final class JdbiRunStore implements RunStore {
    private static final Logger LOG = LoggerFactory.getLogger(JdbiRunStore.class);
    private final Jdbi jdbi;
    /** The shards of a sharded store (docs/scaling.md), else null. */
    private final Shards shards;

    /**
     * From how many nodes, edges and timeline points on a run's strings are written on a second
     * connection beside the rest (see {@link #writeGraph(Handle, long, RunToStore)}).
     */
    static final int SIDE_CONNECTION_ROWS = 100_000;

    private final int sideConnectionRows;
    /** Whether this store has looked for run_strings rows that failed imports left ({@link #sweepStrings}). */
    private final AtomicBoolean swept = new AtomicBoolean();

    JdbiRunStore(Jdbi jdbi) {
        this(jdbi, null);
    }

    JdbiRunStore(Jdbi jdbi, Shards shards) {
        this(jdbi, shards, SIDE_CONNECTION_ROWS);
    }

    /** {@code sideConnectionRows}: see {@link #SIDE_CONNECTION_ROWS} (tests take 0: every run). */
    JdbiRunStore(Jdbi jdbi, Shards shards, int sideConnectionRows) {
        this.jdbi = Objects.requireNonNull(jdbi, "jdbi");
        this.shards = shards;
        this.sideConnectionRows = sideConnectionRows;
    }

    @Override
    public Optional<KnownContent> knownContent(String contentSha256) {
        return call(() -> jdbi.withHandle(h -> {
            Optional<String> run = h.createQuery("SELECT run_id FROM runs WHERE content_sha256 = :sha")
                    .bind("sha", contentSha256).mapTo(String.class).findOne();
            if (run.isPresent()) {
                return run.map(KnownContent.StoredRun::new);
            }
            return h.createQuery("SELECT reason FROM import_log WHERE content_sha256 = :sha AND content_fault "
                    + "ORDER BY entry_key LIMIT 1")
                    .bind("sha", contentSha256).mapTo(String.class).findOne().map(KnownContent.Rejected::new);
        }));
    }

    @Override
    public StoreResult store(RunToStore run, boolean replace) {
        try {
            if (shards != null) {
                return storeSharded(run, replace);
            }
            sweepStrings();
            return call(() -> jdbi.inTransaction(h -> storeIn(h, run, replace)));
        } catch (DatabaseException e) {
            throw new DatabaseException("storing run `" + run.meta().runId() + "` from " + run.sourceName()
                    + " failed (nothing of it was stored): " + e.getMessage(), e);
        }
    }

    @Override
    public void log(ImportLogEntry entry) {
        call(() -> jdbi.useHandle(h -> h.createUpdate("INSERT INTO import_log (import_id, source_name, outcome, "
                + "reason, run_id, content_sha256, content_fault) VALUES (:importId, :source, :outcome, :reason, "
                + ":runId, :sha, :fault)")
                .bind("importId", entry.importId())
                .bind("source", clean(entry.sourceName()))
                .bind("outcome", entry.outcome().name().toLowerCase(Locale.ROOT))
                .bind("reason", clean(entry.reason()))
                .bind("runId", clean(entry.runId()))
                .bind("sha", entry.contentSha256())
                .bind("fault", entry.contentFault())
                .execute()));
    }

    /**
     * Once per store: deletes the {@code run_strings} rows of run keys no run has, which an import
     * that failed between its two commits left ({@link #writeGraph(Handle, long, RunToStore)}),
     * but those whose import still runs (it holds the key's advisory lock). The catalogue is read
     * again once the keys are locked, so an import that committed meanwhile keeps its strings. A
     * failure here only delays the sweep to the next import.
     */
    private void sweepStrings() {
        if (!swept.compareAndSet(false, true)) {
            return;
        }
        try {
            int deleted = call(() -> jdbi.inTransaction(h -> {
                List<Long> unknown = h.createQuery("SELECT s.run_key FROM run_strings s "
                        + "WHERE NOT EXISTS (SELECT FROM runs r WHERE r.run_key = s.run_key)").mapTo(Long.class).list();
                if (unknown.isEmpty()) {
                    return 0;
                }
                List<Long> locked = h.createQuery("SELECT k FROM unnest(CAST(:keys AS bigint[])) k "
                        + "WHERE pg_try_advisory_xact_lock(k)").bind("keys", unknown.toArray(Long[]::new))
                        .mapTo(Long.class).list();
                return h.createUpdate("DELETE FROM run_strings s WHERE s.run_key = ANY (CAST(:keys AS bigint[])) "
                        + "AND NOT EXISTS (SELECT FROM runs r WHERE r.run_key = s.run_key)")
                        .bind("keys", locked.toArray(Long[]::new)).execute();
            }));
            if (deleted > 0) {
                LOG.info("removed the strings of {} run(s) whose import failed", deleted);
            }
        } catch (DatabaseException e) {
            LOG.warn("could not look for the strings of failed imports: {}", e.getMessage());
        }
    }

    /**
     * A run of a sharded store: its catalogue row is inserted (settling duplicates and conflicts as on
     * one server) and its key locked on the coordinator, its rows written and committed on its shard
     * through a connection of its own, then the catalogue row committed: readers, who see a run's rows
     * only through the catalogue, see all of it or nothing. Rows a failure leaves on the shard belong
     * to no catalogued run and are swept by the next import ({@link Shards#sweepOnce}).
     */
    private StoreResult storeSharded(RunToStore run, boolean replace) {
        shards.sweepOnce();
        long[] replacedKey = {-1};
        StoreResult result = call(() -> jdbi.inTransaction(h -> {
            Optional<Long> key = insertRun(h, run);
            boolean replaced = false;
            if (key.isEmpty()) {
                Map<String, Object> existing = existing(h, run);
                if (existing == null) {
                    key = insertRun(h, run);
                } else if (run.contentSha256().equals(existing.get("content_sha256"))) {
                    return new StoreResult.Duplicate((String) existing.get("run_id"));
                } else if (!replace) {
                    return new StoreResult.Conflict(run.meta().runId(), (String) existing.get("source_name"));
                } else {
                    long old = (Long) existing.get("run_key");
                    h.createUpdate("DELETE FROM public.runs WHERE run_key = :key").bind("key", old).execute();
                    replacedKey[0] = old;
                    key = insertRun(h, run);
                    replaced = true;
                }
                if (key.isEmpty()) {
                    throw new DatabaseException("run `" + run.meta().runId() + "` could not be stored: it was stored "
                            + "concurrently by another import; run the import again");
                }
            }
            long k = key.get();
            h.createQuery("SELECT pg_advisory_xact_lock(:key)").bind("key", k).mapTo(String.class).one();
            ShardLayout.Shard shard = shards.placement(h, k);
            shards.inTransaction(shard, s -> {
                writeGraph(s, k, run, null);
                return null;
            });
            return new StoreResult.Stored(run.meta().runId(), replaced);
        }));
        if (replacedKey[0] >= 0) {
            shards.deleteUncatalogued(replacedKey[0]);
        }
        return result;
    }

    private static Map<String, Object> existing(Handle h, RunToStore run) {
        return h.createQuery("SELECT run_key, run_id, source_name, content_sha256 FROM runs "
                + "WHERE content_sha256 = :sha OR run_id = :runId ORDER BY (content_sha256 = :sha) DESC LIMIT 1")
                .bind("sha", run.contentSha256())
                .bind("runId", clean(run.meta().runId()))
                .mapToMap().findOne().orElse(null);
    }

    private StoreResult storeIn(Handle h, RunToStore run, boolean replace) throws SQLException {
        boolean replaced = false;
        Optional<Long> key = insertRun(h, run);
        if (key.isEmpty()) {
            Map<String, Object> existing = existing(h, run);
            if (existing == null) {
                // The conflicting run vanished between the insert and the lookup: try once more.
                key = insertRun(h, run);
            } else if (run.contentSha256().equals(existing.get("content_sha256"))) {
                return new StoreResult.Duplicate((String) existing.get("run_id"));
            } else if (!replace) {
                return new StoreResult.Conflict(run.meta().runId(), (String) existing.get("source_name"));
            } else {
                h.createCall("{call delete_run(:key)}").bind("key", (Long) existing.get("run_key")).invoke();
                key = insertRun(h, run);
                replaced = true;
            }
            if (key.isEmpty()) {
                throw new DatabaseException("run `" + run.meta().runId() + "` could not be stored: it was stored "
                        + "concurrently by another import; run the import again");
            }
        }
        writeGraph(h, key.get(), run);
        return new StoreResult.Stored(run.meta().runId(), replaced);
    }

    private static Optional<Long> insertRun(Handle h, RunToStore run) {
        RunMeta m = run.meta();
        ExecutionGraph g = run.graph();
        RunOutcome outcome = g.outcome();
        return h.createQuery("INSERT INTO runs (run_id, correlation_id, entrypoint, phase, run_timestamp, captured_at, "
                + "capture_step, warmup_steps, device, timing_mode, tags, candle_version, trace_schema, graph_schema, "
                + "source_name, content_sha256, content_bytes, trusted, coverage, total_ms, node_count, edge_count, "
                + "outcome, outcome_reason, terminal_timestamp_ns, measured_region_device_synchronized, "
                + "comparison_identity, capture_contract, device_time_ns) "
                + "VALUES (:runId, :correlationId, :entrypoint, :phase, :timestamp, :capturedAt, :captureStep, "
                + ":warmupSteps, :device, :timingMode, CAST(:tags AS jsonb), :candleVersion, :traceSchema, "
                + ":graphSchema, :source, :sha, :bytes, :trusted, CAST(:coverage AS jsonb), :totalMs, :nodes, :edges, "
                + ":outcome, :reason, :terminal, :synchronized, CAST(:identity AS jsonb), CAST(:contract AS jsonb), "
                + ":deviceTime) ON CONFLICT DO NOTHING RETURNING run_key")
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
                .bind("coverage", coverage(run.health().coverage(), run.health().outcome().isDeclared()))
                .bind("totalMs", g.summary().totalMs())
                .bind("nodes", (long) g.spans().size())
                .bind("edges", (long) g.edges().size())
                .bind("outcome", wire(outcome.status()))
                .bind("reason", clean(outcome.reason()))
                .bind("terminal", outcome.timestampNs())
                .bind("synchronized", m.measuredRegionDeviceSynchronized())
                .bind("identity", m.comparisonIdentity() == null ? null : CaptureJson.identity(m.comparisonIdentity()))
                .bind("contract", m.captureContract() == null ? null : CaptureJson.contract(m.captureContract()))
                .bind("deviceTime", g.deviceTimeNs())
                .mapTo(Long.class)
                .findOne();
    }

    /**
     * The run's rows on one server. A big run's strings (its {@code run_strings} row: about 40% of
     * the server's work, mostly compressing its text arrays) are written on a second connection, in
     * a transaction of its own, while {@code h} writes the rest: two server processes then share the
     * work. The second transaction commits just before {@code h}'s, once both have written
     * everything. No view or command reaches {@code run_strings} but through a row that {@code h}
     * writes (a run, its node, edge, timeline, breakdown or path pack), so readers still see a run
     * whole or not at all. Should {@code h} fail between the two commits (its server gone), a
     * {@code run_strings} row of a run_key no run has is left behind, which only a query of that
     * table itself can see, until the next import sweeps it ({@link #sweepStrings}); {@code h}
     * holds the run key's advisory lock meanwhile.
     */
    private void writeGraph(Handle h, long key, RunToStore run) throws SQLException {
        ExecutionGraph g = run.graph();
        long rows = (long) g.spans().size() + g.edges().size() + g.memory().timeline().size();
        if (rows < sideConnectionRows) {
            writeGraph(h, key, run, null);
            return;
        }
        // Held until h commits: while it is, the sweep of another import leaves the strings be.
        h.createQuery("SELECT pg_advisory_xact_lock(:key)").bind("key", key).mapTo(String.class).one();
        try (Handle side = jdbi.open()) {
            side.begin();
            try {
                writeGraph(h, key, run, side);
            } catch (Throwable e) {
                try {
                    side.rollback();
                } catch (RuntimeException rollback) {
                    // Its connection may be gone too: the first failure is the one to report.
                    e.addSuppressed(rollback);
                }
                throw e;
            }
            side.commit();
        }
    }

    /**
     * Writes the run's rows through {@code h}; with a {@code side} handle, its strings through that
     * one, on a thread of its own, at the same time.
     */
    private static void writeGraph(Handle h, long key, RunToStore run, Handle side) throws SQLException {
        ExecutionGraph g = run.graph();
        CopyManager copy = h.getConnection().unwrap(PGConnection.class).getCopyAPI();
        RunPacks packs = RunPacks.of(g);
        CompletableFuture<Void> sideWritten = null;
        if (side == null) {
            writeStrings(copy, key, packs);
            writePacks(copy, key, packs);
            writePathPack(copy, key, packs);
        } else {
            CopyManager sideCopy = side.getConnection().unwrap(PGConnection.class).getCopyAPI();
            sideWritten = CompletableFuture.runAsync(() -> call(() -> writeStrings(sideCopy, key, packs)),
                    Tasks.ownThread("store-side"));
        }
        try {
            if (side != null) {
                writePacks(copy, key, packs);
                writePathPack(copy, key, packs);
            }
            writeRows(h, copy, key, run);
        } catch (Throwable e) {
            if (sideWritten != null) {
                // The caller rolls back what the side wrote, once it has stopped.
                sideWritten.exceptionally(x -> null).join();
            }
            throw e;
        }
        if (sideWritten != null) {
            Tasks.join(sideWritten);
        }
    }

    /** The run's rows besides its packs: tensors, gradients, health, memory, summaries. */
    private static void writeRows(Handle h, CopyManager copy, long key, RunToStore run) throws SQLException {
        ExecutionGraph g = run.graph();
        try (CopyRows rows = CopyRows.open(copy, "tensors", "run_key, tensor_idx, span_id, tensor_id, shape, dtype, "
                + "device, requires_grad, storage_bytes, category, label")) {
            List<TensorRecord> tensors = g.tensors();
            for (int i = 0; i < tensors.size(); i++) {
                TensorRecord t = tensors.get(i);
                rows.int8(key).int4(i).text(t.spanId()).text(t.tensorId()).int8Array(t.shape()).text(t.dtype())
                        .text(t.device()).bool(t.requiresGrad()).int8(t.storageBytes()).text(wire(t.category()))
                        .text(t.label());
                rows.endRow();
            }
            rows.finish();
        }
        if (!g.tensorStats().isEmpty()) {
            try (CopyRows rows = CopyRows.open(copy, "tensor_stats", "run_key, stat_idx, span_id, label, shape, dtype, "
                    + "elements, non_finite, rms, abs_max, mean")) {
                List<TensorStats> stats = g.tensorStats();
                for (int i = 0; i < stats.size(); i++) {
                    TensorStats t = stats.get(i);
                    rows.int8(key).int4(i).text(t.spanId()).text(t.label()).int8Array(t.shape()).text(t.dtype())
                            .int8(t.elements()).int8(t.nonFinite()).float8(t.rms()).float8(t.absMax())
                            .float8(t.mean());
                    rows.endRow();
                }
                rows.finish();
            }
        }
        if (run.bundle() != null) {
            writeBundle(h, copy, key, run.bundle());
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
        h.createUpdate("INSERT INTO graph_summaries (run_key, entrypoint, total_ms, slowest_spans, heaviest_spans, "
                + "slowest_device_spans) VALUES (:key, :entrypoint, :totalMs, CAST(:slowest AS jsonb), "
                + "CAST(:heaviest AS jsonb), CAST(:slowestDevice AS jsonb))")
                .bind("key", key)
                .bind("entrypoint", clean(s.entrypoint()))
                .bind("totalMs", s.totalMs())
                .bind("slowest", slowest(s.slowestSpans()))
                .bind("heaviest", heaviest(s.heaviestSpans()))
                .bind("slowestDevice", slowestDevice(s.slowestDeviceSpans()))
                .execute();
    }

    /** The verified bundle the run came in: its row and one row per file bundle.json lists. */
    private static void writeBundle(Handle h, CopyManager copy, long key, BundleIdentity bundle) throws SQLException {
        CampaignCapture c = bundle.campaign();
        h.createUpdate("INSERT INTO run_bundles (run_key, bundle_run_id, manifest_sha256, source, trace_path, "
                + "campaign_id, campaign_source, campaign_entrypoint, campaign_step, campaign_bundle) VALUES (:key, "
                + ":runId, :manifest, :source, :trace, :campaign, :campaignSource, :campaignEntrypoint, :step, "
                + ":campaignBundle)")
                .bind("key", key)
                .bind("runId", clean(bundle.runId()))
                .bind("manifest", bundle.manifestSha256())
                .bind("source", clean(bundle.source()))
                .bind("trace", clean(bundle.tracePath()))
                .bind("campaign", c == null ? null : clean(c.campaignId()))
                .bind("campaignSource", c == null ? null : clean(c.source()))
                .bind("campaignEntrypoint", c == null ? null : clean(c.entrypoint()))
                .bind("step", c == null ? null : c.captureStep())
                .bind("campaignBundle", c == null ? null : clean(c.bundle()))
                .execute();
        try (CopyRows rows = CopyRows.open(copy, "run_bundle_files", "run_key, file_idx, path, bytes, sha256")) {
            List<BundleFile> files = bundle.files();
            for (int i = 0; i < files.size(); i++) {
                BundleFile f = files.get(i);
                rows.int8(key).int4(i).text(f.path()).int8(f.bytes()).text(f.sha256());
                rows.endRow();
            }
            rows.finish();
        }
    }

    /** The SHA-256 of {@code values} as the path digests take them (8-byte big-endian integers). */
    static byte[] sha256(long[] values) {
        return RunPacks.sha256(values);
    }

    /** The run's strings (V5), sent while the columns are packed. */
    private static void writeStrings(CopyManager copy, long key, RunPacks packs) throws SQLException {
        try (CopyRows rows = CopyRows.open(copy, "run_strings", "run_key, words, ids")) {
            rows.int8(key).textArray(packs.words).textArray(packs.ids);
            rows.endRow();
            rows.finish();
        }
    }

    /** The run's packs (V5) but its strings and paths: one row per pack table. */
    private static void writePacks(CopyManager copy, long key, RunPacks packs) throws SQLException {
        writePack(copy, key, "node_packs", "nodes, parents, names, kinds, paths, start_ns, self_times_ns, "
                + "total_times_ns, shapes, dtypes, devices, bytes, peak_bytes, residual_bytes, storage_bytes", packs.nodes);
        writePack(copy, key, "edge_packs", "edges, froms, tos, kinds, durations_ns, labels", packs.edges);
        writePack(copy, key, "timeline_packs", "points, timestamps_ns, devices, live_bytes, heap_bytes, free_bytes, "
                + "activation_bytes, gradient_bytes, optimizer_bytes, other_bytes, parameter_bytes", packs.timeline);
        try (CopyRows rows = CopyRows.open(copy, "breakdown_packs", "run_key, allocations, tensor_ids, span_ids, "
                + "op_names, bytes, shapes, dtypes, devices, categories, storage_ids")) {
            RunPacks.Pack breakdown = Tasks.join(packs.breakdown);
            rows.int8(key).int4(breakdown.count());
            for (byte[] column : breakdown.columns()) {
                rows.bytea(column);
            }
            if (packs.storageIds == null) {
                rows.nul();
            } else {
                rows.bytea(Tasks.join(packs.storageIds));
            }
            rows.endRow();
            rows.finish();
        }
        if (packs.deviceTimes != null) {
            RunPacks.DevicePack device = Tasks.join(packs.deviceTimes);
            try (CopyRows rows = CopyRows.open(copy, "device_time_packs", "run_key, nodes, devices, self_times_ns, "
                    + "total_times_ns")) {
                rows.int8(key).int4(device.nodes()).textArray(device.devices()).byteaArray(device.selfTimes())
                        .byteaArray(device.totalTimes());
                rows.endRow();
                rows.finish();
            }
        }
    }

    /** The run's path statistics (V5, V6's device times). */
    private static void writePathPack(CopyManager copy, long key, RunPacks packs) throws SQLException {
        try (CopyRows rows = CopyRows.open(copy, "path_packs", "run_key, paths, hashes, kinds, counts, self_times_ns, "
                + "total_times_ns, bytes, peak_bytes, depths, by_hash, texts, digests, device_self_times_ns, "
                + "device_total_times_ns, device_digests")) {
            RunPacks.Pack paths = Tasks.join(packs.paths);
            List<byte[]> c = paths.columns();
            rows.int8(key).int4(paths.count()).int8Array(packs.pathHashes);
            for (byte[] column : c) {
                rows.bytea(column);
            }
            rows.textArray(packs.pathTexts).bytea(Tasks.join(packs.pathDigests));
            if (packs.pathDeviceTimes == null) {
                rows.nul().nul().nul();
            } else {
                for (byte[] column : Tasks.join(packs.pathDeviceTimes).columns()) {
                    rows.bytea(column);
                }
                rows.bytea(Tasks.join(packs.pathDeviceDigests));
            }
            rows.endRow();
            rows.finish();
        }
    }

    private static void writePack(CopyManager copy, long key, String table, String columns,
            CompletableFuture<RunPacks.Pack> packed) throws SQLException {
        RunPacks.Pack pack = Tasks.join(packed);
        try (CopyRows rows = CopyRows.open(copy, table, "run_key, " + columns)) {
            rows.int8(key).int4(pack.count());
            for (byte[] column : pack.columns()) {
                rows.bytea(column);
            }
            rows.endRow();
            rows.finish();
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
    }

    /**
     * The coverage counts; a trace that declares its outcome (trace/7 and later) also has its device
     * intervals, call and data edges and tensor statistics counted (a trace/6 run's stay as V1 wrote them).
     */
    private static String coverage(Coverage c, boolean declared) {
        Object[][] counts = {
            {"spans", c.spans()}, {"closed_spans", c.closedSpans()}, {"root_spans", c.rootSpans()},
            {"measured_spans", c.measuredSpans()}, {"operations", c.operations()}, {"tensors", c.tensors()},
            {"memory_events", c.memoryEvents()}, {"device_memory_samples", c.deviceMemorySamples()},
            {"gradients", c.gradients()}, {"edges", c.edges()}, {"forward_spans", c.forwardSpans()},
            {"backward_spans", c.backwardSpans()}, {"optimizer_spans", c.optimizerSpans()}};
        if (declared) {
            Object[][] more = {
                {"device_intervals", c.deviceIntervals()}, {"call_edges", c.callEdges()},
                {"data_edges", c.dataEdges()}, {"tensor_stats", c.tensorStats()}};
            Object[][] all = java.util.Arrays.copyOf(counts, counts.length + more.length);
            System.arraycopy(more, 0, all, counts.length, more.length);
            counts = all;
        }
        return Json.object(counts);
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

    private static String slowestDevice(List<DeviceSpanCost> spans) {
        StringBuilder json = new StringBuilder("[");
        for (DeviceSpanCost s : spans) {
            json.append(json.length() > 1 ? "," : "").append(Json.object(new Object[][] {
                {"id", s.id()}, {"name", s.name()}, {"device", s.device()}, {"self_time_ns", s.selfTimeNs()}}));
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

    /** PostgreSQL text cannot hold U+0000: it is stored as U+FFFD (as in the COPY rows). */
    static String clean(String s) {
        return s == null || s.indexOf('\0') < 0 ? s : s.replace('\0', '\uFFFD');
    }

    private interface Work<T> {
        T run() throws SQLException;
    }

    private interface VoidWork {
        void run() throws SQLException;
    }

    private static <T> T call(Work<T> work) {
        try {
            return work.run();
        } catch (SQLException | JdbiException e) {
            throw DatabaseException.wrap(e);
        }
    }

    private static void call(VoidWork work) {
        call(() -> {
            work.run();
            return null;
        });
    }
}
