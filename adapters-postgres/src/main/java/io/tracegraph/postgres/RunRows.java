package io.tracegraph.postgres;

import io.tracegraph.domain.compare.PathStats;
import io.tracegraph.domain.graph.Capture;
import io.tracegraph.domain.graph.DeviceSpanCost;
import io.tracegraph.domain.graph.GradientRecord;
import io.tracegraph.domain.graph.GraphSummary;
import io.tracegraph.domain.graph.HeavySpan;
import io.tracegraph.domain.graph.SlowSpan;
import io.tracegraph.domain.health.Coverage;
import io.tracegraph.domain.memory.CategoryBytes;
import io.tracegraph.domain.memory.DeviceMemory;
import io.tracegraph.domain.memory.MemorySummary;
import io.tracegraph.domain.run.RunRef;
import io.tracegraph.domain.run.StoredRun;
import io.tracegraph.domain.trace.CaptureContract;
import io.tracegraph.domain.trace.CodePointOrder;
import io.tracegraph.domain.trace.ComparisonIdentity;
import io.tracegraph.domain.trace.CoverageLevel;
import io.tracegraph.domain.trace.ExpectedGradient;
import io.tracegraph.domain.trace.FamilyExpectation;
import io.tracegraph.domain.trace.GradientContract;
import io.tracegraph.domain.trace.GradientFamily;
import io.tracegraph.domain.trace.MeasurementScope;
import io.tracegraph.domain.trace.ExecutionPhase;
import io.tracegraph.domain.trace.GradientState;
import io.tracegraph.domain.trace.MemoryCategory;
import io.tracegraph.domain.trace.RunMeta;
import io.tracegraph.domain.trace.RunOutcome;
import io.tracegraph.domain.trace.TimingMode;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/**
 * The SQL fragments and row mappings that several readers of stored runs share: the orders of
 * listings, a run's {@code run_overview} row as domain values, its graph summary, devices and
 * gradients, and the wire spellings of enums.
 */
final class RunRows {
    /** Newest first: the order of listings and of {@code latest~N}. */
    static final String NEWEST_FIRST = "captured_at DESC NULLS LAST, imported_at DESC, run_key DESC";
    static final String OLDEST_FIRST = "captured_at ASC NULLS FIRST, imported_at ASC, run_key ASC";

    /**
     * The coverage counts (jsonb written by the run store) as columns {@code coverage_<name>}; a run
     * of trace/6 has no call_edges of its own: all its edges are call edges.
     */
    static final String COVERAGE_COLUMNS = String.join(", ", List.of("spans", "closed_spans", "root_spans",
            "measured_spans", "operations", "tensors", "memory_events", "device_memory_samples", "gradients", "edges",
            "forward_spans", "backward_spans", "optimizer_spans", "device_intervals", "data_edges", "tensor_stats")
            .stream()
            .map(name -> "coalesce((coverage->>'" + name + "')::bigint, 0) AS coverage_" + name)
            .toList()) + ", coalesce((coverage->>'call_edges')::bigint, (coverage->>'edges')::bigint, 0) "
            + "AS coverage_call_edges";

    /** The comparison identity's members (V6 jsonb) as columns {@code identity_<member>}. */
    static final String IDENTITY_COLUMNS = "comparison_identity IS NOT NULL AS has_identity, "
            + String.join(", ", ComparisonIdentity.MEMBERS.stream()
                    .map(name -> "comparison_identity->>'" + name + "' AS identity_" + name).toList());

    /** The capture contract's members (V6 jsonb) as columns {@code contract_<member>}, its gradient manifest aside. */
    static final String CONTRACT_COLUMNS = "capture_contract IS NOT NULL AS has_contract, "
            + String.join(", ", List.of("measurement_scope", "operations", "tensors", "gradients", "logical_memory",
                    "physical_memory", "device_timing").stream()
                    .map(name -> "capture_contract->>'" + name + "' AS contract_" + name).toList())
            + ", " + String.join(", ", List.of("required_semantic_labels", "gpu_expected_semantic_labels",
                    "cpu_only_semantic_labels").stream()
                    .map(name -> "ARRAY(SELECT l.v FROM jsonb_array_elements_text(capture_contract->'" + name
                            + "') WITH ORDINALITY l(v, o) ORDER BY l.o) AS contract_" + name).toList());

