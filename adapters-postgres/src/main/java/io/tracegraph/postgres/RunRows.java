package io.tracegraph.postgres;

import io.tracegraph.domain.compare.PathStats;
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
import io.tracegraph.domain.trace.CodePointOrder;
import io.tracegraph.domain.trace.ExecutionPhase;
import io.tracegraph.domain.trace.GradientState;
import io.tracegraph.domain.trace.MemoryCategory;
import io.tracegraph.domain.trace.RunMeta;
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

    /** The coverage counts (jsonb written by the run store) as columns {@code coverage_<name>}. */
    static final String COVERAGE_COLUMNS = String.join(", ", List.of("spans", "closed_spans", "root_spans",
            "measured_spans", "operations", "tensors", "memory_events", "device_memory_samples", "gradients", "edges",
            "forward_spans", "backward_spans", "optimizer_spans").stream()
            .map(name -> "coalesce((coverage->>'" + name + "')::bigint, 0) AS coverage_" + name)
            .toList());

    /** Rows fetched at a time from the tables a whole graph is read from. */
    static final int FETCH_SIZE = 10_000;
    static final String TAG_ARRAYS = "ARRAY(SELECT t.key FROM jsonb_each_text(tags) t ORDER BY t.key) "
            + "AS tag_keys, ARRAY(SELECT t.value FROM jsonb_each_text(tags) t ORDER BY t.key) AS tag_values";

    private RunRows() {
    }

    /** The run_overview row of a run, as domain values. */
    record Header(StoredRun stored, Coverage coverage, double totalMs, MemorySummary memory) {
    }

    static Optional<Header> header(Handle h, long key) {
        return h.createQuery("SELECT *, " + TAG_ARRAYS + ", " + COVERAGE_COLUMNS + ", "
                + "ARRAY(SELECT c.key FROM jsonb_each_text(peak_by_category) c ORDER BY c.key) AS category_keys, "
                + "ARRAY(SELECT c.value::bigint FROM jsonb_each_text(peak_by_category) c ORDER BY c.key) "
                + "AS category_bytes FROM run_overview WHERE run_key = :key")
                .bind("key", key)
                .map((rs, ctx) -> header(rs))
                .findOne();
    }

    static Header header(ResultSet rs) throws SQLException {
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
        return new GraphSummary(head.stored().meta().entrypoint(), head.totalMs(), slowest, heaviest, head.memory());
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
