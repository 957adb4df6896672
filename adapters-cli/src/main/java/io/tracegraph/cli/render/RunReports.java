package io.tracegraph.cli.render;

import io.tracegraph.application.ImportReport;
import io.tracegraph.application.ImportTraces;
import io.tracegraph.domain.graph.DeviceTimeSummary;
import io.tracegraph.domain.graph.GraphSummary;
import io.tracegraph.domain.graph.HeavySpan;
import io.tracegraph.domain.graph.SlowSpan;
import io.tracegraph.domain.graph.TimeBasis;
import io.tracegraph.domain.health.HealthIssue;
import io.tracegraph.domain.memory.DeviceMemory;
import io.tracegraph.domain.memory.MemorySummary;
import io.tracegraph.domain.run.PathHistoryPoint;
import io.tracegraph.domain.run.RunListing;
import io.tracegraph.domain.run.RunSummary;
import io.tracegraph.domain.run.SqlOutcome;
import io.tracegraph.domain.run.StoredRun;
import io.tracegraph.domain.trace.RunMeta;
import io.tracegraph.domain.trace.RunOutcome;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The reports of the commands about stored runs and imports: what {@code show}, {@code runs}, {@code history}, {@code sql} and {@code import} print. */
public final class RunReports {
    private static final int BAR = 40;

    private RunReports() {
    }

    /** {@code show}: a stored run's summary. */
    public static Report show(RunSummary s) {
        return show(s, DeviceTimeSummary.NONE);
    }

    /**
     * {@code show} with the run's device time when it has some: {@code device_time_ms} (every device
     * together) after {@code total_ms}, and two tables after the others, {@code device_time} (each
     * device's) and {@code slowest_on_device} (the nodes with the most device self time). Without
     * device time it is {@link #show(RunSummary)}.
     */
    public static Report show(RunSummary s, DeviceTimeSummary device) {
        StoredRun stored = s.run();
        RunMeta m = stored.meta();
        GraphSummary g = s.summary();
        MemorySummary mem = g.memory();
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("run_id", m.runId());
        facts.put("timestamp", m.timestamp());
        facts.put("entrypoint", m.entrypoint());
        facts.put("phase", m.phase().name().toLowerCase(Locale.ROOT));
        facts.put("device", m.device());
        facts.put("timing_mode", m.timingMode().name().toLowerCase(Locale.ROOT));
        facts.put("capture_step", m.captureStep());
        if (stored.failed()) {
            // Only a failed run says so: the summaries of complete runs stay as they were.
            facts.put("outcome", outcome(stored.outcome()));
            facts.put("outcome_reason", stored.outcome().reason());
        }
        facts.put("tags", m.tags().toString());
        facts.put("source", stored.sourceName());
        facts.put("imported_at", String.valueOf(stored.importedAt()));
        facts.put("nodes", stored.nodeCount());
        facts.put("edges", stored.edgeCount());
        facts.put("total_ms", g.totalMs());
        if (!device.isEmpty()) {
            facts.put("device_time_ms", device.totalTimeNs() / 1e6);
        }
        facts.put("peak_bytes", mem.peakBytes());
        facts.put("peak_device", mem.peakDevice());
        facts.put("peak_timestamp_ns", mem.peakTimestampNs());
        facts.put("autograd_retained_bytes", mem.autogradRetainedBytes());
        Table.Builder warnings = Table.named("health_warnings", "code", "message");
        for (HealthIssue issue : s.health().issues()) {
            warnings.row(issue.code(), issue.message());
        }
        Table.Builder slowest = Table.named("slowest_spans", "id", "name", "self_time_ns");
        for (SlowSpan span : g.slowestSpans()) {
            slowest.row(span.id(), span.name(), span.selfTimeNs());
        }
        Table.Builder heaviest = Table.named("heaviest_spans", "id", "name", "bytes", "peak_bytes");
        for (HeavySpan span : g.heaviestSpans()) {
            heaviest.row(span.id(), span.name(), span.bytes(), span.peakBytes());
        }
        Table.Builder categories = Table.named("peak_by_category", "category", "bytes");
        mem.peakByCategory().asMap().forEach((c, b) -> categories.row(c.name().toLowerCase(Locale.ROOT), b));
        Table.Builder devices = Table.named("devices", "device", "capacity_bytes", "peak_bytes", "peak_timestamp_ns",
                "alloc_count", "free_count");
        for (DeviceMemory d : s.devices()) {
            devices.row(d.device(), d.capacityBytes(), d.peakBytes(), d.peakTimestampNs(), d.allocCount(),
                    d.freeCount());
        }
        if (device.isEmpty()) {
            return new Report(facts, List.of(warnings.build(), slowest.build(), heaviest.build(), categories.build(),
                    devices.build()));
        }
        Table.Builder deviceTime = Table.named("device_time", "device", "device_time_ns");
        device.devices().forEach(t -> deviceTime.row(t.device(), t.totalTimeNs()));
        Table.Builder onDevice = Table.named("slowest_on_device", "id", "name", "device", "device_self_time_ns");
        device.slowest().forEach(c -> onDevice.row(c.id(), c.name(), c.device(), c.selfTimeNs()));
        return new Report(facts, List.of(warnings.build(), slowest.build(), heaviest.build(), categories.build(),
                devices.build(), deviceTime.build(), onDevice.build()));
    }

