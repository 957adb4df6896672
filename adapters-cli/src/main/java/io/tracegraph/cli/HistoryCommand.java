package io.tracegraph.cli;

import io.tracegraph.domain.run.PathHistoryPoint;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tracegraph history PATH [--entrypoint E]}. */
@Command(header = "Follow one span path's time and bytes across the stored runs.", name = "history", mixinStandardHelpOptions = true,
        description = {
            "One span path's self time, total time and bytes across the stored runs, oldest first, "
                    + "with a small bar chart of the total time on a terminal. PATH is the semantic path: the "
                    + "span names from the root down joined by '/', as `compare` prints them (e.g. "
                    + "tinygpt::train::update/update/Model::forward).",
        })
final class HistoryCommand implements Callable<Integer> {
    private static final int BAR = 40;

    private final Main.Services services;

    @Mixin
    CommonOptions common;

    @Mixin
    DatabaseOptions database;

    @Parameters(paramLabel = "PATH", description = "The semantic path.")
    String path;

    @Option(names = "--entrypoint", paramLabel = "E", description = "Only runs of this entrypoint.")
    String entrypoint;

    @Mixin
    FormatOption format;

    HistoryCommand(Main.Services services) {
        this.services = services;
    }

    @Override
    public Integer call() {
        try (RunSources sources = new RunSources(services, database)) {
            List<PathHistoryPoint> points = sources.pathHistory().history(path, entrypoint);
            if (points.isEmpty()) {
                services.io().error("no stored run has the path `" + path + "`");
                return ExitCode.REJECTED;
            }
            Format chosen = format.chosen(services.io());
            long max = points.stream().mapToLong(p -> p.stats().totalTimeNs()).max().orElse(1);
            Table.Builder table = chosen == Format.TABLE
                    ? Table.named("history", "run_id", "timestamp", "count", "self_time_ns", "total_time_ns", "bytes",
                            "total_time")
                    : Table.named("history", "run_id", "timestamp", "count", "self_time_ns", "total_time_ns", "bytes");
            for (PathHistoryPoint p : points) {
                Object[] row = {p.runId(), p.timestamp(), p.stats().count(), p.stats().selfTimeNs(),
                    p.stats().totalTimeNs(), p.stats().bytes(), bar(p.stats().totalTimeNs(), max)};
                table.row(chosen == Format.TABLE ? row : java.util.Arrays.copyOf(row, 6));
            }
            Map<String, Object> facts = new LinkedHashMap<>();
            facts.put("path", path);
            facts.put("runs", (long) points.size());
            Report report = new Report(facts, List.of(table.build()));
            Output.write(services.io(), null, out -> ReportRenderer.render(report, chosen, out));
            return ExitCode.OK;
        }
    }

    private static String bar(long value, long max) {
        int width = max <= 0 ? 0 : (int) Math.round((double) value / max * BAR);
        return "#".repeat(Math.max(width, value > 0 ? 1 : 0));
    }
}
