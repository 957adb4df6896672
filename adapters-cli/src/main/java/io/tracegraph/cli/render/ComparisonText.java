package io.tracegraph.cli.render;

import io.tracegraph.cli.render.FittedTable.Cell;
import io.tracegraph.cli.render.FittedTable.Column;
import io.tracegraph.domain.compare.ConfidenceInterval;
import io.tracegraph.domain.compare.GroupComparison;
import io.tracegraph.domain.compare.LongChange;
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
 * Comparisons for a person at a terminal, as benchstat and hyperfine show theirs: one summary line
 * first, then one row per path that fits the width (for sets: path, kind, baseline median ± spread,
 * candidate median ± spread, change of total time, its confidence interval, p-value, verdict;
 * {@code --wide} adds self time, bytes and run counts).
 */
public final class ComparisonText {
    private ComparisonText() {
    }

    /**
     * The summary of a set comparison in one sentence: how many paths are slower and faster, and the
     * change of the total time and the memory peak with their verdicts.
     */
    public static String summary(GroupComparison c) {
        return summary(c, TimeBasis.HOST);
    }

    /** {@link #summary(GroupComparison)} of a comparison on {@code time} (device time: "device time"). */
    public static String summary(GroupComparison c, TimeBasis time) {
        return counts(c) + "; " + totalWord(time) + " " + HumanUnits.changeOfFraction(c.totalMs().relativeChange()) + " "
                + VerdictWords.time(c.totalMs().verdict()) + "; memory peak "
                + HumanUnits.changeOfFraction(c.peakBytes().relativeChange()) + " "
                + VerdictWords.size(c.peakBytes().verdict());
    }

    static String counts(GroupComparison c) {
        int slower = c.pathsWith(Verdict.SLOWER).size();
        int faster = c.pathsWith(Verdict.FASTER).size();
        int all = c.paths().size();
        return slower + (slower == 1 ? " path" : " paths") + " slower, " + faster + " faster (of " + all + " compared)";
    }

    /** A set comparison: its summary, its sides, notes, then at most {@code limit} paths (0: all). */
    public static String sets(GroupComparison c, int limit, Screen screen, boolean wide) {
        return sets(c, limit, screen, wide, TimeBasis.HOST);
    }

    /** {@link #sets(GroupComparison, int, Screen, boolean)} of a comparison on {@code time}. */
    public static String sets(GroupComparison c, int limit, Screen screen, boolean wide, TimeBasis time) {
        int width = screen.width();
        StringBuilder out = new StringBuilder();
        for (String line : TextWidth.wrap(summary(c, time), width, "  ")) {
            out.append(line).append('\n');
        }
        LabelledLines sides = new LabelledLines()
                .add("Time", time == TimeBasis.DEVICE ? DEVICE_TIME : null)
                .add("Baseline", side(c.baselineRuns(), c.totalMs(), true, time))
                .add("Candidate", side(c.candidateRuns(), c.totalMs(), false, time))
                .add("Threshold", HumanUnits.percent(c.options().threshold() * 100) + " (smaller changes are "
                        + "unchanged)");
        for (String line : sides.lines(width, screen.color())) {
            out.append(line).append('\n');
        }
        for (String note : c.notes()) {
            for (String line : TextWidth.wrap("Note: " + note, width, "      ")) {
                out.append(line).append('\n');
            }
        }
        out.append('\n');
        FittedTable table = wide ? wideSetTable() : setTable();
        for (PathComparison p : limited(c.paths(), limit)) {
            table.row(wide ? wideSetRow(p) : setRow(p));
        }
        append(out, table, screen, wide);
        if (limit > 0 && c.paths().size() > limit) {
            out.append(TextWidth.clipEnd("(" + (c.paths().size() - limit) + " more paths: --limit 0 shows all)", width))
                    .append('\n');
        }
        presences(out, "Only in the baseline", c.onlyInBaseline(), limit, screen, wide);
        presences(out, "Only in the candidate", c.onlyInCandidate(), limit, screen, wide);
        return out.toString();
    }

