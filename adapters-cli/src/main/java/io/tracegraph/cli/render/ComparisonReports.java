package io.tracegraph.cli.render;

import io.tracegraph.application.CompareRuns;
import io.tracegraph.application.CompareSets;
import io.tracegraph.domain.compare.GradientChange;
import io.tracegraph.domain.compare.GroupComparison;
import io.tracegraph.domain.compare.MetricComparison;
import io.tracegraph.domain.compare.NonFiniteGrowth;
import io.tracegraph.domain.compare.PathChange;
import io.tracegraph.domain.compare.PathComparison;
import io.tracegraph.domain.compare.PathPresence;
import io.tracegraph.domain.compare.PathStats;
import io.tracegraph.domain.compare.RunComparison;
import io.tracegraph.domain.graph.TimeBasis;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code compare} prints: two runs side by side, or two sets with their verdicts; at most
 * {@code limit} paths a table ({@code 0} or less for all).
 */
public final class ComparisonReports {
    private final int limit;
    private final double threshold;

    private ComparisonReports(int limit, double threshold) {
        this.limit = limit;
        this.threshold = threshold;
    }

    /** Two runs compared, at most {@code limit} paths a table. */
    public static Report runs(CompareRuns.Result result, int limit) {
        Report report = withNonFinite(new ComparisonReports(limit, 0).single(result.comparison()),
                result.nonFiniteGrowth());
        report = result.failedLeftOut().isEmpty() ? report : withLeftOut(report, result.failedLeftOut());
        return timed(report, result.time());
    }

    /**
     * A report of a comparison on device time says so first ({@code "time": "device"}); its times
     * (the totals, each path's self and total time) are then device times. Host time: as it is.
     */
    private static Report timed(Report report, TimeBasis time) {
        if (time == TimeBasis.HOST) {
            return report;
        }
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("time", time.wire());
        facts.putAll(report.facts());
        return new Report(facts, report.tables());
    }

    /** {@code report} with a last fact naming the failed runs left out. */
    private static Report withLeftOut(Report report, List<String> failed) {
        Map<String, Object> facts = new LinkedHashMap<>(report.facts());
        facts.put("failed_runs_left_out", String.join(", ", failed));
        return new Report(facts, report.tables());
    }

    /** {@code report} with a last table {@code non_finite_growth} when some tensor label's count grew. */
    private static Report withNonFinite(Report report, List<NonFiniteGrowth> grown) {
        if (grown.isEmpty()) {
            return report;
        }
        Table.Builder t = Table.named("non_finite_growth", "label", "base_non_finite", "candidate_non_finite");
        grown.forEach(g -> t.row(g.label(), g.baseNonFinite(), g.candidateNonFinite()));
        List<Table> tables = new ArrayList<>(report.tables());
        tables.add(t.build());
        return new Report(report.facts(), tables);
    }

    /**
     * The tensor labels whose non-finite count grew, as a section after a comparison for people (a
     * terminal table or Markdown); empty when none grew.
     */
    public static String nonFiniteSection(List<NonFiniteGrowth> grown, boolean markdown) {
        if (grown.isEmpty()) {
            return "";
        }
        StringBuilder s = new StringBuilder();
        String count = grown.size() + (grown.size() == 1 ? " tensor label" : " tensor labels");
        if (markdown) {
            s.append("\n### Non-finite values grew (").append(count).append(")\n\n")
                    .append("| label | base non_finite | candidate non_finite |\n| --- | ---: | ---: |\n");
            for (NonFiniteGrowth g : grown) {
                s.append("| ").append(ReportRenderer.oneLine(g.label()).replace("|", "\\|")).append(" | ")
                        .append(g.baseNonFinite()).append(" | ").append(g.candidateNonFinite()).append(" |\n");
            }
        } else {
            s.append("\nnon-finite values grew (").append(count).append(")\n");
            for (NonFiniteGrowth g : grown) {
                s.append("  ").append(ReportRenderer.oneLine(g.label())).append(": ").append(g.baseNonFinite())
                        .append(" -> ").append(g.candidateNonFinite()).append('\n');
            }
        }
        return s.toString();
    }

    /** Two sets compared with {@code threshold} percent, at most {@code limit} paths a table. */
    public static Report sets(CompareSets.Result result, double threshold, int limit) {
        Report report = withNonFinite(new ComparisonReports(limit, threshold).group(result.comparison()),
                result.nonFiniteGrowth());
        report = result.failedLeftOut().isEmpty() ? report : withLeftOut(report, result.failedLeftOut());
        return timed(report, result.time());
    }

