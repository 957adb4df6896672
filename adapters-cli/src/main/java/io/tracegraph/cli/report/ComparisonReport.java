package io.tracegraph.cli.report;

import com.fasterxml.jackson.core.JsonGenerator;
import io.tracegraph.domain.compare.ConfidenceInterval;
import io.tracegraph.domain.compare.GradientChange;
import io.tracegraph.cli.render.VerdictWords;
import io.tracegraph.domain.compare.GroupComparison;
import io.tracegraph.domain.compare.MetricComparison;
import io.tracegraph.domain.compare.PathChange;
import io.tracegraph.domain.compare.PathComparison;
import io.tracegraph.domain.compare.PathPresence;
import io.tracegraph.domain.compare.PathStats;
import io.tracegraph.domain.compare.RunComparison;
import io.tracegraph.domain.compare.RunFacts;
import io.tracegraph.domain.compare.Verdict;
import io.tracegraph.domain.graph.ExecutionGraph;
import io.tracegraph.domain.graph.GraphNode;
import io.tracegraph.domain.graph.SemanticPaths;
import io.tracegraph.domain.graph.TimeBasis;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The HTML report of a comparison, of two runs or of two sets of runs: the span tree of both sides
 * merged by semantic path and coloured by the change of each path's total time, a bar chart of the
 * largest regressions and improvements of self time (with their bootstrap confidence intervals for
 * sets), the
 * memory timelines of both sides overlaid, and sortable tables of the changes.
 *
 * <p>The tree is coloured by total time (a change shows along the path down to its cause); the bars
 * rank paths by the absolute change of their self time (the causes themselves).
 *
 * <p>The tree's shape comes from one run of each side (for a set, its representative run: the one
 * with the median total time); its numbers come from the comparison, so for sets they are medians
 * over every run of the side.
 *
 * <p>On device time the comparison, the sides' graphs and the runs are on device time (the caller
 * gives them so); every time the page shows is then a device time, and it says so. On host time,
 * when both sides have device time, a section draws the largest changes of device self time too.
 */
public final class ComparisonReport {
    /** Regressions and improvements the bar chart shows, each. */
    static final int BARS = 12;
    /** Rows of the change tables. */
    static final int TOP = 50;
    /** Points per device and side the overlaid timelines keep at most. */
    static final int TIMELINE_POINTS = 2_000;

    /**
     * One side of the comparison: its label (what the user typed), how many runs it has, and the run
     * whose graph gives the tree and the memory timeline (its label and graph).
     */
    public record Side(String label, int runs, String representative, ExecutionGraph graph) {
    }

    private ComparisonReport() {
    }

    /** The report of two runs; {@code threshold} is the relative change below which a path counts as unchanged. */
    public static void writeRuns(Side base, Side candidate, RunComparison c, double threshold, int maxNodes,
            OutputStream out) throws IOException {
        writeRuns(base, candidate, c, null, TimeBasis.HOST, threshold, maxNodes, out);
    }

