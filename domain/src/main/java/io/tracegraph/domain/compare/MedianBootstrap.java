package io.tracegraph.domain.compare;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The percentile bootstrap of the relative change between the medians of two samples, for several
 * quantities measured on the same runs: one resample draws runs with replacement, so the quantities
 * of a run stay together. Each resample costs O(runs) (multiplicities walked in presorted order,
 * no sort), each interval O(resamples) (selection of its two bounds, no sort).
 */
final class MedianBootstrap {
    private MedianBootstrap() {
    }

    /**
     * Compares {@code baseline[q]} with {@code candidate[q]} for every quantity {@code q}; the
     * arrays of one side all have one entry per run of that side (at least one). Without
     * {@code enough} runs, medians and changes only, every verdict inconclusive.
     */
    static MetricComparison[] compare(double[][] baseline, double[][] candidate, long seed, GroupOptions options,
            boolean enough) {
        return compare(baseline, candidate, seed, options, enough, null);
    }

    /**
     * As {@link #compare(double[][], double[][], long, GroupOptions, boolean)}, taking the resamples
     * from {@code shared} when its side sizes are this comparison's (many paths occur in every run:
     * they need not draw the same kind of resamples each), else drawing them from {@code seed}.
     */
    static MetricComparison[] compare(double[][] baseline, double[][] candidate, long seed, GroupOptions options,
            boolean enough, Resamples shared) {
        int quantities = baseline.length;
        MetricComparison[] result = new MetricComparison[quantities];
        if (!enough) {
            for (int q = 0; q < quantities; q++) {
                double b = median(baseline[q]);
                double c = median(candidate[q]);
                result[q] = new MetricComparison(b, c, relativeChange(b, c), null, Verdict.INCONCLUSIVE,
                        spread(baseline[q], b), spread(candidate[q], c), Double.NaN);
            }
            return result;
        }
        int nb = baseline[0].length;
        int nc = candidate[0].length;
        int[][] baseOrder = new int[quantities][];
        int[][] candOrder = new int[quantities][];
        boolean[] varies = new boolean[quantities];
        boolean anyVaries = false;
        for (int q = 0; q < quantities; q++) {
            baseOrder[q] = order(baseline[q]);
            candOrder[q] = order(candidate[q]);
            varies[q] = !constant(baseline[q]) || !constant(candidate[q]);
            anyVaries |= varies[q];
        }
        int resamples = options.resamples();
        double[][] changes = new double[quantities][];
        for (int q = 0; q < quantities; q++) {
            changes[q] = varies[q] ? new double[resamples] : null;
        }
        Resamples draws = shared != null && shared.fits(nb, nc, resamples) ? shared : null;
        int[] baseCount = new int[nb];
        int[] candCount = new int[nc];
        SplittableRandom random = draws == null && anyVaries ? new SplittableRandom(seed) : null;
        for (int r = 0; anyVaries && r < resamples; r++) {
            if (draws != null) {
                baseCount = draws.baseline[r];
                candCount = draws.candidate[r];
            } else {
                draw(random, baseCount);
                draw(random, candCount);
            }
            for (int q = 0; q < quantities; q++) {
                if (varies[q]) {
                    changes[q][r] = relativeChange(resampledMedian(baseline[q], baseOrder[q], baseCount),
                            resampledMedian(candidate[q], candOrder[q], candCount));
                }
            }
        }
        int tail = tailIndex(resamples, options.confidence());
        for (int q = 0; q < quantities; q++) {
            double b = sortedMedian(baseline[q], baseOrder[q]);
            double c = sortedMedian(candidate[q], candOrder[q]);
            double change = relativeChange(b, c);
            // Every resample of two constant samples gives the same change: no need to draw them.
            ConfidenceInterval interval = varies[q]
                    ? percentileInterval(changes[q], tail)
                    : new ConfidenceInterval(change, change);
            result[q] = new MetricComparison(b, c, change, interval, Verdict.of(interval, options.threshold()),
                    spread(baseline[q], b), spread(candidate[q], c), Double.NaN);
        }
        return result;
    }

    /**
     * Resamples drawn once for every comparison of {@code baselineRuns} against
     * {@code candidateRuns}: how many times each run is drawn, per resample and side.
     */
    static final class Resamples {
        final int[][] baseline;
        final int[][] candidate;

        Resamples(long seed, int resamples, int baselineRuns, int candidateRuns) {
            SplittableRandom random = new SplittableRandom(seed);
            baseline = new int[resamples][baselineRuns];
            candidate = new int[resamples][candidateRuns];
            for (int r = 0; r < resamples; r++) {
                draw(random, baseline[r]);
                draw(random, candidate[r]);
            }
        }

        boolean fits(int baselineRuns, int candidateRuns, int resamples) {
            return baseline.length == resamples && baseline[0].length == baselineRuns
                    && candidate[0].length == candidateRuns;
        }
    }

    /** Whether every value equals the first. */
    static boolean constant(double[] values) {
        for (double value : values) {
            if (value != values[0]) {
                return false;
            }
        }
        return true;
    }

