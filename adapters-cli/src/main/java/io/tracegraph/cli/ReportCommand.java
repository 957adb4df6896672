package io.tracegraph.cli;

import io.tracegraph.application.CompareSets;
import io.tracegraph.application.ReadRun;
import io.tracegraph.application.ReportComparison;
import io.tracegraph.application.RunGraph;
import io.tracegraph.cli.render.HtmlReports;
import io.tracegraph.cli.report.RunReport;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

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
            "timelines then come from each set's run with the median total time). As",
            "`compare` does, sets leave failed captures out (saying which) and refuse runs",
            "whose comparison identities differ, unless --allow-mixed-identity.",
            "",
            "--time device: the chart, the bars and the tables by device time (kernels,",
            "memcpys and memsets attributed to each span and op, summed over devices);",
            "a run with device time also gets a section of it on host time.",
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

    @Option(names = "--threshold", paramLabel = "PCT", defaultValue = "5", converter = OptionRanges.Percent.class,
            description = "Relative change below which a path counts as unchanged (default: ${DEFAULT-VALUE}%%).")
    double threshold;

    @Option(names = "--allow-mixed-identity", description = "With --compare of sets: compare runs whose "
            + "comparison identities differ (default: refused, naming the member that differs).")
    boolean allowMixedIdentity;

    @Mixin
    TimeOption time;

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
        if (compare) {
            RunArguments.runOrSet(spec, "BASE", runs.get(0));
            RunArguments.runOrSet(spec, "CAND", runs.get(1));
        } else {
            RunArguments.run(spec, "RUN", runs.get(0));
        }
        try (Main.UseCases cases = services.useCases(database)) {
            if (!compare) {
                RunGraph run = InputRejected.valueOf(cases.readRun().read(ReadRun.Command.whole(runs.get(0),
                        time.time)));
                Output.write(services.io(), output, out -> HtmlReports.run(run, maxNodes, time.time, out));
            } else {
                ReportComparison.Result result = InputRejected.valueOf(cases.reportComparison().report(
                        new ReportComparison.Command(runs.get(0), runs.get(1), threshold, time.time,
                                allowMixedIdentity)));
                if (result instanceof ReportComparison.Sets sets && !sets.failedLeftOut().isEmpty()) {
                    services.io().error(CompareSets.leftOut(sets.failedLeftOut()));
                }
                Output.write(services.io(), output, out -> HtmlReports.comparison(result, threshold, maxNodes, out));
            }
        }
        long bytes = output.toFile().length();
        services.io().out().printf(Locale.ROOT, "wrote %s (%,d KB): open it in a browser%n",
                CliIo.oneLine(output.toString()), (bytes + 1023) / 1024);
        services.io().out().flush();
        return ExitCode.OK;
    }
}
