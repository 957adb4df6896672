package io.tracegraph.cli.render;

import io.tracegraph.domain.compare.GroupComparison;
import io.tracegraph.domain.compare.MetricComparison;
import io.tracegraph.domain.compare.PathChange;
import io.tracegraph.domain.compare.PathComparison;
import io.tracegraph.domain.compare.PathPresence;
import io.tracegraph.domain.compare.PathStats;
import io.tracegraph.domain.compare.RunComparison;
import io.tracegraph.domain.compare.Verdict;
import io.tracegraph.domain.graph.TimeBasis;
import java.util.ArrayList;
import java.util.List;

/**
 * A comparison as a pull-request comment or a CI job summary ({@code gh pr comment --body-file},
 * {@code $GITHUB_STEP_SUMMARY}): the summary line first, then the regressions table, and the rest
 * folded in {@code <details>} so that the comment stays short.
 */
public final class ComparisonMarkdown {
    private static final List<String> SET_HEADERS = List.of("path", "kind", "baseline", "candidate", "change",
            "95% CI", "p", "verdict");
    private static final List<Boolean> SET_RIGHT = List.of(false, false, true, true, true, true, true, false);

    private ComparisonMarkdown() {
    }

    /** A set comparison; at most {@code limit} paths in each table (0: all). */
    public static String sets(GroupComparison c, int limit) {
        return sets(c, limit, TimeBasis.HOST);
    }

    /** {@link #sets(GroupComparison, int)} of a comparison on {@code time}. */
    public static String sets(GroupComparison c, int limit, TimeBasis time) {
        Markdown md = new Markdown();
        int slower = c.pathsWith(Verdict.SLOWER).size();
        int faster = c.pathsWith(Verdict.FASTER).size();
        md.paragraph("**tracegraph compare: " + slower + (slower == 1 ? " path" : " paths") + " slower, " + faster
                + " faster** (of " + c.paths().size() + " compared); " + ComparisonText.totalWord(time) + " "
                + metric(c.totalMs(), VerdictWords.Quantity.TIME) + "; memory peak "
                + metric(c.peakBytes(), VerdictWords.Quantity.SIZE));
        List<PathComparison> regressions = c.pathsWith(Verdict.SLOWER);
        if (regressions.isEmpty()) {
            md.paragraph("No path is slower.");
        } else {
            md.table(SET_HEADERS, SET_RIGHT, setRows(limited(regressions, limit)));
            more(md, regressions.size(), limit);
        }
        List<PathComparison> rest = new ArrayList<>();
        for (PathComparison p : c.paths()) {
            if (p.verdict() != Verdict.SLOWER) {
                rest.add(p);
            }
        }
        if (time == TimeBasis.DEVICE) {
            md.paragraph(Markdown.escape("Time: " + ComparisonText.DEVICE_TIME + "."));
        }
        md.paragraph(Markdown.escape(c.baselineRuns() + " baseline runs against " + c.candidateRuns()
                + " candidate runs; threshold " + HumanUnits.percent(c.options().threshold() * 100)
                + "; medians ± their median absolute deviation; p: one-sided rank-sum test, Holm-adjusted."));
        for (String note : c.notes()) {
            md.paragraph("Note: " + Markdown.escape(note));
        }
        if (!rest.isEmpty()) {
            md.openDetails("The other " + rest.size() + (rest.size() == 1 ? " path" : " paths") + " (" + faster
                    + " faster)");
            md.table(SET_HEADERS, SET_RIGHT, setRows(limited(rest, limit)));
            more(md, rest.size(), limit);
            md.closeDetails();
        }
        presences(md, "Only in the baseline", c.onlyInBaseline(), limit);
        presences(md, "Only in the candidate", c.onlyInCandidate(), limit);
        return md.text();
    }

    private static String metric(MetricComparison m, VerdictWords.Quantity quantity) {
        String word = VerdictWords.word(m.verdict(), quantity);
        boolean bad = m.verdict() == Verdict.SLOWER;
        return Markdown.escape(HumanUnits.changeOfFraction(m.relativeChange())) + " " + (bad ? "**" + word + "**" : word);
    }

    private static List<List<String>> setRows(List<PathComparison> paths) {
        List<List<String>> rows = new ArrayList<>();
        for (PathComparison p : paths) {
            MetricComparison t = p.totalTimeNs();
            rows.add(List.of(p.path(), p.kind(),
                    ComparisonText.withSpread(HumanUnits.duration(t.baselineMedian()), t.baselineMedian(),
                            t.baselineSpread()),
                    ComparisonText.withSpread(HumanUnits.duration(t.candidateMedian()), t.candidateMedian(),
                            t.candidateSpread()),
                    HumanUnits.changeOfFraction(t.relativeChange()), ComparisonText.interval(t.interval()),
                    HumanUnits.pValue(t.pValue()), VerdictWords.time(t.verdict())));
        }
        return rows;
    }