    private Report single(RunComparison c) {
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("base", c.baseRunId());
        facts.put("candidate", c.candidateRunId());
        facts.put("total_ms_base", c.totalMs().base());
        facts.put("total_ms_candidate", c.totalMs().candidate());
        facts.put("total_ms_delta", round(c.totalMs().delta()));
        facts.put("total_ms_percent", round(c.totalMs().percent()));
        facts.put("peak_bytes_base", c.peakBytes().base());
        facts.put("peak_bytes_candidate", c.peakBytes().candidate());
        facts.put("peak_bytes_delta", c.peakBytes().delta());
        facts.put("peak_bytes_percent", round(c.peakBytes().percent()));
        Table.Builder paths = Table.named("paths", "path", "kind", "self_base_ns", "self_candidate_ns",
                "self_delta_ns", "self_ratio", "total_base_ns", "total_candidate_ns", "total_delta_ns", "total_ratio",
                "bytes_base", "bytes_candidate", "bytes_delta", "peak_base", "peak_candidate", "peak_delta");
        for (PathChange p : limited(c.matched())) {
            paths.row(p.path(), p.kind(), p.selfTimeNs().base(), p.selfTimeNs().candidate(), p.selfTimeNs().delta(),
                    round(p.selfTimeNs().ratio()), p.totalTimeNs().base(), p.totalTimeNs().candidate(),
                    p.totalTimeNs().delta(), round(p.totalTimeNs().ratio()), p.bytes().base(), p.bytes().candidate(),
                    p.bytes().delta(), p.peakBytes().base(), p.peakBytes().candidate(), p.peakBytes().delta());
        }
        Table.Builder gradients = Table.named("gradient_changes", "root", "key", "base_state", "candidate_state",
                "regression");
        for (GradientChange g : c.gradientChanges()) {
            gradients.row(g.root(), g.key(), g.baseState(), g.candidateState(), g.regression());
        }
        return new Report(facts, List.of(paths.build(), presence("added", c.added()), presence("removed", c.removed()),
                gradients.build()));
    }

    private Table presence(String name, List<PathStats> stats) {
        Table.Builder t = Table.named(name, "path", "kind", "count", "self_time_ns", "total_time_ns", "bytes");
        for (PathStats s : limited(stats)) {
            t.row(s.path(), s.kind(), s.count(), s.selfTimeNs(), s.totalTimeNs(), s.bytes());
        }
        return t.build();
    }

    private Report group(GroupComparison c) {
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("baseline_runs", (long) c.baselineRuns());
        facts.put("candidate_runs", (long) c.candidateRuns());
        facts.put("threshold_percent", threshold);
        facts.put("notes", String.join("; ", c.notes()));
        metric(facts, "total_ms", c.totalMs(), VerdictWords.time(c.totalMs().verdict()));
        metric(facts, "peak_bytes", c.peakBytes(), VerdictWords.size(c.peakBytes().verdict()));
        Table.Builder paths = Table.named("paths", "path", "kind", "verdict", "self_base_median_ns",
                "self_candidate_median_ns", "self_change_percent", "self_ci_low_percent", "self_ci_high_percent",
                "total_base_median_ns", "total_candidate_median_ns", "total_change_percent", "total_ci_low_percent",
                "total_ci_high_percent", "bytes_change_percent");
        for (PathComparison p : limited(c.paths())) {
            MetricComparison self = p.selfTimeNs();
            MetricComparison total = p.totalTimeNs();
            paths.row(p.path(), p.kind(), VerdictWords.time(p.verdict()), self.baselineMedian(), self.candidateMedian(),
                    pct(self.relativeChange()), self.interval() == null ? null : pct(self.interval().lower()),
                    self.interval() == null ? null : pct(self.interval().upper()), total.baselineMedian(),
                    total.candidateMedian(), pct(total.relativeChange()),
                    total.interval() == null ? null : pct(total.interval().lower()),
                    total.interval() == null ? null : pct(total.interval().upper()), pct(p.bytes().relativeChange()));
        }
        return new Report(facts, List.of(paths.build(), presences("only_in_baseline", c.onlyInBaseline()),
                presences("only_in_candidate", c.onlyInCandidate())));
    }

    private static void metric(Map<String, Object> facts, String name, MetricComparison m, String verdict) {
        facts.put(name + "_base_median", m.baselineMedian());
        facts.put(name + "_candidate_median", m.candidateMedian());
        facts.put(name + "_change_percent", pct(m.relativeChange()));
        facts.put(name + "_verdict", verdict);
    }

    private Table presences(String name, List<PathPresence> paths) {
        Table.Builder t = Table.named(name, "path", "kind", "runs");
        for (PathPresence p : limited(paths)) {
            t.row(p.path(), p.kind(), (long) p.runs());
        }
        return t.build();
    }

    private <T> List<T> limited(List<T> list) {
        return limit <= 0 || list.size() <= limit ? list : list.subList(0, limit);
    }

    /** Four decimals are plenty for ratios and percentages; {@code null} stays null. */
    private static Double round(Double value) {
        return value == null || !Double.isFinite(value) ? value : Double.valueOf(Math.round(value * 10000) / 10000.0);
    }

    private static Double pct(double fraction) {
        return Double.isFinite(fraction) ? Math.round(fraction * 10000) / 100.0 : null;
    }
}
