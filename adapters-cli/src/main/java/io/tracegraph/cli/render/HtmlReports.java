package io.tracegraph.cli.render;

import io.tracegraph.application.ReportComparison;
import io.tracegraph.application.RunGraph;
import io.tracegraph.cli.report.ComparisonReport;
import io.tracegraph.cli.report.RunReport;
import io.tracegraph.domain.graph.ExecutionGraph;
import io.tracegraph.domain.graph.TimeBasis;
import java.io.IOException;
import java.io.OutputStream;

/** What {@code report} writes: the HTML page of a run or of a comparison (pages: {@code cli.report}). */
public final class HtmlReports {
    private HtmlReports() {
    }

    /** A run's page, at most {@code maxNodes} boxes drawn. */
    public static void run(RunGraph run, int maxNodes, OutputStream out) throws IOException {
        run(run, maxNodes, TimeBasis.HOST, out);
    }

    /** A run's page on {@code time} (device time: the chart and the slowest tables by device time). */
    public static void run(RunGraph run, int maxNodes, TimeBasis time, OutputStream out) throws IOException {
        RunReport.write(run.label(), run.graph(), run.health(), run.stored(), maxNodes, time, out);
    }

    /**
     * A comparison's page: two runs (changes beyond {@code thresholdPercent} coloured) or two sets, on
     * the time the comparison was made on (device time: the trees of the graphs on device time).
     */
    public static void comparison(ReportComparison.Result result, double thresholdPercent, int maxNodes,
            OutputStream out) throws IOException {
        TimeBasis time = result.time();
        if (result instanceof ReportComparison.Runs runs) {
            ComparisonReport.writeRuns(side(runs.base(), time), side(runs.candidate(), time), runs.comparison(),
                    runs.deviceComparison(), time, thresholdPercent / 100.0, maxNodes, out);
        } else {
            ReportComparison.Sets sets = (ReportComparison.Sets) result;
            ComparisonReport.writeGroups(side(sets.base(), time), side(sets.candidate(), time), sets.comparison(),
                    sets.baseRuns(), sets.candidateRuns(), sets.deviceComparison(), time, maxNodes, out);
        }
    }

    private static ComparisonReport.Side side(RunGraph run, TimeBasis time) {
        return new ComparisonReport.Side(run.label(), 1, run.label(), on(run.graph(), time));
    }

    private static ComparisonReport.Side side(ReportComparison.Side side, TimeBasis time) {
        return new ComparisonReport.Side(side.label(), side.runs(), side.representative(), on(side.graph(), time));
    }

    private static ExecutionGraph on(ExecutionGraph graph, TimeBasis time) {
        return time == TimeBasis.DEVICE ? graph.onDeviceTime() : graph;
    }
}