    private static void presences(Markdown md, String title, List<PathPresence> paths, int limit) {
        if (paths.isEmpty()) {
            return;
        }
        md.openDetails(title + " (" + paths.size() + ")");
        List<List<String>> rows = new ArrayList<>();
        for (PathPresence p : limited(paths, limit)) {
            rows.add(List.of(p.path(), p.kind(), HumanUnits.count(p.runs())));
        }
        md.table(List.of("path", "kind", "runs"), List.of(false, false, true), rows);
        more(md, paths.size(), limit);
        md.closeDetails();
    }

    /** A comparison of two runs: the summary line, the largest changes, the rest folded. */
    public static String runs(RunComparison c, int limit) {
        return runs(c, limit, TimeBasis.HOST);
    }

    /** {@link #runs(RunComparison, int)} of a comparison on {@code time}. */
    public static String runs(RunComparison c, int limit, TimeBasis time) {
        Markdown md = new Markdown();
        md.paragraph("**tracegraph compare** " + Markdown.escape(c.baseRunId()) + " → " + Markdown.escape(
                c.candidateRunId()) + ": " + ComparisonText.totalWord(time) + " " + Markdown.escape(HumanUnits.durationMs(c.totalMs().base())
                + " → " + HumanUnits.durationMs(c.totalMs().candidate()) + " (" + percent(c.totalMs().percent())
                + ")") + "; memory peak " + Markdown.escape(HumanUnits.bytes(c.peakBytes().base()) + " → "
                + HumanUnits.bytes(c.peakBytes().candidate()) + " (" + percent(c.peakBytes().percent()) + ")"));
        if (time == TimeBasis.DEVICE) {
            md.paragraph(Markdown.escape("Time: " + ComparisonText.DEVICE_TIME + "."));
        }
        List<String> headers = List.of("path", "kind", "self base", "self candidate", "self change", "total change",
                "bytes change");
        List<Boolean> right = List.of(false, false, true, true, true, true, true);
        List<PathChange> top = limited(c.matched(), Math.min(limit <= 0 ? Integer.MAX_VALUE : limit, 10));
        if (c.matched().isEmpty()) {
            md.paragraph("No path in both runs.");
        } else {
            md.table(headers, right, changeRows(top));
        }
        if (c.matched().size() > top.size()) {
            md.openDetails("The other " + (c.matched().size() - top.size()) + " paths");
            md.table(headers, right, changeRows(limited(c.matched(), limit).subList(top.size(),
                    limited(c.matched(), limit).size())));
            more(md, c.matched().size(), limit);
            md.closeDetails();
        }
        stats(md, "Added", c.added(), limit);
        stats(md, "Removed", c.removed(), limit);
        if (!c.gradientChanges().isEmpty()) {
            md.openDetails("Gradient changes (" + c.gradientChanges().size() + ")");
            List<List<String>> rows = new ArrayList<>();
            c.gradientChanges().forEach(g -> rows.add(List.of(g.root(), g.key(), String.valueOf(g.baseState()),
                    String.valueOf(g.candidateState()), g.regression() ? "yes" : "no")));
            md.table(List.of("root", "key", "base", "candidate", "regression"), List.of(false, false, false, false,
                    false), rows);
            md.closeDetails();
        }
        return md.text();
    }

    private static List<List<String>> changeRows(List<PathChange> changes) {
        List<List<String>> rows = new ArrayList<>();
        for (PathChange p : changes) {
            rows.add(List.of(p.path(), p.kind(), HumanUnits.duration(p.selfTimeNs().base()),
                    HumanUnits.duration(p.selfTimeNs().candidate()), HumanUnits.durationChange(p.selfTimeNs().delta()),
                    HumanUnits.durationChange(p.totalTimeNs().delta()), HumanUnits.bytesChange(p.bytes().delta())));
        }
        return rows;
    }

    private static void stats(Markdown md, String title, List<PathStats> stats, int limit) {
        if (stats.isEmpty()) {
            return;
        }
        md.openDetails(title + " (" + stats.size() + ")");
        List<List<String>> rows = new ArrayList<>();
        for (PathStats s : limited(stats, limit)) {
            rows.add(List.of(s.path(), s.kind(), HumanUnits.count(s.count()), HumanUnits.duration(s.selfTimeNs()),
                    HumanUnits.duration(s.totalTimeNs()), HumanUnits.bytes(s.bytes())));
        }
        md.table(List.of("path", "kind", "count", "self time", "total time", "bytes"),
                List.of(false, false, true, true, true, true), rows);
        more(md, stats.size(), limit);
        md.closeDetails();
    }

    private static void more(Markdown md, int size, int limit) {
        if (limit > 0 && size > limit) {
            md.paragraph("(" + (size - limit) + " more: `--limit 0` lists all)");
        }
    }

    private static String percent(Double percent) {
        return percent == null ? "new" : HumanUnits.change(percent);
    }

    private static <T> List<T> limited(List<T> list, int limit) {
        return limit <= 0 || list.size() <= limit ? list : list.subList(0, limit);
    }
}