    /**
     * The report of two runs compared on {@code time}; {@code device}, when not null, their comparison
     * on device time, drawn as a section of its own.
     */
    public static void writeRuns(Side base, Side candidate, RunComparison c, RunComparison device, TimeBasis time,
            double threshold, int maxNodes, OutputStream out) throws IOException {
        Words w = new Words(time);
        Map<Long, double[]> values = new HashMap<>();
        for (PathChange p : c.matched()) {
            values.put(p.pathHash(), new double[] {p.totalTimeNs().base(), p.totalTimeNs().candidate(),
                p.selfTimeNs().base(), p.selfTimeNs().candidate()});
        }
        for (PathStats p : c.added()) {
            values.put(p.pathHash(), new double[] {Double.NaN, p.totalTimeNs(), Double.NaN, p.selfTimeNs()});
        }
        for (PathStats p : c.removed()) {
            values.put(p.pathHash(), new double[] {p.totalTimeNs(), Double.NaN, p.selfTimeNs(), Double.NaN});
        }
        List<Bar> bars = bars(c);
        PageFacts facts = new PageFacts()
                .add("base", c.baseRunId(), "text").add("candidate", c.candidateRunId(), "text")
                .add("time", w.device ? DEVICE_NOTE : null, "text")
                .add(w.total + ", base", c.totalMs().base(), "ms")
                .add(w.total + ", candidate", c.totalMs().candidate(), "ms")
                .add(w.total + ", change", c.totalMs().percent(), "percent")
                .add("device time, base", device == null ? null : device.totalMs().base(), "ms")
                .add("device time, candidate", device == null ? null : device.totalMs().candidate(), "ms")
                .add("device time, change", device == null ? null : device.totalMs().percent(), "percent")
                .add("memory peak, base", c.peakBytes().base(), "bytes")
                .add("memory peak, candidate", c.peakBytes().candidate(), "bytes")
                .add("memory peak, change", c.peakBytes().percent(), "percent")
                .add("paths in both", (long) c.matched().size(), "count")
                .add("paths added", (long) c.added().size(), "count")
                .add("paths removed", (long) c.removed().size(), "count")
                .add("gradient regressions", c.gradientChanges().stream().filter(GradientChange::regression).count(),
                        "count");
        List<PageTable> tables = new ArrayList<>();
        PageTable.Builder changes = PageTable.named("changes", "Largest changes", "path", "text", "kind", "text",
                w.self + ", base", "ns", w.self + ", candidate", "ns", w.self + " change", "ns", w.totalShort + ", base",
                "ns", w.totalShort + ", candidate", "ns", w.totalShort + " change", "percent", "bytes change", "bytes");
        for (PathChange p : c.matched().subList(0, Math.min(TOP, c.matched().size()))) {
            changes.row(p.path(), p.kind(), p.selfTimeNs().base(), p.selfTimeNs().candidate(), p.selfTimeNs().delta(),
                    p.totalTimeNs().base(), p.totalTimeNs().candidate(), p.totalTimeNs().percent(),
                    p.bytes().delta());
        }
        tables.add(changes.note(String.format(Locale.ROOT, "the %d paths whose %s time changed most (of %,d in "
                + "both runs)", Math.min(TOP, c.matched().size()), w.self, c.matched().size())).build());
        tables.add(presence("added", "Added paths (only in the candidate)", c.added()));
        tables.add(presence("removed", "Removed paths (only in the base)", c.removed()));
        PageTable.Builder gradients = PageTable.named("gradient-changes", "Gradient changes", "root", "text", "key",
                "text", "base", "text", "candidate", "text", "regression", "text");
        for (GradientChange g : c.gradientChanges()) {
            gradients.row(g.root(), g.key(), g.baseState(), g.candidateState(), g.regression() ? "yes" : "");
        }
        tables.add(gradients.build());
        write(out, "runs", time, base, candidate, facts, List.of(), values, Map.of(), bars,
                device == null ? null : bars(device), threshold, maxNodes, tables);
    }

    /** The bars of two runs: every matched path's relative change of self time. */
    private static List<Bar> bars(RunComparison c) {
        List<Bar> bars = new ArrayList<>();
        for (PathChange p : c.matched()) {
            Double ratio = p.selfTimeNs().ratio();
            if (ratio != null) {
                bars.add(new Bar(p.path(), ratio - 1, null, p.selfTimeNs().delta(), p.selfTimeNs().base(),
                        p.selfTimeNs().candidate(), null));
            }
        }
        return bars;
    }

    /** The bars of two sets: every compared path's relative change of its median self time, with its interval. */
    private static List<Bar> bars(GroupComparison c) {
        List<Bar> bars = new ArrayList<>();
        for (PathComparison p : c.paths()) {
            MetricComparison self = p.selfTimeNs();
            if (Double.isFinite(self.relativeChange())) {
                bars.add(new Bar(p.path(), self.relativeChange(), self.interval(),
                        (long) (self.candidateMedian() - self.baselineMedian()), (long) self.baselineMedian(),
                        (long) self.candidateMedian(), VerdictWords.time(self.verdict())));
            }
        }
        return bars;
    }

    /** What the page says it compares on device time. */
    private static final String DEVICE_NOTE = "device: kernels, memcpys and memsets attributed to each path, summed "
            + "over devices; paths without device time are left out";

    /** The names of the times shown, on host or device time. */
    private static final class Words {
        final boolean device;
        final String total;
        final String totalShort;
        final String self;

        Words(TimeBasis time) {
            device = time == TimeBasis.DEVICE;
            total = device ? "device time" : "measured total";
            totalShort = device ? "device total" : "total";
            self = device ? "device self" : "self";
        }
    }

    /** The report of two sets of runs. */
    public static void writeGroups(Side base, Side candidate, GroupComparison c, List<RunFacts> baseRuns,
            List<RunFacts> candidateRuns, int maxNodes, OutputStream out) throws IOException {
        writeGroups(base, candidate, c, baseRuns, candidateRuns, null, TimeBasis.HOST, maxNodes, out);
    }

