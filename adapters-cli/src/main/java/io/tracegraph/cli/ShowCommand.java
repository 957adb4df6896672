package io.tracegraph.cli;

import io.tracegraph.domain.graph.GraphSummary;
import io.tracegraph.domain.graph.HeavySpan;
import io.tracegraph.domain.graph.SlowSpan;
import io.tracegraph.domain.health.HealthIssue;
import io.tracegraph.domain.memory.DeviceMemory;
import io.tracegraph.domain.memory.MemorySummary;
import io.tracegraph.domain.run.RunRef;
import io.tracegraph.domain.run.RunSummary;
import io.tracegraph.domain.run.StoredRun;
import io.tracegraph.domain.trace.RunMeta;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tracegraph show RUN}. */
@Command(header = "Summarise a stored run: metadata, health, slowest and heaviest spans, memory.", name = "show", mixinStandardHelpOptions = true,
        description = {
            "A stored run's summary: metadata, health warnings, total time, slowest and heaviest "
                    + "spans, memory peak with its breakdown by category and by device. RUN is a run_id, an "
                    + "unambiguous prefix of one, latest or latest~N.",
        })
final class ShowCommand implements Callable<Integer> {
    private final Main.Services services;

    @Mixin
    CommonOptions common;

    @Mixin
    DatabaseOptions database;

    @Parameters(paramLabel = "RUN", description = "The run.")
    String run;

    @Mixin
    FormatOption format;

    ShowCommand(Main.Services services) {
        this.services = services;
    }

    @Override
    public Integer call() {
        try (RunSources sources = new RunSources(services, database)) {
            RunRef ref = sources.resolve(run);
            Optional<RunSummary> found = sources.catalog().summary(ref);
            if (found.isEmpty()) {
                services.io().error("run `" + ref.runId() + "` is no longer stored");
                return ExitCode.REJECTED;
            }
            Report report = report(found.get());
            Format chosen = format.chosen(services.io());
            Output.write(services.io(), null, out -> ReportRenderer.render(report, chosen, out));
            return ExitCode.OK;
        }
    }

    private static Report report(RunSummary s) {
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
        facts.put("tags", m.tags().toString());
        facts.put("source", stored.sourceName());
        facts.put("imported_at", String.valueOf(stored.importedAt()));
        facts.put("nodes", stored.nodeCount());
        facts.put("edges", stored.edgeCount());
        facts.put("total_ms", g.totalMs());
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
        return new Report(facts, List.of(warnings.build(), slowest.build(), heaviest.build(), categories.build(),
                devices.build()));
    }
}