    /** The median absolute deviation of {@code values} from their {@code median}; 0 for one value. */
    static double spread(double[] values, double median) {
        double[] distances = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            distances[i] = Math.abs(values[i] - median);
        }
        return medianInPlace(distances);
    }

    /** The median; of an even number of values, the mean of the middle two. */
    static double median(double[] values) {
        return medianInPlace(values.clone());
    }

    /**
     * {@link #median} by selection, which reorders {@code values}: a comparison computes medians of
     * tens of thousands of paths, and selecting the middle costs a fraction of sorting.
     */
    static double medianInPlace(double[] values) {
        int n = values.length;
        int low = (n - 1) / 2;
        double lower = select(values, 0, n, low);
        if (n % 2 == 1) {
            return lower;
        }
        // select leaves the values above rank low after it: the upper middle is the least of them.
        double upper = values[low + 1];
        for (int i = low + 2; i < n; i++) {
            upper = Math.min(upper, values[i]);
        }
        return (lower + upper) / 2;
    }

    /**
     * {@code candidate / baseline - 1}, computed as {@code (candidate - baseline) / baseline} so that
     * 105 against 100 is exactly 0.05; 0 when both are 0, {@code +Infinity} when only the baseline is.
     */
    static double relativeChange(double baseline, double candidate) {
        if (baseline == 0) {
            return candidate == 0 ? 0 : Double.POSITIVE_INFINITY;
        }
        return (candidate - baseline) / baseline;
    }

    /**
     * Index of the lower percentile bound in the sorted resampled changes; the upper one is its
     * mirror, so that {@code (1 - confidence) / 2} of the resamples lie beyond each bound.
     */
    static int tailIndex(int resamples, double confidence) {
        int tail = (int) Math.floor((1 - confidence) / 2 * resamples + 1e-9);
        return Math.min(tail, (resamples - 1) / 2);
    }

    /**
     * The values of rank {@code tail} and {@code length - 1 - tail} (0-based, ascending) of
     * {@code values}, which it reorders.
     */
    static ConfidenceInterval percentileInterval(double[] values, int tail) {
        int n = values.length;
        double lower = select(values, 0, n, tail);
        int upperRank = n - 1 - tail;
        double upper = upperRank > tail ? select(values, tail + 1, n, upperRank) : lower;
        return new ConfidenceInterval(lower, upper);
    }

    /**
     * The value of rank {@code k} among {@code values[from, to)}, with smaller values moved before
     * index {@code k} and larger ones after it: quickselect with three-way partitioning (resampled
     * medians repeat a lot), falling back to a sort of what is left should the pivots keep missing.
     */
    static double select(double[] values, int from, int to, int k) {
        int lo = from;
        int hi = to - 1;
        int budget = 2 * (64 - Long.numberOfLeadingZeros(to - from)) + 8;
        while (lo < hi) {
            if (budget-- == 0) {
                Arrays.sort(values, lo, hi + 1);
                return values[k];
            }
            double pivot = medianOfThree(values[lo], values[lo + (hi - lo) / 2], values[hi]);
            int lt = lo;
            int i = lo;
            int gt = hi;
            while (i <= gt) {
                double v = values[i];
                if (v < pivot) {
                    values[i++] = values[lt];
                    values[lt++] = v;
                } else if (v > pivot) {
                    values[i] = values[gt];
                    values[gt--] = v;
                } else {
                    i++;
                }
            }
            if (k < lt) {
                hi = lt - 1;
            } else if (k > gt) {
                lo = gt + 1;
            } else {
                return pivot;
            }
        }
        return values[k];
    }

    private static double medianOfThree(double a, double b, double c) {
        return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
    }

    private static void draw(SplittableRandom random, int[] count) {
        int n = count.length;
        Arrays.fill(count, 0);
        for (int i = 0; i < n; i++) {
            count[random.nextInt(n)]++;
        }
    }

    /** The median of the resample that holds value {@code i} {@code count[i]} times. */
    private static double resampledMedian(double[] values, int[] order, int[] count) {
        int n = values.length;
        int lowRank = (n - 1) / 2;
        int highRank = n / 2;
        int seen = 0;
        double low = 0;
        boolean haveLow = false;
        for (int j = 0; j < n; j++) {
            int i = order[j];
            seen += count[i];
            if (!haveLow && seen > lowRank) {
                low = values[i];
                haveLow = true;
            }
            if (seen > highRank) {
                return (low + values[i]) / 2;
            }
        }
        throw new IllegalStateException("counts do not add up to " + n);
    }

    private static double sortedMedian(double[] values, int[] order) {
        int n = values.length;
        return (values[order[(n - 1) / 2]] + values[order[n / 2]]) / 2;
    }

    /** Indices of {@code values} in ascending order of value (ties by index). */
    private static int[] order(double[] values) {
        Integer[] boxed = new Integer[values.length];
        for (int i = 0; i < boxed.length; i++) {
            boxed[i] = i;
        }
        Arrays.sort(boxed, (a, b) -> Double.compare(values[a], values[b]));
        int[] order = new int[boxed.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = boxed[i];
        }
        return order;
    }
}