    /**
     * The report of two sets compared on {@code time}; {@code device}, when not null, their comparison
     * on device time, drawn as a section of its own.
     */
    public static void writeGroups(Side base, Side candidate, GroupComparison c, List<RunFacts> baseRuns,
            List<RunFacts> candidateRuns, GroupComparison device, TimeBasis time, int maxNodes, OutputStream out)
            throws IOException {
        Words w = new Words(time);
        Map<Long, double[]> values = new HashMap<>();
        Map<Long, PathComparison> compared = new HashMap<>();
        List<Bar> bars = bars(c);
        for (PathComparison p : c.paths()) {
            MetricComparison total = p.totalTimeNs();
            values.put(p.pathHash(), new double[] {total.baselineMedian(), total.candidateMedian(),
                p.selfTimeNs().baselineMedian(), p.selfTimeNs().candidateMedian()});
            compared.put(p.pathHash(), p);
        }
        // Paths on one side only have no medians: the representative runs give their size, if they have them.
        Map<Long, PathStats> baseStats = byHash(PathStats.ofGraph(base.graph().spans()));
        Map<Long, PathStats> candStats = byHash(PathStats.ofGraph(candidate.graph().spans()));
        for (PathPresence p : c.onlyInBaseline()) {
            PathStats s = baseStats.get(p.pathHash());
            values.put(p.pathHash(), new double[] {s == null ? 0 : s.totalTimeNs(), Double.NaN,
                s == null ? 0 : s.selfTimeNs(), Double.NaN});
        }
        for (PathPresence p : c.onlyInCandidate()) {
            PathStats s = candStats.get(p.pathHash());
            values.put(p.pathHash(), new double[] {Double.NaN, s == null ? 0 : s.totalTimeNs(), Double.NaN,
                s == null ? 0 : s.selfTimeNs()});
        }
        PageFacts facts = new PageFacts()
                .add("baseline", base.label(), "text").add("baseline runs", (long) c.baselineRuns(), "count")
                .add("candidate", candidate.label(), "text").add("candidate runs", (long) c.candidateRuns(), "count")
                .add("tree and timeline from", base.representative() + " and " + candidate.representative(), "text")
                .add("time", w.device ? DEVICE_NOTE : null, "text")
                .add(w.total + ", baseline median", c.totalMs().baselineMedian(), "ms")
                .add(w.total + ", candidate median", c.totalMs().candidateMedian(), "ms")
                .add(w.total + ", change", pct(c.totalMs().relativeChange()), "percent")
                .add(w.total + ", verdict", VerdictWords.time(c.totalMs().verdict()), "text")
                .add("device time, baseline median", device == null ? null : device.totalMs().baselineMedian(), "ms")
                .add("device time, candidate median", device == null ? null : device.totalMs().candidateMedian(),
                        "ms")
                .add("device time, change", device == null ? null : pct(device.totalMs().relativeChange()), "percent")
                .add("device time, verdict", device == null ? null : VerdictWords.time(device.totalMs().verdict()),
                        "text")
                .add("memory peak, baseline median", (long) c.peakBytes().baselineMedian(), "bytes")
                .add("memory peak, candidate median", (long) c.peakBytes().candidateMedian(), "bytes")
                .add("memory peak, change", pct(c.peakBytes().relativeChange()), "percent")
                .add("memory peak, verdict", VerdictWords.size(c.peakBytes().verdict()), "text")
                .add("threshold", 100 * c.options().threshold(), "share")
                .add("confidence", 100 * c.options().confidence(), "share")
                .add("slower paths", (long) c.pathsWith(Verdict.SLOWER).size(), "count")
                .add("faster paths", (long) c.pathsWith(Verdict.FASTER).size(), "count");
        PageTable.Builder paths = PageTable.named("paths", "Largest changes", "path", "text", "kind", "text",
                "verdict", "text", w.totalShort + ", baseline median", "ns", w.totalShort + ", candidate median", "ns",
                w.totalShort + " change", "percent", "interval low", "percent", "interval high", "percent",
                w.self + " change", "percent", "runs (baseline)", "count", "runs (candidate)", "count");
        for (PathComparison p : c.paths().subList(0, Math.min(TOP, c.paths().size()))) {
            MetricComparison t = p.totalTimeNs();
            paths.row(p.path(), p.kind(), VerdictWords.time(p.verdict()), t.baselineMedian(), t.candidateMedian(),
                    pct(t.relativeChange()), t.interval() == null ? null : pct(t.interval().lower()),
                    t.interval() == null ? null : pct(t.interval().upper()), pct(p.selfTimeNs().relativeChange()),
                    (long) p.baselineRuns(), (long) p.candidateRuns());
        }
        PageTable.Builder members = PageTable.named("runs", "The runs of each side", "side", "text", "run", "text",
                w.total, "ms", "memory peak", "bytes");
        baseRuns.forEach(r -> members.row("baseline", r.runId(), r.totalMs(), r.peakBytes()));
        candidateRuns.forEach(r -> members.row("candidate", r.runId(), r.totalMs(), r.peakBytes()));
        List<PageTable> tables = List.of(paths.note(String.format(Locale.ROOT, "the %d paths whose %s time "
                + "changed most (of %,d in both sets); the verdict is that of the %s time", Math.min(TOP,
                c.paths().size()), w.self, c.paths().size(), w.totalShort)).build(),
                presences("only-in-baseline", "Only in the baseline", c.onlyInBaseline()),
                presences("only-in-candidate", "Only in the candidate", c.onlyInCandidate()), members.build());
        write(out, "groups", time, base, candidate, facts, c.notes(), values, compared, bars,
                device == null ? null : bars(device), c.options().threshold(), maxNodes, tables);
    }

