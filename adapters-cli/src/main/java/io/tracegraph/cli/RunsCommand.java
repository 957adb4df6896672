package io.tracegraph.cli;

import io.tracegraph.application.ListRuns;
import io.tracegraph.cli.render.Format;
import io.tracegraph.cli.render.Report;
import io.tracegraph.cli.render.Rendering;
import io.tracegraph.cli.render.ReportRenderer;
import io.tracegraph.cli.render.RunReports;
import io.tracegraph.domain.run.RunFilter;
import io.tracegraph.domain.run.RunListing;
import io.tracegraph.domain.trace.ComparisonIdentity;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** {@code tracegraph runs [--entrypoint E] [--tag K=V] [--identity MEMBER=VALUE] [--since DATE] [--limit N]}. */
@Command(name = "runs", mixinStandardHelpOptions = true,
        description = "List stored runs, newest first: run_id, timestamp, entrypoint, phase, device, total_ms, "
                + "peak bytes, outcome (complete or failed) and its reason, tags.")
final class RunsCommand implements Callable<Integer> {
    private final Main.Services services;

    @Spec
    CommandSpec spec;

    @Mixin
    CommonOptions common;

    @Mixin
    DatabaseOptions database;

    @Option(names = "--entrypoint", paramLabel = "E", description = "Only runs of this entrypoint.")
    String entrypoint;

    @Option(names = "--tag", paramLabel = "K=V", description = "Only runs with this tag (repeatable).")
    Map<String, String> tags = new LinkedHashMap<>();

    @Option(names = "--identity", paramLabel = "MEMBER=VALUE", description = "Only runs whose comparison identity "
            + "(candle-graph trace/7+) has this member with this value (repeatable), e.g. --identity model_id=llama "
            + "(or model=llama: the _id may be left off); members: workload_id, model_id, config_id, data_id, "
            + "seed_policy, physical_batch, accumulation_steps, precision, device_state, implementation_id, pair_id.")
    Map<String, String> identity = new LinkedHashMap<>();

    @Option(names = "--since", paramLabel = "DATE", description = "Only runs captured since DATE "
            + "(2026-11-01 or 2026-11-01T12:00:00Z).")
    String since;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "50", description = "At most N runs "
            + "(default: ${DEFAULT-VALUE}).")
    int limit;

    @Mixin
    FormatOption format;

    RunsCommand(Main.Services services) {
        this.services = services;
    }

    @Override
    public Integer call() {
        if (limit < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--limit must be at least 1");
        }
        Instant from = parseSince();
        Map<String, String> members = new LinkedHashMap<>();
        identity.forEach((name, value) -> members.put(ComparisonIdentity.memberNamed(name).orElseThrow(() ->
                new CommandLine.ParameterException(spec.commandLine(), "--identity: `" + name + "` is not a comparison "
                        + "identity member (" + String.join(", ", ComparisonIdentity.MEMBERS) + ")")), value));
        try (Main.UseCases cases = services.useCases(database)) {
            List<RunListing> runs = cases.listRuns().list(new ListRuns.Command(new RunFilter(entrypoint, tags, from,
                    limit).withIdentity(members)));
            Report report = RunReports.runs(runs);
            Rendering rendering = format.rendering(services.io(), services.env());
            Output.write(services.io(), null, out -> ReportRenderer.render(report, rendering, out));
            return ExitCode.OK;
        }
    }

    private Instant parseSince() {
        if (since == null) {
            return null;
        }
        try {
            return since.length() == 10 ? LocalDate.parse(since).atStartOfDay(ZoneOffset.UTC).toInstant()
                    : Instant.parse(since);
        } catch (DateTimeParseException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--since: not a date: '" + since
                    + "' (e.g. 2026-11-01 or 2026-11-01T12:00:00Z)");
        }
    }
}
