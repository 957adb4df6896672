package io.tracegraph.cli;

import io.tracegraph.application.CompareRuns;
import io.tracegraph.application.CompareSets;
import io.tracegraph.cli.render.ComparisonMarkdown;
import io.tracegraph.cli.render.ComparisonReports;
import io.tracegraph.cli.render.ComparisonText;
import io.tracegraph.cli.render.Format;
import io.tracegraph.cli.render.Rendering;
import io.tracegraph.cli.render.Report;
import io.tracegraph.cli.render.ReportRenderer;
import io.tracegraph.domain.graph.TimeBasis;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** {@code tracegraph compare BASE CAND} and {@code compare --baseline SET --candidate SET}. */
@Command(header = "Compare two runs, or two sets of runs, span by span.", name = "compare", mixinStandardHelpOptions = true,
        description = {
            "Compare two runs, or two sets of runs, span by span (spans are matched by semantic path, "
                    + "the names from the root down; repeated paths are aggregated).",
            "",
            "Two runs: base, candidate, delta and ratio of self and total time and of bytes and peak, "
                    + "spans added and removed, gradients whose state changed (present -> missing, zero or "
                    + "non_finite is flagged), total time and memory peak deltas; largest changes first.",
            "",
            "Two sets (--baseline/--candidate): per path the median of each side, the relative change "
                    + "with a bootstrap confidence interval (fixed seed: reproducible) and a verdict: slower, "
                    + "faster, unchanged or inconclusive. Slower and faster need the interval beyond the "
                    + "threshold and a rank-sum test that stays significant after Holm's correction for the "
                    + "number of paths, so untouched spans are not called slower by luck. Single runs are "
                    + "noisy: use sets of runs (10 a side or more) for CI gates.",
            "",
            "--time device compares the paths' device time instead (kernels, memcpys and memsets attributed to "
                    + "each path, summed over devices; the paths without device time are left out): the same "
                    + "medians, intervals and verdicts; a run without device time is rejected.",
            "",
            "A run is a run_id, an unambiguous prefix, latest, latest~N, or a trace file (read without "
                    + "a database). A set is a comma-separated list of those, tag:KEY=VALUE, "
                    + "identity:MEMBER=VALUE (the runs whose comparison identity has that member, e.g. "
                    + "identity:model_id=llama or identity:model=llama), or a range such as latest~9..latest.",
            "",
            "Runs whose declared comparison identities (candle-graph trace/7+) differ in a condition "
                    + "(workload, model, config, data, seed policy, batch, accumulation, precision, device "
                    + "state; not implementation_id or pair_id) are not compared as sets: refused naming the "
                    + "member and a run on each side, unless --allow-mixed-identity. Failed captures are left "
                    + "out of set comparisons (said on stderr) and refused when named on their own. Tensor "
                    + "labels whose non_finite count grew (trace/10 tensor statistics) are flagged.",
        })
final class CompareCommand implements Callable<Integer> {
    private final Main.Services services;

    @Spec
    CommandSpec spec;

    @Mixin
    CommonOptions common;

    @Mixin
    DatabaseOptions database;

    @Parameters(paramLabel = "RUN", arity = "0..2", description = "BASE and CANDIDATE runs.")
    List<String> runs = new ArrayList<>();

    @Option(names = "--baseline", paramLabel = "SET", description = "The baseline set of runs.")
    String baseline;

    @Option(names = "--candidate", paramLabel = "SET", description = "The candidate set of runs.")
    String candidate;

    @Option(names = "--fail-on-regression", paramLabel = "PCT", converter = OptionRanges.Percent.class,
            description = "Exit 1 when a span is `slower` by more than PCT percent (set comparison).")
    Double failOnRegression;