    /**
     * One bar: a path's relative change of self time (where the time went: a slower op makes its
     * ancestors' total times slower too, not their self times), its interval when known, its absolute
     * change and, for sets, the verdict on its self time.
     */
    private record Bar(String path, double change, ConfidenceInterval interval, long deltaNs, long baseNs, long candNs,
            String verdict) {
    }

    private static void write(OutputStream out, String mode, TimeBasis time, Side base, Side candidate,
            PageFacts facts, List<String> notes, Map<Long, double[]> values, Map<Long, PathComparison> compared,
            List<Bar> bars, List<Bar> deviceBars, double threshold, int maxNodes, List<PageTable> tables)
            throws IOException {
        HtmlPage.write(out, g -> {
            g.writeStartObject();
            g.writeStringField("type", "compare");
            g.writeStringField("mode", mode);
            g.writeStringField("time", time.wire());
            g.writeStringField("title", base.label() + " vs " + candidate.label());
            g.writeStringField("base_label", base.label());
            g.writeStringField("candidate_label", candidate.label());
            g.writeNumberField("threshold", threshold);
            facts.write(g, "facts");
            g.writeArrayFieldStart("notes");
            for (String note : notes) {
                g.writeString(note);
            }
            g.writeEndArray();
            g.writeFieldName("flame");
            flame(g, base.graph(), candidate.graph(), values, compared, maxNodes);
            g.writeFieldName("bars");
            bars(g, bars);
            if (deviceBars != null) {
                g.writeFieldName("device_bars");
                bars(g, deviceBars);
            }
            g.writeObjectFieldStart("memory");
            timelines(g, "base", base);
            timelines(g, "candidate", candidate);
            g.writeEndObject();
            PageTable.writeAll(g, "tables", tables);
            g.writeEndObject();
        });
    }