    /** Rows fetched at a time from the tables a whole graph is read from. */
    static final int FETCH_SIZE = 10_000;
    static final String TAG_ARRAYS = "ARRAY(SELECT t.key FROM jsonb_each_text(tags) t ORDER BY t.key) "
            + "AS tag_keys, ARRAY(SELECT t.value FROM jsonb_each_text(tags) t ORDER BY t.key) AS tag_values";

    private RunRows() {
    }

    /**
     * The run_overview row of a run, as domain values; {@code capture} the capture facts of a run
     * whose trace declared its outcome (trace/7 and later), else null (as the graph builder gives them).
     */
    record Header(StoredRun stored, Coverage coverage, double totalMs, MemorySummary memory, Capture capture,
            Long deviceTimeNs) {
        RunOutcome outcome() {
            return stored.outcome();
        }
    }

    static Optional<Header> header(Handle h, long key) {
        Optional<Header> header = h.createQuery("SELECT *, " + TAG_ARRAYS + ", " + COVERAGE_COLUMNS + ", "
                + IDENTITY_COLUMNS + ", " + CONTRACT_COLUMNS + ", "
                + "ARRAY(SELECT c.key FROM jsonb_each_text(peak_by_category) c ORDER BY c.key) AS category_keys, "
                + "ARRAY(SELECT c.value::bigint FROM jsonb_each_text(peak_by_category) c ORDER BY c.key) "
                + "AS category_bytes FROM run_overview WHERE run_key = :key")
                .bind("key", key)
                .map((rs, ctx) -> header(rs))
                .findOne();
        if (header.isEmpty() || header.get().stored().meta().captureContract() == null) {
            return header;
        }
        return Optional.of(withGradientContract(h, key, header.get()));
    }

    /** The header with its contract's gradient manifest read (its entries are rows of the jsonb). */
    private static Header withGradientContract(Handle h, long key, Header head) {
        CaptureContract c = head.stored().meta().captureContract();
        String manifest = h.createQuery("SELECT capture_contract->'gradient_contract'->>'manifest_sha256' FROM runs "
                + "WHERE run_key = :key").bind("key", key).mapTo(String.class).findOne().orElse(null);
        if (manifest == null) {
            return head;
        }
        List<ExpectedGradient> expected = h.createQuery("SELECT e.v->>'root' AS root, e.v->>'key' AS key, "
                + "e.v->>'family' AS family FROM runs r CROSS JOIN LATERAL jsonb_array_elements("
                + "r.capture_contract->'gradient_contract'->'expected') WITH ORDINALITY e(v, o) WHERE r.run_key = :key "
                + "ORDER BY e.o")
                .bind("key", key)
                .map((rs, ctx) -> new ExpectedGradient(rs.getString("root"), rs.getString("key"),
                        rs.getString("family")))
                .list();
        List<GradientFamily> families = h.createQuery("SELECT f.v->>'family' AS family, f.v->>'expectation' AS "
                + "expectation, (f.v->>'min_present')::bigint AS min_present FROM runs r CROSS JOIN LATERAL "
                + "jsonb_array_elements(r.capture_contract->'gradient_contract'->'families') WITH ORDINALITY f(v, o) "
                + "WHERE r.run_key = :key ORDER BY f.o")
                .bind("key", key)
                .map((rs, ctx) -> new GradientFamily(rs.getString("family"),
                        FamilyExpectation.valueOf(upper(rs.getString("expectation"))), rs.getLong("min_present")))
                .list();
        CaptureContract contract = new CaptureContract(c.measurementScope(), c.operations(), c.tensors(),
                c.gradients(), new GradientContract(manifest, expected, families), c.logicalMemory(),
                c.physicalMemory(), c.deviceTiming(), c.requiredSemanticLabels(), c.gpuExpectedSemanticLabels(),
                c.cpuOnlySemanticLabels());
        StoredRun s = head.stored();
        RunMeta m = s.meta();
        RunMeta meta = new RunMeta(m.runId(), m.correlationId(), m.entrypoint(), m.phase(), m.timestamp(),
                m.captureStep(), m.warmupSteps(), m.device(), m.timingMode(), m.tags(), m.candleVersion(),
                m.measuredRegionDeviceSynchronized(), contract, m.comparisonIdentity());
        StoredRun stored = new StoredRun(s.run(), meta, s.capturedAt(), s.importedAt(), s.sourceName(),
                s.contentSha256(), s.contentBytes(), s.traceSchema(), s.graphSchema(), s.nodeCount(), s.edgeCount(),
                s.outcome());
        Capture capture = head.capture() == null ? null : new Capture(head.capture().traceSchema(),
                head.capture().outcome(), head.capture().measuredRegionDeviceSynchronized(), contract,
                head.capture().identity());
        return new Header(stored, head.coverage(), head.totalMs(), head.memory(), capture, head.deviceTimeNs());
    }

