package io.tracegraph.domain.compare;

import io.tracegraph.domain.trace.CodePointOrder;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * Two groups of runs compared path by path, because single runs are noisy.
 *
 * <p>For each quantity (a path's self time, total time and bytes; each run's total time and memory
 * peak) the result holds the median of each side and the relative change
 * {@code median(candidate) / median(baseline) - 1}. Its confidence interval is a percentile
 * bootstrap: both sides are resampled with replacement (runs keep their quantities together), the
 * change is recomputed {@code resamples} times, and the interval spans the middle
 * {@code confidence} of those changes. A quantity is {@link Verdict#SLOWER} only when the whole
 * interval lies above {@code +threshold} (so noise smaller than the threshold cannot make it so)
 * and, where its values vary, a one-sided {@linkplain RankSumTest rank-sum test} is significant
 * with Holm's {@linkplain HolmCorrection correction} for all tested paths at the error rate
 * {@code (1 - confidence) / 2} (so that among thousands of noisy spans none is called slower by luck);
 * {@link Verdict#FASTER} likewise below {@code -threshold}; {@link Verdict#UNCHANGED} when the
 * interval lies within; and {@link Verdict#INCONCLUSIVE} otherwise, when a side has fewer than
 * {@code minRunsPerSide} runs (of the whole group, or of those in which the path occurs), or when
 * the path is not among the {@code maxTestedPaths} with the most total time (both sides together),
 * which alone are tested: a model of 50,000 spans cannot have them all confirmed by ten runs, and
 * the spans that matter are the big ones.
 *
 * <p>Results are reproducible: the resamples come from a {@link java.util.SplittableRandom} seeded
 * from {@code seed} alone for the paths that occur in every run (drawn once, shared by them) and
 * with {@code seed ^ pathHash} for each other path, so a path's interval depends neither on the
 * other paths nor on the order of the runs (each side is taken in run-id order), and many paths are
 * computed in parallel without changing anything. {@code paths} lists the paths found slower or
 * faster first, then the others, each part sorted by the absolute relative change of self time,
 * descending, then by path (code point order) and hash; the one-sided lists by path.
 */
public record GroupComparison(
        int baselineRuns,
        int candidateRuns,
        GroupOptions options,
        List<String> notes,
        List<PathComparison> paths,
        List<PathPresence> onlyInBaseline,
        List<PathPresence> onlyInCandidate,
        MetricComparison totalMs,
        MetricComparison peakBytes) {

    /** From this many compared paths on, they are computed in parallel. */
    private static final int PARALLEL_PATHS = 256;
    private static final int QUANTITIES = 3;
    private static final int GREATER = 0;
    private static final int LESS = 1;
    private static final long SHARED_SALT = 0x7368617265645f72L;
    private static final long TOTAL_MS_SALT = 0x746f74616c5f6d73L;
    private static final long PEAK_BYTES_SALT = 0x7065616b5f627974L;
    private static final Comparator<PathPresence> BY_PATH =
            Comparator.comparing(PathPresence::path, CodePointOrder.COMPARATOR)
                    .thenComparingLong(PathPresence::pathHash);
    private static final Comparator<RunFacts> BY_RUN_ID =
            Comparator.comparing(RunFacts::runId, CodePointOrder.COMPARATOR);

    public GroupComparison {
        if (baselineRuns < 1 || candidateRuns < 1) {
            throw new IllegalArgumentException("each side needs a run: " + baselineRuns + ", " + candidateRuns);
        }
        Objects.requireNonNull(options, "options");
        notes = List.copyOf(notes);
        paths = List.copyOf(paths);
        onlyInBaseline = List.copyOf(onlyInBaseline);
        onlyInCandidate = List.copyOf(onlyInCandidate);
        Objects.requireNonNull(totalMs, "totalMs");
        Objects.requireNonNull(peakBytes, "peakBytes");
    }

    public static GroupComparison compare(List<RunFacts> baseline, List<RunFacts> candidate) {
        return compare(baseline, candidate, GroupOptions.defaults());
    }

    /**
     * Compares the groups. Each side needs at least one run and may not list a run id twice (the
     * same runs on both sides are fine). O(paths · resamples · runs).
     */
    public static GroupComparison compare(List<RunFacts> baseline, List<RunFacts> candidate, GroupOptions options) {
        Objects.requireNonNull(options, "options");
        List<RunFacts> base = inRunIdOrder(baseline, "baseline");
        List<RunFacts> cand = inRunIdOrder(candidate, "candidate");
        int min = options.minRunsPerSide();
        boolean enough = base.size() >= min && cand.size() >= min;
        List<String> notes = new ArrayList<>();
        if (!enough) {
            notes.add(String.format(Locale.ROOT,
                    "too few runs: baseline has %d, candidate has %d; at least %d per side are needed",
                    base.size(), cand.size(), min));
        }

        Map<Long, Occurrences> byHash = collect(base, cand);
        List<Occurrences> both = new ArrayList<>();
        // Paths with enough runs on each side: the only ones that may be tested.
        List<Occurrences> eligible = new ArrayList<>();
        List<PathPresence> onlyInBaseline = new ArrayList<>();
        List<PathPresence> onlyInCandidate = new ArrayList<>();
        int sparse = 0;
        for (Occurrences o : byHash.values()) {
            if (o.candidate.isEmpty()) {
                onlyInBaseline.add(new PathPresence(o.hash, o.path, o.kind, o.baseline.size()));
            } else if (o.baseline.isEmpty()) {
                onlyInCandidate.add(new PathPresence(o.hash, o.path, o.kind, o.candidate.size()));
            } else {
                both.add(o);
                if (!enough) {
                    continue;
                }
                if (o.baseline.size() >= min && o.candidate.size() >= min) {
                    eligible.add(o);
                } else {
                    sparse++;
                }
            }
        }
        // Paths are independent (no path's resamples depend on another path), so they may be computed
        // in parallel without changing the result.
        Set<Long> family = testedFamily(eligible, options.maxTestedPaths());
        Stream<Occurrences> work = both.size() >= PARALLEL_PATHS ? both.parallelStream() : both.stream();
        // Paths that occur once in every run (most of them) share one set of resamples.
        MedianBootstrap.Resamples shared = family.isEmpty() ? null
                : new MedianBootstrap.Resamples(options.seed() ^ SHARED_SALT, options.resamples(), base.size(),
                        cand.size());
        List<Tested> tested = work.map(o -> comparePath(o, options, family.contains(o.hash), shared)).toList();
        Confirmation confirmation = confirm(tested, options);
        List<PathComparison> compared = new ArrayList<>(confirmation.paths());
        if (sparse > 0) {
            notes.add(sparse == 1
                    ? String.format(Locale.ROOT, "1 path occurs in fewer than %d runs of a side; its verdict is "
                            + "inconclusive", min)
                    : String.format(Locale.ROOT, "%d paths occur in fewer than %d runs of a side; their verdicts are "
                            + "inconclusive", sparse, min));
        }
        int untested = eligible.size() - family.size();
        if (untested > 0) {
            notes.add(String.format(Locale.ROOT, "%d %s less total time than the %d largest %s not tested: medians "
                    + "and changes only, verdict inconclusive", untested, untested == 1 ? "path with" : "paths with",
                    family.size(), untested == 1 ? "is" : "are"));
        }
        if (confirmation.unconfirmed() > 0) {
            int unconfirmed = confirmation.unconfirmed();
            notes.add(String.format(Locale.ROOT, "%s beyond the threshold %s inconclusive: the rank-sum test does "
                    + "not confirm the change (%s tested, family-wise error rate %s%%)",
                    unconfirmed == 1 ? "1 path whose interval lies" : unconfirmed + " paths whose intervals lie",
                    unconfirmed == 1 ? "is" : "are", family.size() == 1 ? "1 path" : family.size() + " paths",
                    percent(errorRate(options))));
        }
        sortByChange(compared);
        onlyInBaseline.sort(BY_PATH);
        onlyInCandidate.sort(BY_PATH);

        MetricComparison totalMs = runMetric(totalMs(base), totalMs(cand), TOTAL_MS_SALT, options, enough);
        MetricComparison peakBytes = runMetric(peakBytes(base), peakBytes(cand), PEAK_BYTES_SALT, options, enough);
        return new GroupComparison(base.size(), cand.size(), options, notes, compared, onlyInBaseline,
                onlyInCandidate, totalMs, peakBytes);
    }

    /**
     * Sorts the paths found slower or faster first, then the others, each part by the absolute
     * relative change of self time, descending, then by path (code point order) and hash. The keys
     * are worked out once: tens of thousands of paths are sorted.
     */
    private static void sortByChange(List<PathComparison> paths) {
        record Keyed(PathComparison path, boolean decided, double change) {
        }
        Keyed[] keyed = new Keyed[paths.size()];
        for (int i = 0; i < keyed.length; i++) {
            PathComparison p = paths.get(i);
            keyed[i] = new Keyed(p, p.verdict() == Verdict.SLOWER || p.verdict() == Verdict.FASTER,
                    Math.abs(p.selfTimeNs().relativeChange()));
        }
        Arrays.sort(keyed, (a, b) -> {
            if (a.decided() != b.decided()) {
                return a.decided() ? -1 : 1;
            }
            int byChange = Double.compare(b.change(), a.change());
            if (byChange != 0) {
                return byChange;
            }
            int byPath = CodePointOrder.COMPARATOR.compare(a.path().path(), b.path().path());
            return byPath != 0 ? byPath : Long.compare(a.path().pathHash(), b.path().pathHash());
        });
        for (int i = 0; i < keyed.length; i++) {
            paths.set(i, keyed[i].path());
        }
    }

    private static Tested comparePath(Occurrences o, GroupOptions options, boolean tested,
            MedianBootstrap.Resamples shared) {
        double[][] base = values(o.baseline);
        double[][] cand = values(o.candidate);
        MetricComparison[] metrics = MedianBootstrap.compare(base, cand, options.seed() ^ o.hash, options, tested,
                shared);
        PathComparison path = new PathComparison(o.hash, o.path, o.kind, o.baseline.size(), o.candidate.size(),
                metrics[0], metrics[1], metrics[2]);
        return new Tested(path, tested ? rankTests(base, cand) : null);
    }

    /**
     * The paths that get an interval and a verdict: of the {@code eligible} ones (enough runs on each
     * side), at most {@code maxTested}, those with the largest median total time of both sides
     * together. Chosen without looking at which side a run is on, the choice leaves the rank-sum
     * test's chances untouched when nothing changed (its statistic is independent of the pooled
     * values), so Holm's correction need only count these paths.
     */
    private static Set<Long> testedFamily(List<Occurrences> eligible, int maxTested) {
        int n = eligible.size();
        Set<Long> family = new HashSet<>();
        if (n <= maxTested) {
            eligible.forEach(o -> family.add(o.hash));
            return family;
        }
        double[] medians = new double[n];
        IntStream indices = IntStream.range(0, n);
        (n >= PARALLEL_PATHS ? indices.parallel() : indices).forEach(i -> {
            Occurrences o = eligible.get(i);
            double[] totals = new double[o.baseline.size() + o.candidate.size()];
            int at = 0;
            for (PathStats stats : o.baseline) {
                totals[at++] = stats.totalTimeNs();
            }
            for (PathStats stats : o.candidate) {
                totals[at++] = stats.totalTimeNs();
            }
            medians[i] = MedianBootstrap.medianInPlace(totals);
        });
        // The paths whose median is above the cut are in; of those at the cut, the smallest hashes.
        double[] sorted = medians.clone();
        Arrays.sort(sorted);
        double cut = sorted[n - maxTested];
        List<Long> atCut = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int side = Double.compare(medians[i], cut);
            if (side > 0) {
                family.add(eligible.get(i).hash);
            } else if (side == 0) {
                atCut.add(eligible.get(i).hash);
            }
        }
        atCut.sort(null);
        family.addAll(atCut.subList(0, maxTested - family.size()));
        return family;
    }

    /**
     * A verdict of slower or faster needs two things: the interval beyond the threshold (the change
     * is large enough to matter) and, where the values vary, the rank-sum test significant after
     * Holm's correction for all tested paths (the change is not luck among many).
     * Values that vary on neither side are measured, not estimated: their interval alone decides.
     */
    private static Confirmation confirm(List<Tested> tested, GroupOptions options) {
        double alpha = errorRate(options);
        List<Tested> family = tested.stream().filter(t -> t.tests() != null).toList();
        boolean[][][] significant = new boolean[QUANTITIES][2][];
        for (int quantity = 0; quantity < QUANTITIES; quantity++) {
            for (int direction = 0; direction < 2; direction++) {
                double[] p = new double[family.size()];
                for (int i = 0; i < p.length; i++) {
                    p[i] = family.get(i).tests()[quantity].pValue(direction);
                }
                significant[quantity][direction] = HolmCorrection.significant(p, alpha);
            }
        }
        Map<Long, Integer> familyIndex = new HashMap<>();
        for (int i = 0; i < family.size(); i++) {
            familyIndex.put(family.get(i).path().pathHash(), i);
        }
        List<PathComparison> paths = new ArrayList<>(tested.size());
        int unconfirmed = 0;
        for (Tested t : tested) {
            PathComparison p = t.path();
            Integer index = familyIndex.get(p.pathHash());
            if (index == null) {
                paths.add(p);
                continue;
            }
            MetricComparison[] metrics = {p.selfTimeNs(), p.totalTimeNs(), p.bytes()};
            for (int quantity = 0; quantity < QUANTITIES; quantity++) {
                RankTests test = t.tests()[quantity];
                metrics[quantity] = confirmed(metrics[quantity], test.varies(),
                        significant[quantity][GREATER][index], significant[quantity][LESS][index]);
            }
            if (metrics[1].verdict() != p.totalTimeNs().verdict()) {
                unconfirmed++;
            }
            paths.add(new PathComparison(p.pathHash(), p.path(), p.kind(), p.baselineRuns(), p.candidateRuns(),
                    metrics[0], metrics[1], metrics[2]));
        }
        return new Confirmation(paths, unconfirmed);
    }

    private static MetricComparison runMetric(double[] base, double[] cand, long salt, GroupOptions options,
            boolean enough) {
        MetricComparison metric = MedianBootstrap.compare(new double[][] {base}, new double[][] {cand},
                options.seed() ^ salt, options, enough)[0];
        RankTests test = rankTests(new double[][] {base}, new double[][] {cand})[0];
        double alpha = errorRate(options);
        return confirmed(metric, test.varies(), test.pValue(GREATER) <= alpha, test.pValue(LESS) <= alpha);
    }

    private static MetricComparison confirmed(MetricComparison metric, boolean varies, boolean greater,
            boolean less) {
        boolean unconfirmed = varies && (metric.verdict() == Verdict.SLOWER && !greater
                || metric.verdict() == Verdict.FASTER && !less);
        return unconfirmed
                ? new MetricComparison(metric.baselineMedian(), metric.candidateMedian(), metric.relativeChange(),
                        metric.interval(), Verdict.INCONCLUSIVE)
                : metric;
    }

    private static RankTests[] rankTests(double[][] base, double[][] cand) {
        RankTests[] tests = new RankTests[base.length];
        for (int q = 0; q < base.length; q++) {
            boolean varies = !MedianBootstrap.constant(base[q]) || !MedianBootstrap.constant(cand[q]);
            tests[q] = varies
                    ? new RankTests(true, RankSumTest.pGreater(base[q], cand[q]), RankSumTest.pLess(base[q], cand[q]))
                    : new RankTests(false, 1, 1);
        }
        return tests;
    }

    /** One-sided tests, so each direction gets the tail the two-sided interval leaves it. */
    private static double errorRate(GroupOptions options) {
        return (1 - options.confidence()) / 2;
    }

    private static String percent(double fraction) {
        return new BigDecimal(String.format(Locale.ROOT, "%.6g", fraction * 100)).stripTrailingZeros().toPlainString();
    }

    /** Whether both sides have at least {@code minRunsPerSide} runs. */
    public boolean enoughRuns() {
        return baselineRuns >= options.minRunsPerSide() && candidateRuns >= options.minRunsPerSide();
    }

    /**
     * Whether any verdict is {@link Verdict#SLOWER} with a relative change above {@code fraction}
     * ({@code 0.10} = 10%, the same scale as {@link GroupOptions#threshold()}; for
     * {@code --fail-on-regression PCT} pass {@code PCT / 100}): a path's
     * {@linkplain PathComparison#verdict() verdict} (its total time), the runs' total time or their
     * memory peak. Self-time and bytes verdicts of paths do not count.
     */
    public boolean regressionOver(double fraction) {
        if (Double.isNaN(fraction)) {
            throw new IllegalArgumentException("fraction must be a number");
        }
        for (PathComparison path : paths) {
            if (path.totalTimeNs().slowerBy(fraction)) {
                return true;
            }
        }
        return totalMs.slowerBy(fraction) || peakBytes.slowerBy(fraction);
    }

    /** The compared paths whose verdict is {@code verdict}, in result order. */
    public List<PathComparison> pathsWith(Verdict verdict) {
        return paths.stream().filter(p -> p.verdict() == verdict).toList();
    }

    private static List<RunFacts> inRunIdOrder(List<RunFacts> runs, String side) {
        List<RunFacts> sorted = new ArrayList<>(runs);
        if (sorted.isEmpty()) {
            throw new IllegalArgumentException("the " + side + " has no runs");
        }
        sorted.sort(BY_RUN_ID);
        for (int i = 1; i < sorted.size(); i++) {
            if (sorted.get(i).runId().equals(sorted.get(i - 1).runId())) {
                throw new IllegalArgumentException(
                        "run " + sorted.get(i).runId() + " is listed twice in the " + side);
            }
        }
        return sorted;
    }

    /**
     * Each path's occurrences on each side. The runs compared mostly have the same paths in the same
     * order, so a run's paths are first matched by position with the first run's, then by hash.
     */
    private static Map<Long, Occurrences> collect(List<RunFacts> base, List<RunFacts> cand) {
        Map<Long, Occurrences> byHash = new HashMap<>();
        List<PathStats> first = base.get(0).paths();
        Occurrences[] aligned = new Occurrences[first.size()];
        for (int i = 0; i < aligned.length; i++) {
            PathStats stats = first.get(i);
            aligned[i] = new Occurrences(stats);
            aligned[i].baseline.add(stats);
            byHash.put(stats.pathHash(), aligned[i]);
        }
        for (int side = 0; side < 2; side++) {
            List<RunFacts> runs = side == 0 ? base.subList(1, base.size()) : cand;
            for (RunFacts run : runs) {
                List<PathStats> paths = run.paths();
                for (int i = 0; i < paths.size(); i++) {
                    PathStats stats = paths.get(i);
                    Occurrences o = i < aligned.length && aligned[i].hash == stats.pathHash() ? aligned[i]
                            : byHash.computeIfAbsent(stats.pathHash(), h -> new Occurrences(stats));
                    (side == 0 ? o.baseline : o.candidate).add(stats);
                }
            }
        }
        return byHash;
    }

    /** Self time, total time and bytes of each occurrence, one array per quantity. */
    private static double[][] values(List<PathStats> occurrences) {
        int n = occurrences.size();
        double[][] values = new double[3][n];
        for (int i = 0; i < n; i++) {
            PathStats stats = occurrences.get(i);
            values[0][i] = stats.selfTimeNs();
            values[1][i] = stats.totalTimeNs();
            values[2][i] = stats.bytes();
        }
        return values;
    }

    private static double[] totalMs(List<RunFacts> runs) {
        return runs.stream().mapToDouble(RunFacts::totalMs).toArray();
    }

    private static double[] peakBytes(List<RunFacts> runs) {
        return runs.stream().mapToDouble(RunFacts::peakBytes).toArray();
    }

    /** A compared path before its verdicts are confirmed by the rank-sum tests ({@code tests} null: not tested). */
    private record Tested(PathComparison path, RankTests[] tests) {
    }

    /** The one-sided p-values of one quantity ({@code varies}: whether any value differs from another). */
    private record RankTests(boolean varies, double pGreater, double pLess) {
        double pValue(int direction) {
            return direction == GREATER ? pGreater : pLess;
        }
    }

    /** The confirmed paths, and how many of their total-time verdicts fell back to inconclusive. */
    private record Confirmation(List<PathComparison> paths, int unconfirmed) {
    }

    /** A path's occurrences on each side (one per run), with the text and kind first seen. */
    private static final class Occurrences {
        final long hash;
        final String path;
        final String kind;
        final List<PathStats> baseline = new ArrayList<>();
        final List<PathStats> candidate = new ArrayList<>();

        Occurrences(PathStats first) {
            this.hash = first.pathHash();
            this.path = first.path();
            this.kind = first.kind();
        }
    }
}