    private static String side(int runs, MetricComparison total, boolean baseline, TimeBasis time) {
        double median = baseline ? total.baselineMedian() : total.candidateMedian();
        double spread = baseline ? total.baselineSpread() : total.candidateSpread();
        return runs + (runs == 1 ? " run" : " runs") + ", " + totalWord(time) + " "
                + withSpread(HumanUnits.durationMs(median), median, spread);
    }

    /** What a comparison on device time says it compares, on its line {@code Time}. */
    static final String DEVICE_TIME = "device: the kernels, memcpys and memsets attributed to each path, summed "
            + "over devices (paths without any are left out)";

    /** The run's total, named for the time compared. */
    static String totalWord(TimeBasis time) {
        return time == TimeBasis.DEVICE ? "device time" : "total time";
    }

    private static FittedTable setTable() {
        return new FittedTable(Column.path("path", 20), Column.text("kind").optional(3), Column.number("baseline"),
                Column.number("candidate"), Column.number("change"), Column.number("95% CI").optional(1),
                Column.number("p").optional(2), Column.text("verdict"));
    }

    private static List<Cell> setRow(PathComparison p) {
        MetricComparison t = p.totalTimeNs();
        return List.of(Cell.of(ListingText.oneLine(p.path())), Cell.of(p.kind()),
                Cell.of(withSpread(HumanUnits.duration(t.baselineMedian()), t.baselineMedian(), t.baselineSpread())),
                Cell.of(withSpread(HumanUnits.duration(t.candidateMedian()), t.candidateMedian(), t.candidateSpread())),
                Cell.of(HumanUnits.changeOfFraction(t.relativeChange())), Cell.of(interval(t.interval())),
                Cell.of(HumanUnits.pValue(t.pValue())), verdict(t.verdict(), VerdictWords.Quantity.TIME));
    }

    private static FittedTable wideSetTable() {
        return new FittedTable(Column.path("path", 20), Column.text("kind"), Column.number("runs"),
                Column.number("baseline"), Column.number("candidate"), Column.number("change"),
                Column.number("95% CI"), Column.number("p"), Column.text("verdict"), Column.number("self baseline"),
                Column.number("self candidate"), Column.number("self change"), Column.number("self 95% CI"),
                Column.number("self p"), Column.text("self verdict"), Column.number("bytes baseline"),
                Column.number("bytes candidate"), Column.number("bytes change"), Column.text("bytes verdict"));
    }

    private static List<Cell> wideSetRow(PathComparison p) {
        List<Cell> cells = new ArrayList<>(setRow(p));
        cells.add(2, Cell.of(p.baselineRuns() + "/" + p.candidateRuns()));
        MetricComparison s = p.selfTimeNs();
        cells.add(Cell.of(withSpread(HumanUnits.duration(s.baselineMedian()), s.baselineMedian(), s.baselineSpread())));
        cells.add(Cell.of(withSpread(HumanUnits.duration(s.candidateMedian()), s.candidateMedian(),
                s.candidateSpread())));
        cells.add(Cell.of(HumanUnits.changeOfFraction(s.relativeChange())));
        cells.add(Cell.of(interval(s.interval())));
        cells.add(Cell.of(HumanUnits.pValue(s.pValue())));
        cells.add(verdict(s.verdict(), VerdictWords.Quantity.TIME));
        MetricComparison b = p.bytes();
        cells.add(Cell.of(withSpread(HumanUnits.bytes(b.baselineMedian()), b.baselineMedian(), b.baselineSpread())));
        cells.add(Cell.of(withSpread(HumanUnits.bytes(b.candidateMedian()), b.candidateMedian(), b.candidateSpread())));
        cells.add(Cell.of(HumanUnits.changeOfFraction(b.relativeChange())));
        cells.add(verdict(b.verdict(), VerdictWords.Quantity.SIZE));
        return cells;
    }