    static Header header(ResultSet rs) throws SQLException {
        RunRef ref = runRef(rs);
        ComparisonIdentity identity = identity(rs);
        CaptureContract contract = contract(rs);
        boolean synchronizedRegion = rs.getBoolean("measured_region_device_synchronized");
        RunMeta meta = new RunMeta(ref.runId(), rs.getString("correlation_id"), rs.getString("entrypoint"),
                phase(rs.getString("phase")), rs.getString("run_timestamp"), rs.getLong("capture_step"),
                rs.getLong("warmup_steps"), rs.getString("device"),
                TimingMode.valueOf(upper(rs.getString("timing_mode"))), tags(rs), rs.getString("candle_version"),
                synchronizedRegion, contract, identity);
        RunOutcome outcome = outcome(rs);
        StoredRun stored = new StoredRun(ref, meta, instant(rs, "captured_at"), instant(rs, "imported_at"),
                rs.getString("source_name"), rs.getString("content_sha256"), rs.getLong("content_bytes"),
                rs.getString("trace_schema"), rs.getString("graph_schema"), rs.getLong("node_count"),
                rs.getLong("edge_count"), outcome);
        Coverage coverage = new Coverage(rs.getLong("coverage_spans"), rs.getLong("coverage_closed_spans"),
                rs.getLong("coverage_root_spans"), rs.getLong("coverage_measured_spans"),
                rs.getLong("coverage_operations"), rs.getLong("coverage_tensors"), rs.getLong("coverage_memory_events"),
                rs.getLong("coverage_device_memory_samples"), rs.getLong("coverage_gradients"),
                rs.getLong("coverage_edges"), rs.getLong("coverage_forward_spans"),
                rs.getLong("coverage_backward_spans"), rs.getLong("coverage_optimizer_spans"),
                rs.getLong("coverage_device_intervals"), rs.getLong("coverage_call_edges"),
                rs.getLong("coverage_data_edges"), rs.getLong("coverage_tensor_stats"));
        Capture capture = outcome.isDeclared() ? new Capture(stored.traceSchema(), outcome, synchronizedRegion,
                contract, identity) : null;
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
        return new Header(stored, coverage, rs.getDouble("total_ms"), memory, capture,
                rs.getObject("device_time_ns", Long.class));
    }

    /** How the run's capture ended (runs.outcome, outcome_reason, terminal_timestamp_ns). */
    static RunOutcome outcome(ResultSet rs) throws SQLException {
        return new RunOutcome(RunOutcome.Status.valueOf(upper(rs.getString("outcome"))), rs.getString("outcome_reason"),
                rs.getObject("terminal_timestamp_ns", Long.class));
    }

    /** The comparison identity of {@link #IDENTITY_COLUMNS}, or null when the run declared none. */
    static ComparisonIdentity identity(ResultSet rs) throws SQLException {
        if (!rs.getBoolean("has_identity")) {
            return null;
        }
        return new ComparisonIdentity(rs.getString("identity_implementation_id"), rs.getString("identity_workload_id"),
                rs.getString("identity_model_id"), rs.getString("identity_config_id"),
                rs.getString("identity_data_id"), rs.getString("identity_seed_policy"),
                Long.parseLong(rs.getString("identity_physical_batch")),
                Long.parseLong(rs.getString("identity_accumulation_steps")), rs.getString("identity_precision"),
                rs.getString("identity_device_state"), rs.getString("identity_pair_id"));
    }