    /**
     * The merged tree: every path of either representative graph once, under its parent path, in
     * the order the candidate (then the base) first starts it. Columns: {@code base} and {@code cand}
     * total time (null where the path is absent), their self times, {@code change} (relative change
     * of total time), {@code lo}/{@code hi} (its interval), {@code verdict}, {@code presence}.
     */
    private static void flame(JsonGenerator g, ExecutionGraph base, ExecutionGraph candidate, Map<Long, double[]> values,
            Map<Long, PathComparison> compared, int maxNodes) throws IOException {
        Union union = new Union();
        union.add(candidate);
        union.add(base);
        int n = union.size();
        int[] parents = union.parents();
        long[] weight = new long[n];
        double[][] v = new double[n][];
        for (int i = 0; i < n; i++) {
            v[i] = values.getOrDefault(union.hashes.get(i), new double[] {Double.NaN, Double.NaN, Double.NaN,
                Double.NaN});
            weight[i] = (long) Math.max(nanToZero(v[i][0]), nanToZero(v[i][1]));
        }
        long[] order = union.starts.stream().mapToLong(Long::longValue).toArray();
        FlameTree tree = FlameTree.of(parents, weight, order, maxNodes);
        int size = tree.size();
        RunReport.Names names = new RunReport.Names();
        int[] name = new int[size];
        String[] kind = new String[size];
        Double[][] columns = new Double[4][size];
        Double[] change = new Double[size];
        Double[] lo = new Double[size];
        Double[] hi = new Double[size];
        String[] verdict = new String[size];
        String[] presence = new String[size];
        int[] parent = new int[size];
        long[] count = new long[size];
        for (int e = 0; e < size; e++) {
            int s = tree.source(e);
            parent[e] = tree.parent(e);
            count[e] = tree.nodes(e);
            double[] sums;
            if (s >= 0) {
                name[e] = names.of(union.names.get(s));
                kind[e] = union.kinds.get(s);
                sums = v[s];
                PathComparison p = compared.get(union.hashes.get(s));
                if (p != null) {
                    verdict[e] = VerdictWords.time(p.verdict());
                    ConfidenceInterval interval = p.totalTimeNs().interval();
                    if (interval != null) {
                        lo[e] = finite(interval.lower());
                        hi[e] = finite(interval.upper());
                    }
                }
                presence[e] = Double.isNaN(sums[0]) ? "added" : Double.isNaN(sums[1]) ? "removed" : "both";
            } else {
                boolean merged = s == FlameTree.MERGED;
                name[e] = names.of(merged ? "" : "(all roots)");
                kind[e] = merged ? "merged" : "root";
                int[] members = merged ? tree.members(e) : FlameTree.roots(parents);
                sums = new double[4];
                for (int c : members) {
                    for (int k = 0; k < 4; k++) {
                        sums[k] += nanToZero(v[c][k]);
                    }
                }
                presence[e] = merged ? "merged" : "both";
            }
            for (int k = 0; k < 4; k++) {
                columns[k][e] = Double.isNaN(sums[k]) ? null : sums[k];
            }
            if (!Double.isNaN(sums[0]) && !Double.isNaN(sums[1]) && sums[0] > 0) {
                change[e] = sums[1] / sums[0] - 1;
            }
            if (s >= 0 && compared.containsKey(union.hashes.get(s))) {
                change[e] = finite(compared.get(union.hashes.get(s)).totalTimeNs().relativeChange());
            }
        }
        g.writeStartObject();
        names.write(g);
        RunReport.ints(g, "name", name);
        strings(g, "kind", kind);
        RunReport.ints(g, "parent", parent);
        doubles(g, "base", columns[0]);
        doubles(g, "cand", columns[1]);
        doubles(g, "base_self", columns[2]);
        doubles(g, "cand_self", columns[3]);
        doubles(g, "change", change);
        doubles(g, "lo", lo);
        doubles(g, "hi", hi);
        strings(g, "verdict", verdict);
        strings(g, "presence", presence);
        RunReport.longs(g, "count", count);
        g.writeNumberField("nodes", n);
        g.writeStringField("note", RunReport.pruneNote(tree, "paths"));
        g.writeEndObject();
    }

    /** Paths of the representative graphs keyed by hash, with their names, kinds, parents and order. */
    private static final class Union {
        final List<Long> hashes = new ArrayList<>();
        final List<String> names = new ArrayList<>();
        final List<String> kinds = new ArrayList<>();
        final List<Long> parentHashes = new ArrayList<>();
        final List<Boolean> hasParent = new ArrayList<>();
        final List<Long> starts = new ArrayList<>();
        final Map<Long, Integer> index = new HashMap<>();

        void add(ExecutionGraph graph) {
            List<GraphNode> nodes = graph.spans();
            SemanticPaths paths = SemanticPaths.of(nodes);
            Map<String, Integer> byId = new HashMap<>(nodes.size() * 2);
            long origin = Long.MAX_VALUE;
            for (int i = 0; i < nodes.size(); i++) {
                byId.putIfAbsent(nodes.get(i).id(), i);
                if (nodes.get(i).parentId() == null) {
                    origin = Math.min(origin, nodes.get(i).startNs());
                }
            }
            for (int i = 0; i < nodes.size(); i++) {
                long hash = paths.hash(i);
                if (index.containsKey(hash)) {
                    continue;
                }
                GraphNode node = nodes.get(i);
                Integer p = node.parentId() == null ? null : byId.get(node.parentId());
                index.put(hash, hashes.size());
                hashes.add(hash);
                names.add(node.name());
                kinds.add(node.device() != null ? "op" : node.kind().name().toLowerCase(Locale.ROOT));
                hasParent.add(p != null && p != i);
                parentHashes.add(p != null && p != i ? paths.hash(p) : 0L);
                starts.add(origin == Long.MAX_VALUE ? node.startNs() : node.startNs() - origin);
            }
        }

