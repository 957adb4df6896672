package io.tracegraph.cli.render;

import io.tracegraph.application.ReportComparison;
import io.tracegraph.application.RunGraph;
import io.tracegraph.cli.report.ComparisonReport;
import io.tracegraph.cli.report.RunReport;
import java.io.IOException;
import java.io.OutputStream;

/** What {@code report} writes: the HTML page of a run or of a comparison (pages: {@code cli.report}). */
public final class HtmlReports {
    private HtmlReports() {
    }

    /** A run's page, at most {@code maxNodes} boxes drawn. */
    public static void run(RunGraph run, int maxNodes, OutputStream out) throws IOException {
        RunReport.write(run.label(), run.graph(), run.health(), run.stored(), maxNodes, out);
    }

    /** A comparison's page: two runs (changes beyond {@code thresholdPercent} coloured) or two sets. */
    public static void comparison(ReportComparison.Result result, double thresholdPercent, int maxNodes,
            OutputStream out) throws IOException {
        if (result instanceof ReportComparison.Runs runs) {
            ComparisonReport.writeRuns(side(runs.base()), side(runs.candidate()), runs.comparison(),
                    thresholdPercent / 100.0, maxNodes, out);
        } else {
            ReportComparison.Sets sets = (ReportComparison.Sets) result;
            ComparisonReport.writeGroups(side(sets.base()), side(sets.candidate()), sets.comparison(), sets.baseRuns(),
                    sets.candidateRuns(), maxNodes, out);
        }
    }

    private static ComparisonReport.Side side(RunGraph run) {
        return new ComparisonReport.Side(run.label(), 1, run.label(), run.graph());
    }

    private static ComparisonReport.Side side(ReportComparison.Side side) {
        return new ComparisonReport.Side(side.label(), side.runs(), side.representative(), side.graph());
    }
}