    /** The capture contract of {@link #CONTRACT_COLUMNS} without its gradient manifest, or null. */
    private static CaptureContract contract(ResultSet rs) throws SQLException {
        if (!rs.getBoolean("has_contract")) {
            return null;
        }
        return new CaptureContract(MeasurementScope.valueOf(upper(rs.getString("contract_measurement_scope"))),
                level(rs, "operations"), level(rs, "tensors"), level(rs, "gradients"), null,
                level(rs, "logical_memory"), level(rs, "physical_memory"), level(rs, "device_timing"),
                labels(rs, "required_semantic_labels"), labels(rs, "gpu_expected_semantic_labels"),
                labels(rs, "cpu_only_semantic_labels"));
    }

    private static CoverageLevel level(ResultSet rs, String member) throws SQLException {
        return CoverageLevel.valueOf(upper(rs.getString("contract_" + member)));
    }

    private static List<String> labels(ResultSet rs, String member) throws SQLException {
        java.sql.Array array = rs.getArray("contract_" + member);
        return array == null ? List.of() : List.of((String[]) array.getArray());
    }

    /** The graph summary of a run: its header's total and memory, and the stored top-8 lists. */
    static GraphSummary graphSummary(Handle h, long key, Header head) {
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
        List<DeviceSpanCost> slowestDevice = h.createQuery("SELECT e.v->>'id' AS id, e.v->>'name' AS name, "
                + "e.v->>'device' AS device, (e.v->>'self_time_ns')::bigint AS self_time_ns FROM graph_summaries g "
                + "CROSS JOIN LATERAL jsonb_array_elements(g.slowest_device_spans) WITH ORDINALITY AS e(v, rank) "
                + "WHERE g.run_key = :key ORDER BY e.rank")
                .bind("key", key)
                .map((rs, ctx) -> new DeviceSpanCost(rs.getString("id"), rs.getString("name"), rs.getString("device"),
                        rs.getLong("self_time_ns")))
                .list();
        return new GraphSummary(head.stored().meta().entrypoint(), head.totalMs(), slowest, heaviest, head.memory(),
                slowestDevice);
    }

    /** A run's devices in code point order of their names, as the memory analysis lists them. */
    static List<DeviceMemory> devices(Handle h, long key) {
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

    static List<GradientRecord> gradients(Handle h, long key) {
        return h.createQuery("SELECT root, key, state, norm FROM gradients WHERE run_key = :key "
                + "ORDER BY gradient_idx")
                .bind("key", key)
                .map((rs, ctx) -> new GradientRecord(rs.getString("root"), rs.getString("key"),
                        GradientState.valueOf(upper(rs.getString("state"))), rs.getObject("norm", Double.class)))
                .list();
    }

    static PathStats pathStats(ResultSet rs) throws SQLException {
        return new PathStats(rs.getString("path"), rs.getLong("path_hash"), rs.getString("kind"), rs.getLong("count"),
                rs.getLong("self_time_ns"), rs.getLong("total_time_ns"), rs.getLong("bytes"),
                rs.getLong("peak_bytes"));
    }

    static Optional<MemoryCategory> category(String wire) {
        try {
            return Optional.of(MemoryCategory.valueOf(upper(wire)));
        } catch (IllegalArgumentException e) {
            // A category a newer version wrote: not one this version can show.
            return Optional.empty();
        }
    }

    static RunRef runRef(ResultSet rs) throws SQLException {
        return new RunRef(rs.getLong("run_key"), rs.getString("run_id"));
    }

    static Map<String, String> tags(ResultSet rs) throws SQLException {
        String[] keys = (String[]) rs.getArray("tag_keys").getArray();
        String[] values = (String[]) rs.getArray("tag_values").getArray();
        Map<String, String> tags = new HashMap<>(keys.length * 2);
        for (int k = 0; k < keys.length; k++) {
            tags.put(keys[k], values[k]);
        }
        return tags;
    }

    static Instant instant(ResultSet rs, String column) throws SQLException {
        OffsetDateTime time = rs.getObject(column, OffsetDateTime.class);
        return time == null ? null : time.toInstant();
    }

    static ExecutionPhase phase(String wire) {
        return ExecutionPhase.valueOf(upper(wire));
    }

    static String upper(String wire) {
        return wire.toUpperCase(Locale.ROOT);
    }
}