        int size() {
            return hashes.size();
        }

        int[] parents() {
            int[] parents = new int[size()];
            for (int i = 0; i < parents.length; i++) {
                Integer p = hasParent.get(i) ? index.get(parentHashes.get(i)) : null;
                parents[i] = p == null || p == i ? -1 : p;
            }
            return parents;
        }
    }

    private static void bars(JsonGenerator g, List<Bar> all) throws IOException {
        List<Bar> slower = all.stream().filter(b -> b.deltaNs() > 0)
                .sorted(Comparator.comparingLong(Bar::deltaNs).reversed()).limit(BARS).toList();
        List<Bar> faster = all.stream().filter(b -> b.deltaNs() < 0)
                .sorted(Comparator.comparingLong(Bar::deltaNs)).limit(BARS).toList();
        g.writeStartArray();
        for (List<Bar> side : List.of(slower, faster)) {
            for (Bar b : side) {
                g.writeStartObject();
                g.writeStringField("path", b.path());
                g.writeNumberField("change", b.change());
                if (b.interval() != null) {
                    g.writeFieldName("lo");
                    PageTable.value(g, b.interval().lower());
                    g.writeFieldName("hi");
                    PageTable.value(g, b.interval().upper());
                }
                g.writeNumberField("delta", b.deltaNs());
                g.writeNumberField("base", b.baseNs());
                g.writeNumberField("cand", b.candNs());
                if (b.verdict() != null) {
                    g.writeStringField("verdict", b.verdict());
                }
                g.writeEndObject();
            }
        }
        g.writeEndArray();
    }

    private static void timelines(JsonGenerator g, String field, Side side) throws IOException {
        ExecutionGraph graph = side.graph();
        long origin = MemorySeries.origin(graph.memory().timeline());
        g.writeObjectFieldStart(field);
        g.writeStringField("label", side.representative());
        g.writeArrayFieldStart("devices");
        for (MemorySeries s : MemorySeries.of(graph.memory().timeline(), TIMELINE_POINTS)) {
            s.write(g, origin);
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    private static PageTable presence(String id, String title, List<PathStats> stats) {
        PageTable.Builder t = PageTable.named(id, title, "path", "text", "kind", "text", "occurrences", "count",
                "self time", "ns", "total time", "ns", "bytes", "bytes");
        for (PathStats s : stats.subList(0, Math.min(TOP, stats.size()))) {
            t.row(s.path(), s.kind(), s.count(), s.selfTimeNs(), s.totalTimeNs(), s.bytes());
        }
        if (stats.size() > TOP) {
            t.note(String.format(Locale.ROOT, "the %d largest of %,d", TOP, stats.size()));
        }
        return t.build();
    }

    private static PageTable presences(String id, String title, List<PathPresence> paths) {
        PageTable.Builder t = PageTable.named(id, title, "path", "text", "kind", "text", "runs", "count");
        for (PathPresence p : paths.subList(0, Math.min(TOP, paths.size()))) {
            t.row(p.path(), p.kind(), (long) p.runs());
        }
        if (paths.size() > TOP) {
            t.note(String.format(Locale.ROOT, "the first %d of %,d", TOP, paths.size()));
        }
        return t.build();
    }

    private static Map<Long, PathStats> byHash(List<PathStats> stats) {
        Map<Long, PathStats> map = new HashMap<>(stats.size() * 2);
        stats.forEach(s -> map.put(s.pathHash(), s));
        return map;
    }

    private static void strings(JsonGenerator g, String field, String[] values) throws IOException {
        g.writeArrayFieldStart(field);
        for (String s : values) {
            if (s == null) {
                g.writeNull();
            } else {
                g.writeString(s);
            }
        }
        g.writeEndArray();
    }

    private static void doubles(JsonGenerator g, String field, Double[] values) throws IOException {
        g.writeArrayFieldStart(field);
        for (Double d : values) {
            PageTable.value(g, d);
        }
        g.writeEndArray();
    }

    private static double nanToZero(double d) {
        return Double.isNaN(d) ? 0 : d;
    }

    private static Double finite(double d) {
        return Double.isFinite(d) ? d : null;
    }

    private static Double pct(double fraction) {
        return Double.isFinite(fraction) ? 100 * fraction : null;
    }

    private static String wire(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT);
    }
}