    /** {@code runs}: the stored runs listed. */
    public static Report runs(List<RunListing> runs) {
        Table.Builder table = Table.named("runs", "run_id", "timestamp", "entrypoint", "phase", "device",
                "total_ms", "peak_bytes", "outcome", "outcome_reason", "tags");
        for (RunListing r : runs) {
            table.row(r.runId(), r.timestamp(), r.entrypoint(), r.phase().name().toLowerCase(Locale.ROOT),
                    r.device(), r.totalMs(), r.peakBytes(), outcome(r.outcome()), r.outcome().reason(),
                    tagText(r.tags()));
        }
        return new Report(Map.of(), List.of(table.build()));
    }

    /** A run's outcome as the store and the reports spell it: {@code complete} or {@code failed}. */
    public static String outcome(RunOutcome outcome) {
        return outcome.isFailed() ? "failed" : "complete";
    }

    private static String tagText(Map<String, String> tags) {
        StringBuilder s = new StringBuilder();
        tags.forEach((k, v) -> s.append(s.length() == 0 ? "" : ",").append(k).append('=').append(v));
        return s.toString();
    }

    /** {@code history}: one path across the runs; a bar chart of the total time in a table. */
    public static Report history(String path, List<PathHistoryPoint> points, Format chosen) {
        return history(path, points, chosen, List.of(), TimeBasis.HOST);
    }

    /** {@code history} that left the failed runs {@code failedLeftOut} out (named in a last fact when some were). */
    public static Report history(String path, List<PathHistoryPoint> points, Format chosen,
            List<String> failedLeftOut) {
        return history(path, points, chosen, failedLeftOut, TimeBasis.HOST);
    }

    /**
     * {@code history} on {@code time}: on device time the points' times are the path's device times,
     * and the report says so first ({@code "time": "device"}).
     */
    public static Report history(String path, List<PathHistoryPoint> points, Format chosen,
            List<String> failedLeftOut, TimeBasis time) {
        long max = points.stream().mapToLong(p -> p.stats().totalTimeNs()).max().orElse(1);
        Table.Builder table = chosen == Format.TABLE
                ? Table.named("history", "run_id", "timestamp", "count", "self_time_ns", "total_time_ns", "bytes",
                        "total_time")
                : Table.named("history", "run_id", "timestamp", "count", "self_time_ns", "total_time_ns", "bytes");
        for (PathHistoryPoint p : points) {
            Object[] row = {p.runId(), p.timestamp(), p.stats().count(), p.stats().selfTimeNs(),
                p.stats().totalTimeNs(), p.stats().bytes(), bar(p.stats().totalTimeNs(), max)};
            table.row(chosen == Format.TABLE ? row : Arrays.copyOf(row, 6));
        }
        Map<String, Object> facts = new LinkedHashMap<>();
        if (time == TimeBasis.DEVICE) {
            facts.put("time", time.wire());
        }
        facts.put("path", path);
        facts.put("runs", (long) points.size());
        if (!failedLeftOut.isEmpty()) {
            facts.put("failed_runs_left_out", String.join(", ", failedLeftOut));
        }
        return new Report(facts, List.of(table.build()));
    }

    private static String bar(long value, long max) {
        int width = max <= 0 ? 0 : (int) Math.round((double) value / max * BAR);
        return "#".repeat(Math.max(width, value > 0 ? 1 : 0));
    }

    /** {@code sql}: the rows a statement gave. */
    public static Report rows(SqlOutcome.Rows rows) {
        Table table = Table.plain("rows", rows.columns(), rows.rows());
        return new Report(Map.of(), List.of(table));
    }

    /** {@code import}: what an import did. */
    public static Report importSummary(ImportReport r) {
        double seconds = r.elapsed().toNanos() / 1e9;
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("traces_seen", r.seen());
        facts.put("imported", r.imported());
        facts.put("replaced", r.replaced());
        facts.put("duplicates_skipped", r.duplicates());
        facts.put("previously_rejected", r.previouslyRejected());
        facts.put("rejected", r.rejected());
        facts.put("failed_runs", r.failedRuns().size());
        facts.put("nodes_stored", r.nodes());
        facts.put("edges_stored", r.edges());
        facts.put("seconds", Math.round(seconds * 100) / 100.0);
        facts.put("mb_per_second", seconds > 0 ? Math.round(r.bytes() / 1e6 / seconds * 10) / 10.0 : 0.0);
        facts.put("nodes_per_second", seconds > 0 ? Math.round(r.nodes() / seconds) : 0L);
        Table.Builder rejections = Table.named("rejections", "source", "reason");
        r.rejections().forEach(x -> rejections.row(x.source(), x.reason()));
        if (r.failedRuns().isEmpty()) {
            return new Report(facts, List.of(rejections.build()));
        }
        // Stored, not rejected: one line each, "stored as failed run: REASON".
        Table.Builder failed = Table.named("failed_captures", "source", "run_id", "note");
        r.failedRuns().forEach(x -> failed.row(x.source(), x.runId(), ImportTraces.FAILED_RUN + x.reason()));
        return new Report(facts, List.of(rejections.build(), failed.build()));
    }
}
