package io.tracegraph.cli;

import io.tracegraph.cli.report.ComparisonReport;
import io.tracegraph.cli.report.RunReport;
import io.tracegraph.domain.compare.GroupComparison;
import io.tracegraph.domain.compare.GroupOptions;
import io.tracegraph.domain.compare.RunComparison;
import io.tracegraph.domain.compare.RunFacts;
import io.tracegraph.domain.trace.CodePointOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code tracegraph report RUN -o FILE} and {@code report --compare BASE CAND -o FILE}. */
@Command(header = "Write a self-contained HTML report of a run, or of a comparison.", name = "report",
        mixinStandardHelpOptions = true,
        description = {
            "Write one HTML file that any browser opens without a server or a network",
            "connection: scripts, styles and data are all inside it.",
            "",
            "A run: a zoomable icicle chart of the span tree (width = total time, colour =",
            "kind; hover for self and total time and bytes, click to zoom), the memory",
            "timeline of each device with the peak marked and its breakdown by category,",
            "sortable tables of the slowest and heaviest spans and ops, the health",
            "warnings and the gradient facts.",
            "",
            "--compare BASE CAND: the span trees of both sides merged by semantic path and",
            "coloured by the change of total time, a bar chart of the largest self-time",
            "regressions and improvements (with bootstrap confidence intervals when a side",
            "is a set of runs), both memory timelines overlaid, and tables of the changes.",
            "BASE and CAND are runs, or sets of runs as for `compare`: a comma-separated",
            "list, tag:KEY=VALUE or a range such as latest~9..latest (the tree and the",
            "timelines then come from each set's run with the median total time).",
            "",
            "A run is a trace file (read without a database) or a stored run: a run_id, an",
            "unambiguous prefix of one, latest or latest~N. Large runs are pruned visibly:",
            "the widest --max-nodes spans and ops get their own box, the others are merged",
            "into grey boxes that say how many nodes they hold, and the page says so.",
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  tracegraph report examples/train_small.jsonl -o train.html",
            "  tracegraph report latest -o latest.html",
            "  tracegraph report --compare latest~1 latest -o diff.html",
            "  tracegraph report --compare tag:commit=abc123 tag:commit=def456 -o diff.html",
        })
final class ReportCommand implements Callable<Integer> {
    private final Main.Services services;

    @Spec
    CommandSpec spec;

    @Mixin
    CommonOptions common;

    @Mixin
    DatabaseOptions database;

    @Parameters(paramLabel = "RUN", arity = "1..2", description = "The run; with --compare, BASE and CAND.")
    List<String> runs = new ArrayList<>();

    @Option(names = "--compare", description = "Compare BASE with CAND instead of showing one run.")
    boolean compare;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", required = true,
            description = "The HTML file to write (created with its directories; replaced only when complete).")
    Path output;

    @Option(names = "--max-nodes", paramLabel = "N", defaultValue = "" + RunReport.DEFAULT_MAX_NODES,
            description = "Spans and ops (paths, for --compare) drawn as their own boxes at most "
                    + "(default: ${DEFAULT-VALUE}); the rest is merged visibly.")
    int maxNodes;

    @Option(names = "--threshold", paramLabel = "PCT", defaultValue = "5",
            description = "Relative change below which a path counts as unchanged (default: ${DEFAULT-VALUE}%%).")
    double threshold;

    ReportCommand(Main.Services services) {
        this.services = services;
    }

    @Override
    public Integer call() {
        if (runs.size() != (compare ? 2 : 1)) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    compare ? "--compare needs BASE and CAND" : "give one RUN, or --compare BASE CAND");
        }
        if (maxNodes < 100) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--max-nodes must be at least 100");
        }
        try (RunSources sources = new RunSources(services, database)) {
            if (!compare) {
                RunSources.RunGraph run = sources.graph(runs.get(0));
                Output.write(services.io(), output, out -> RunReport.write(run.label(), run.graph(), run.health(),
                        run.stored(), maxNodes, out));
            } else if (!RunSources.isSet(runs.get(0)) && !RunSources.isSet(runs.get(1))) {
                RunSources.RunGraph base = sources.graph(runs.get(0));
                RunSources.RunGraph cand = sources.graph(runs.get(1));
                RunComparison comparison = RunComparison.compare(RunSources.factsOf(base.label(), base.graph()),
                        RunSources.factsOf(cand.label(), cand.graph()));
                Output.write(services.io(), output, out -> ComparisonReport.writeRuns(side(base, 1), side(cand, 1),
                        comparison, threshold / 100.0, maxNodes, out));
            } else {
                compareSets(sources);
            }
        }
        long bytes = output.toFile().length();
        services.io().out().printf(Locale.ROOT, "wrote %s (%,d KB): open it in a browser%n",
                CliIo.oneLine(output.toString()), (bytes + 1023) / 1024);
        services.io().out().flush();
        return ExitCode.OK;
    }

    private void compareSets(RunSources sources) {
        List<List<RunFacts>> sides = sources.groups(List.of(runs.get(0), runs.get(1)));
        List<RunFacts> base = sides.get(0);
        List<RunFacts> cand = sides.get(1);
        GroupComparison comparison;
        try {
            comparison = GroupComparison.compare(base, cand, GroupOptions.defaults().withThreshold(threshold / 100.0));
        } catch (IllegalArgumentException e) {
            throw new RunSources.UnknownRun(e.getMessage());
        }
        RunSources.RunGraph baseRun = representative(sources, base);
        RunSources.RunGraph candRun = representative(sources, cand);
        ComparisonReport.Side baseSide = new ComparisonReport.Side(shortLabel(runs.get(0)), base.size(),
                shortLabel(baseRun.label()), baseRun.graph());
        ComparisonReport.Side candSide = new ComparisonReport.Side(shortLabel(runs.get(1)), cand.size(),
                shortLabel(candRun.label()), candRun.graph());
        Output.write(services.io(), output, out -> ComparisonReport.writeGroups(baseSide, candSide, comparison,
                base, cand, maxNodes, out));
    }

    /** A set as a heading can show it: a list by its first and last member (file names only), else as typed. */
    static String shortLabel(String spec) {
        List<String> parts = new ArrayList<>();
        for (String part : spec.split(",")) {
            String p = part.strip();
            if (!p.isEmpty()) {
                Path file = RunSources.traceFile(p).orElse(null);
                parts.add(file != null && file.getFileName() != null ? file.getFileName().toString() : p);
            }
        }
        if (parts.size() <= 1) {
            return parts.isEmpty() ? spec : parts.get(0);
        }
        if (parts.size() <= 3) {
            return String.join(", ", parts);
        }
        return parts.get(0) + ", " + parts.get(1) + ", \u2026, " + parts.get(parts.size() - 1) + " (" + parts.size()
                + " runs)";
    }

    private static ComparisonReport.Side side(RunSources.RunGraph run, int runs) {
        return new ComparisonReport.Side(run.label(), runs, run.label(), run.graph());
    }

    /**
     * The graph of the run with the median total time (the lower one of an even count; ties by run
     * id). A group names a trace file by its path and a stored run by its run_id.
     */
    private static RunSources.RunGraph representative(RunSources sources, List<RunFacts> runs) {
        List<RunFacts> sorted = new ArrayList<>(runs);
        sorted.sort(Comparator.comparingDouble(RunFacts::totalMs)
                .thenComparing(RunFacts::runId, CodePointOrder.COMPARATOR));
        String id = sorted.get((sorted.size() - 1) / 2).runId();
        return Files.isRegularFile(Path.of(id)) ? sources.graph(id) : sources.storedGraph(id);
    }
}