    private static void presences(StringBuilder out, String title, List<PathPresence> paths, int limit, Screen screen,
            boolean wide) {
        if (paths.isEmpty()) {
            return;
        }
        out.append('\n').append(TextWidth.clipEnd(title + " (" + paths.size() + ")", screen.width())).append('\n');
        FittedTable table = new FittedTable(Column.path("path", 20), Column.text("kind"), Column.number("runs"));
        for (PathPresence p : limited(paths, limit)) {
            table.row(ListingText.oneLine(p.path()), p.kind(), HumanUnits.count(p.runs()));
        }
        append(out, table, screen, wide);
    }

    /** A comparison of two runs: total time and memory peak, then at most {@code limit} paths (0: all). */
    public static String runs(RunComparison c, int limit, Screen screen, boolean wide) {
        return runs(c, limit, screen, wide, TimeBasis.HOST);
    }

    /** {@link #runs(RunComparison, int, Screen, boolean)} of a comparison on {@code time}. */
    public static String runs(RunComparison c, int limit, Screen screen, boolean wide, TimeBasis time) {
        int width = screen.width();
        StringBuilder out = new StringBuilder();
        LabelledLines facts = new LabelledLines()
                .add("Time", time == TimeBasis.DEVICE ? DEVICE_TIME : null)
                .add("Base", ListingText.oneLine(c.baseRunId()))
                .add("Candidate", ListingText.oneLine(c.candidateRunId()))
                .add(time == TimeBasis.DEVICE ? "Device time" : "Total time", HumanUnits.durationMs(c.totalMs().base()) + " → "
                        + HumanUnits.durationMs(c.totalMs().candidate()) + " (" + percentOrNew(c.totalMs().percent())
                        + ")")
                .add("Memory peak", HumanUnits.bytes(c.peakBytes().base()) + " → "
                        + HumanUnits.bytes(c.peakBytes().candidate()) + " (" + percentOrNew(c.peakBytes().percent())
                        + ")")
                .add("Paths", c.matched().size() + " in both, " + c.added().size() + " added, " + c.removed().size()
                        + " removed" + (c.gradientChanges().isEmpty() ? ""
                                : ", " + c.gradientChanges().size() + " gradient changes"));
        for (String line : facts.lines(width, screen.color())) {
            out.append(line).append('\n');
        }
        out.append('\n');
        FittedTable table = wide
                ? new FittedTable(Column.path("path", 20), Column.text("kind"), Column.number("self base"),
                        Column.number("self candidate"), Column.number("self change"), Column.number("self ratio"),
                        Column.number("total base"), Column.number("total candidate"), Column.number("total change"),
                        Column.number("bytes base"), Column.number("bytes candidate"), Column.number("bytes change"),
                        Column.number("peak base"), Column.number("peak candidate"), Column.number("peak change"))
                : new FittedTable(Column.path("path", 20), Column.text("kind").optional(3), Column.number("self base"),
                        Column.number("self candidate"), Column.number("self change"),
                        Column.number("ratio").optional(4), Column.number("total change").optional(2),
                        Column.number("bytes change").optional(1));
        for (PathChange p : limited(c.matched(), limit)) {
            LongChange self = p.selfTimeNs();
            List<Cell> cells = new ArrayList<>();
            cells.add(Cell.of(ListingText.oneLine(p.path())));
            cells.add(Cell.of(p.kind()));
            cells.add(Cell.of(HumanUnits.duration(self.base())));
            cells.add(Cell.of(HumanUnits.duration(self.candidate())));
            cells.add(Cell.of(HumanUnits.durationChange(self.delta())));
            cells.add(Cell.of(self.ratio() == null ? HumanUnits.NONE : HumanUnits.ratio(self.ratio())));
            if (wide) {
                cells.add(Cell.of(HumanUnits.duration(p.totalTimeNs().base())));
                cells.add(Cell.of(HumanUnits.duration(p.totalTimeNs().candidate())));
            }
            cells.add(Cell.of(HumanUnits.durationChange(p.totalTimeNs().delta())));
            if (wide) {
                cells.add(Cell.of(HumanUnits.bytes(p.bytes().base())));
                cells.add(Cell.of(HumanUnits.bytes(p.bytes().candidate())));
            }
            cells.add(Cell.of(HumanUnits.bytesChange(p.bytes().delta())));
            if (wide) {
                cells.add(Cell.of(HumanUnits.bytes(p.peakBytes().base())));
                cells.add(Cell.of(HumanUnits.bytes(p.peakBytes().candidate())));
                cells.add(Cell.of(HumanUnits.bytesChange(p.peakBytes().delta())));
            }
            table.row(cells);
        }
        append(out, table, screen, wide);
        if (limit > 0 && c.matched().size() > limit) {
            out.append(TextWidth.clipEnd("(" + (c.matched().size() - limit) + " more paths: --limit 0 shows all)",
                    width)).append('\n');
        }
        stats(out, "Added", c.added(), limit, screen, wide);
        stats(out, "Removed", c.removed(), limit, screen, wide);
        if (!c.gradientChanges().isEmpty()) {
            out.append('\n').append("Gradient changes (").append(c.gradientChanges().size()).append(")\n");
            FittedTable g = new FittedTable(Column.shrinking("root", 12), Column.shrinking("key", 12),
                    Column.text("base"), Column.text("candidate"), Column.text("regression"));
            c.gradientChanges().forEach(x -> g.row(List.of(Cell.of(ListingText.oneLine(x.root())),
                    Cell.of(ListingText.oneLine(x.key())), Cell.of(String.valueOf(x.baseState())),
                    Cell.of(String.valueOf(x.candidateState())),
                    x.regression() ? new Cell("yes", Style.BAD) : Cell.of("no"))));
            append(out, g, screen, wide);
        }
        return out.toString();
    }

