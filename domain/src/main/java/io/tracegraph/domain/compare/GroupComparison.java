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

        Layout layout = Layout.of(base, cand);
        List<Integer> both = new ArrayList<>();
        // Paths with enough runs on each side: the only ones that may be tested.
        List<Integer> eligible = new ArrayList<>();
        List<PathPresence> onlyInBaseline = new ArrayList<>();
        List<PathPresence> onlyInCandidate = new ArrayList<>();
        int sparse = 0;
        for (int p = 0; p < layout.paths(); p++) {
            int inBase = layout.baselineCounts[p];
            int inCand = layout.candidateCounts[p];
            if (inCand == 0) {
                onlyInBaseline.add(new PathPresence(layout.hashes[p], layout.texts[p], layout.kinds[p], inBase));
            } else if (inBase == 0) {
                onlyInCandidate.add(new PathPresence(layout.hashes[p], layout.texts[p], layout.kinds[p], inCand));
            } else {
                both.add(p);
                if (!enough) {
                    continue;
                }
                if (inBase >= min && inCand >= min) {
                    eligible.add(p);
                } else {
                    sparse++;
                }
            }
        }
        // Paths are independent (no path's resamples depend on another path), so they may be computed
        // in parallel without changing the result. First every path gets what an untested one gets
        // (medians and spreads, each side's values sorted once), with the median total time of both
        // sides together where the tested ones are to be chosen by it; then the tested ones get their
        // intervals and rank-sum tests.
        boolean choose = eligible.size() > options.maxTestedPaths();
        boolean[] isEligible = new boolean[layout.paths()];
        for (int p : eligible) {
            isEligible[p] = true;
        }
        double[] pooledMedians = new double[layout.paths()];
        PathComparison[] asUntested = new PathComparison[both.size()];
        int candidateRuns = layout.runs.length - layout.baselineRuns;
        ThreadLocal<double[][][]> scratch = ThreadLocal.withInitial(() -> new double[][][] {
            new double[QUANTITIES][layout.baselineRuns], new double[QUANTITIES][candidateRuns]});
        parallelOver(both.size()).forEach(i -> {
            int p = both.get(i);
            asUntested[i] = untestedPath(layout, p, choose && isEligible[p], pooledMedians, scratch.get());
        });
        Set<Integer> family = testedFamily(layout, eligible, pooledMedians, options.maxTestedPaths());
        boolean[] inFamily = new boolean[layout.paths()];
        List<Integer> familyPaths = new ArrayList<>(family.size());
        for (int p : both) {
            if (family.contains(p)) {
                inFamily[p] = true;
                familyPaths.add(p);
            }
        }
        // Paths that occur once in every run (most of them) share one set of resamples.
        MedianBootstrap.Resamples shared = family.isEmpty() ? null
                : new MedianBootstrap.Resamples(options.seed() ^ SHARED_SALT, options.resamples(), base.size(),
                        cand.size());
        Tested[] testedPaths = new Tested[layout.paths()];
        parallelOver(familyPaths.size()).forEach(i -> {
            int p = familyPaths.get(i);
            testedPaths[p] = comparePath(layout, p, options, shared);
        });
        List<Tested> tested = new ArrayList<>(both.size());
        for (int i = 0; i < both.size(); i++) {
            int p = both.get(i);
            tested.add(inFamily[p] ? testedPaths[p] : new Tested(asUntested[i], null));
        }
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
     * are worked out once: tens of thousands of paths are sorted, in parallel (a stable sort of a
     * total order: the same list as a sort on one thread).
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
        Arrays.parallelSort(keyed, (a, b) -> {
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

    /** {@code 0 .. n - 1}, in parallel from {@value #PARALLEL_PATHS} on. */
    private static IntStream parallelOver(int n) {
        IntStream indices = IntStream.range(0, n);
        return n >= PARALLEL_PATHS ? indices.parallel() : indices;
    }

    /**
     * Path {@code p} untested: medians, changes and spreads, verdicts inconclusive; with
     * {@code pooled}, its median total time of both sides together into {@code pooledMedians[p]}.
     * {@code scratch} holds each side's values per quantity (a side's worth of runs each, reused).
     */
    private static PathComparison untestedPath(Layout layout, int p, boolean pooled, double[] pooledMedians,
            double[][][] scratch) {
        double[][] base = scratch[0];
        double[][] cand = scratch[1];
        int nb = layout.gather(p, 0, layout.baselineRuns, base);
        int nc = layout.gather(p, layout.baselineRuns, layout.runs.length, cand);
        MetricComparison[] metrics = new MetricComparison[QUANTITIES];
        for (int q = 0; q < QUANTITIES; q++) {
            metrics[q] = MedianBootstrap.untested(base[q], nb, cand[q], nc);
        }
        if (pooled) {
            // Both sides' total times are sorted now: their median together by merging.
            pooledMedians[p] = MedianBootstrap.mergedMedian(base[1], nb, cand[1], nc);
        }
        return new PathComparison(layout.hashes[p], layout.texts[p], layout.kinds[p], nb, nc, metrics[0], metrics[1],
                metrics[2]);
    }

    private static Tested comparePath(Layout layout, int p, GroupOptions options, MedianBootstrap.Resamples shared) {
        double[][] base = layout.values(p, 0, layout.baselineRuns, layout.baselineCounts[p]);
        double[][] cand = layout.values(p, layout.baselineRuns, layout.runs.length, layout.candidateCounts[p]);
        long hash = layout.hashes[p];
        MetricComparison[] metrics = MedianBootstrap.compare(base, cand, options.seed() ^ hash, options, true,
                shared);
        PathComparison path = new PathComparison(hash, layout.texts[p], layout.kinds[p], base[0].length,
                cand[0].length, metrics[0], metrics[1], metrics[2]);
        return new Tested(path, rankTests(base, cand));
    }

    /**
     * The paths that get an interval and a verdict: of the {@code eligible} ones (enough runs on each
     * side), at most {@code maxTested}, those with the largest median total time of both sides
     * together ({@code pooledMedians}, by path: set for the eligible ones when there are more than
     * {@code maxTested}). Chosen without looking at which side a run is on, the choice leaves the
     * rank-sum test's chances untouched when nothing changed (its statistic is independent of the
     * pooled values), so Holm's correction need only count these paths.
     */
    private static Set<Integer> testedFamily(Layout layout, List<Integer> eligible, double[] pooledMedians,
            int maxTested) {
        int n = eligible.size();
        Set<Integer> family = new HashSet<>();
        if (n <= maxTested) {
            family.addAll(eligible);
            return family;
        }
        double[] medians = new double[n];
        for (int i = 0; i < n; i++) {
            medians[i] = pooledMedians[eligible.get(i)];
        }
        // The paths whose median is above the cut are in; of those at the cut, the smallest hashes.
        double[] sorted = medians.clone();
        Arrays.sort(sorted);
        double cut = sorted[n - maxTested];
        List<Integer> atCut = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int side = Double.compare(medians[i], cut);
            if (side > 0) {
                family.add(eligible.get(i));
            } else if (side == 0) {
                atCut.add(eligible.get(i));
            }
        }
        atCut.sort(Comparator.comparingLong(p -> layout.hashes[p]));
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
        double[][][] adjusted = new double[QUANTITIES][2][];
        for (int quantity = 0; quantity < QUANTITIES; quantity++) {
            for (int direction = 0; direction < 2; direction++) {
                double[] p = new double[family.size()];
                for (int i = 0; i < p.length; i++) {
                    p[i] = family.get(i).tests()[quantity].pValue(direction);
                }
                significant[quantity][direction] = HolmCorrection.significant(p, alpha);
                adjusted[quantity][direction] = HolmCorrection.adjusted(p);
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
                        significant[quantity][GREATER][index], significant[quantity][LESS][index])
                        .withPValue(test.varies() ? inDirection(metrics[quantity],
                                adjusted[quantity][GREATER][index], adjusted[quantity][LESS][index]) : Double.NaN);
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
        return confirmed(metric, test.varies(), test.pValue(GREATER) <= alpha, test.pValue(LESS) <= alpha)
                .withPValue(enough && test.varies() ? inDirection(metric, test.pValue(GREATER), test.pValue(LESS))
                        : Double.NaN);
    }

    /** The p-value of the test in the direction the median moved (the smaller of both when it did not). */
    private static double inDirection(MetricComparison metric, double greater, double less) {
        double change = metric.relativeChange();
        return change > 0 ? greater : change < 0 ? less : Math.min(greater, less);
    }

    private static MetricComparison confirmed(MetricComparison metric, boolean varies, boolean greater,
            boolean less) {
        boolean unconfirmed = varies && (metric.verdict() == Verdict.SLOWER && !greater
                || metric.verdict() == Verdict.FASTER && !less);
        return unconfirmed ? metric.withVerdict(Verdict.INCONCLUSIVE) : metric;
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

    private static double[] totalMs(List<RunFacts> runs) {
        // + 0.0 turns a -0.0 into 0.0 (and leaves every other value as it is): the medians take
        // equal values as the same, whatever the order in which they are sorted.
        return runs.stream().mapToDouble(r -> r.totalMs() + 0.0).toArray();
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

    /**
     * Where each path is in each run. The runs are numbered baseline first, then candidate, each side
     * in run-id order; the paths in the order they are first met, with the text and kind first seen.
     * The runs compared mostly list the same paths in the same order, so a run's paths are matched by
     * position with the first run's before they are looked up by hash, and a run that lists exactly
     * the first run's paths needs no table of positions.
     */
    private static final class Layout {
        final PathColumns[] runs;
        final int baselineRuns;
        /** Per run, the position of each path (-1: absent); null: the path's own number (the first run's list). */
        final int[][] positions;
        final long[] hashes;
        final String[] texts;
        final String[] kinds;
        final int[] baselineCounts;
        final int[] candidateCounts;

        private Layout(PathColumns[] runs, int baselineRuns, int[][] positions, long[] hashes, String[] texts,
                String[] kinds, int[] baselineCounts, int[] candidateCounts) {
            this.runs = runs;
            this.baselineRuns = baselineRuns;
            this.positions = positions;
            this.hashes = hashes;
            this.texts = texts;
            this.kinds = kinds;
            this.baselineCounts = baselineCounts;
            this.candidateCounts = candidateCounts;
        }

        static Layout of(List<RunFacts> base, List<RunFacts> cand) {
            PathColumns[] runs = new PathColumns[base.size() + cand.size()];
            for (int r = 0; r < runs.length; r++) {
                runs[r] = (r < base.size() ? base.get(r) : cand.get(r - base.size())).columns();
            }
            PathColumns first = runs[0];
            int known = first.size();
            // Paths met after the first run's, and each run's path numbers where they differ from its positions.
            List<Integer> laterRun = new ArrayList<>();
            List<Integer> laterPosition = new ArrayList<>();
            int[][] numbers = new int[runs.length][];
            Map<Long, Integer> byHash = null;
            for (int r = 1; r < runs.length; r++) {
                PathColumns run = runs[r];
                if (run.samePathsAs(first)) {
                    continue;
                }
                if (byHash == null) {
                    byHash = new HashMap<>(known * 2);
                    for (int i = 0; i < known; i++) {
                        byHash.put(first.hash(i), i);
                    }
                }
                int[] number = new int[run.size()];
                for (int i = 0; i < number.length; i++) {
                    long hash = run.hash(i);
                    if (i < known && first.hash(i) == hash) {
                        number[i] = i;
                        continue;
                    }
                    Integer found = byHash.get(hash);
                    if (found == null) {
                        found = known + laterRun.size();
                        byHash.put(hash, found);
                        laterRun.add(r);
                        laterPosition.add(i);
                    }
                    number[i] = found;
                }
                numbers[r] = number;
            }
            int paths = known + laterRun.size();
            long[] hashes = new long[paths];
            String[] texts = new String[paths];
            String[] kinds = new String[paths];
            for (int p = 0; p < paths; p++) {
                PathColumns run = p < known ? first : runs[laterRun.get(p - known)];
                int i = p < known ? p : laterPosition.get(p - known);
                hashes[p] = run.hash(i);
                texts[p] = run.path(i);
                kinds[p] = run.kind(i);
            }
            int[] baselineCounts = new int[paths];
            int[] candidateCounts = new int[paths];
            int[][] positions = new int[runs.length][];
            for (int r = 0; r < runs.length; r++) {
                int[] counts = r < base.size() ? baselineCounts : candidateCounts;
                if (numbers[r] == null) {
                    for (int p = 0; p < known; p++) {
                        counts[p]++;
                    }
                    continue;
                }
                int[] position = new int[paths];
                Arrays.fill(position, -1);
                for (int i = 0; i < numbers[r].length; i++) {
                    position[numbers[r][i]] = i;
                    counts[numbers[r][i]]++;
                }
                positions[r] = position;
            }
            return new Layout(runs, base.size(), positions, hashes, texts, kinds, baselineCounts, candidateCounts);
        }

        int paths() {
            return hashes.length;
        }

        /** Where run {@code r} lists path {@code p}; -1 when it does not. */
        int position(int r, int p) {
            int[] position = positions[r];
            if (position == null) {
                return p < runs[r].size() ? p : -1;
            }
            return position[p];
        }

        /**
         * Self time, total time and bytes of path {@code p} in the runs {@code from .. to - 1} that list
         * it ({@code count} of them), in run order: one array per quantity.
         */
        double[][] values(int p, int from, int to, int count) {
            double[][] values = new double[3][count];
            int at = 0;
            for (int r = from; r < to; r++) {
                int i = position(r, p);
                if (i >= 0) {
                    PathColumns run = runs[r];
                    values[0][at] = run.selfTimeNs(i);
                    values[1][at] = run.totalTimeNs(i);
                    values[2][at] = run.bytes(i);
                    at++;
                }
            }
            return values;
        }

        /**
         * Self time, total time and bytes of path {@code p} in the runs {@code from .. to - 1} that list
         * it, in run order, into {@code values[q][0, count)}; returns that count.
         */
        int gather(int p, int from, int to, double[][] values) {
            double[] self = values[0];
            double[] total = values[1];
            double[] bytes = values[2];
            int at = 0;
            for (int r = from; r < to; r++) {
                int i = position(r, p);
                if (i >= 0) {
                    PathColumns run = runs[r];
                    self[at] = run.selfTimeNs(i);
                    total[at] = run.totalTimeNs(i);
                    bytes[at] = run.bytes(i);
                    at++;
                }
            }
            return at;
        }
    }
}