    @Option(names = "--threshold", paramLabel = "PCT", defaultValue = "5", converter = OptionRanges.Percent.class,
            description = "Relative change below which a span counts as unchanged, in percent (default: ${DEFAULT-VALUE}).")
    double threshold;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "50", converter = OptionRanges.NonNegative.class,
            description = "Paths listed at most (default: ${DEFAULT-VALUE}; 0 for all).")
    int limit;

    @Option(names = "--allow-mixed-identity", description = "Compare sets of runs whose comparison identities "
            + "differ (default: refused, naming the member that differs).")
    boolean allowMixedIdentity;

    @Mixin
    TimeOption time;

    @Mixin
    FormatOption format;

    CompareCommand(Main.Services services) {
        this.services = services;
    }

    @Override
    public Integer call() {
        boolean sets = baseline != null || candidate != null;
        if (sets == !runs.isEmpty() || (sets && (baseline == null || candidate == null))
                || (!sets && runs.size() != 2)) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "give either BASE CAND, or --baseline SET and --candidate SET");
        }
        // Before any database starts: a reference's shape, a set's members, a trace file's existence.
        if (sets) {
            RunArguments.set(spec, "--baseline", baseline);
            RunArguments.set(spec, "--candidate", candidate);
        } else {
            RunArguments.run(spec, "BASE", runs.get(0));
            RunArguments.run(spec, "CAND", runs.get(1));
        }
        try (Main.UseCases cases = services.useCases(database)) {
            Rendering rendering = format.rendering(services.io(), services.env());
            Report report;
            String forPeople = null;
            int status = ExitCode.OK;
            if (sets) {
                CompareSets.Result compared = InputRejected.valueOf(cases.compareSets().compare(
                        new CompareSets.Command(baseline, candidate, threshold, failOnRegression, allowMixedIdentity,
                                time.time)));
                report = ComparisonReports.sets(compared, threshold, limit);
                if (!compared.failedLeftOut().isEmpty()) {
                    services.io().error(CompareSets.leftOut(compared.failedLeftOut()));
                }
                if (rendering.format() == Format.MARKDOWN) {
                    forPeople = ComparisonMarkdown.sets(compared.comparison(), limit, compared.time())
                            + ComparisonReports.nonFiniteSection(compared.nonFiniteGrowth(), true);
                } else if (rendering.terminalTable()) {
                    forPeople = ComparisonText.sets(compared.comparison(), limit, rendering.screen(), rendering.wide(),
                            compared.time()) + ComparisonReports.nonFiniteSection(compared.nonFiniteGrowth(), false);
                }
                if (compared.regression()) {
                    services.io().error("regression: a span, the " + (time.time == TimeBasis.DEVICE ? "device"
                            : "total") + " time or the memory peak is slower (or bigger) by more than "
                            + failOnRegression + "%");
                    status = ExitCode.REJECTED;
                }
            } else {
                CompareRuns.Result compared = InputRejected.valueOf(cases.compareRuns().compare(
                        new CompareRuns.Command(runs.get(0), runs.get(1), time.time)));
                report = ComparisonReports.runs(compared, limit);
                if (!compared.failedLeftOut().isEmpty()) {
                    services.io().error(CompareSets.leftOut(compared.failedLeftOut()));
                }
                if (rendering.format() == Format.MARKDOWN) {
                    forPeople = ComparisonMarkdown.runs(compared.comparison(), limit, compared.time())
                            + ComparisonReports.nonFiniteSection(compared.nonFiniteGrowth(), true);
                } else if (rendering.terminalTable()) {
                    forPeople = ComparisonText.runs(compared.comparison(), limit, rendering.screen(), rendering.wide(),
                            compared.time()) + ComparisonReports.nonFiniteSection(compared.nonFiniteGrowth(), false);
                }
            }
            String text = forPeople;
            Output.write(services.io(), null, out -> {
                if (text != null) {
                    ReportRenderer.text(out, w -> w.print(text));
                } else {
                    ReportRenderer.render(report, rendering, out);
                }
            });
            return status;
        }
    }
}