    private static void stats(StringBuilder out, String title, List<PathStats> stats, int limit, Screen screen,
            boolean wide) {
        if (stats.isEmpty()) {
            return;
        }
        out.append('\n').append(title).append(" (").append(stats.size()).append(")\n");
        FittedTable table = new FittedTable(Column.path("path", 20), Column.text("kind").optional(2),
                Column.number("count").optional(3), Column.number("self time"), Column.number("total time").optional(1),
                Column.number("bytes"));
        for (PathStats s : limited(stats, limit)) {
            table.row(ListingText.oneLine(s.path()), s.kind(), HumanUnits.count(s.count()),
                    HumanUnits.duration(s.selfTimeNs()), HumanUnits.duration(s.totalTimeNs()), HumanUnits.bytes(s.bytes()));
        }
        append(out, table, screen, wide);
    }

    private static void append(StringBuilder out, FittedTable table, Screen screen, boolean wide) {
        FittedTable.Layout layout = table.layout(screen.width(), wide, screen.color());
        for (String line : layout.lines()) {
            out.append(line).append('\n');
        }
        if (!layout.hidden().isEmpty()) {
            int n = layout.hidden().size();
            out.append(TextWidth.clipEnd("(--wide shows " + n + " more column" + (n == 1 ? "" : "s") + ": "
                    + String.join(", ", layout.hidden()) + ")", screen.width())).append('\n');
        }
    }

    /** A median with its spread relative to it: {@code 1.23 ms ±2.1%} (the median alone when there is none). */
    static String withSpread(String median, double value, double spread) {
        if (Double.isNaN(spread) || value == 0) {
            return median;
        }
        return median + " ±" + HumanUnits.percent(spread / Math.abs(value) * 100);
    }

    static String interval(ConfidenceInterval interval) {
        if (interval == null) {
            return HumanUnits.NONE;
        }
        String text = HumanUnits.changeWithInterval(0, interval.lower() * 100, interval.upper() * 100);
        return text.substring(text.indexOf('['));
    }

    static Cell verdict(Verdict verdict, VerdictWords.Quantity quantity) {
        return new Cell(VerdictWords.word(verdict, quantity), VerdictWords.style(verdict));
    }

    private static String percentOrNew(Double percent) {
        return percent == null ? "new" : HumanUnits.change(percent);
    }

    private static <T> List<T> limited(List<T> list, int limit) {
        return limit <= 0 || list.size() <= limit ? list : list.subList(0, limit);
    }
}
