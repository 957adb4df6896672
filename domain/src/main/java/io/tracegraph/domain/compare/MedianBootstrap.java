package io.tracegraph.domain.compare;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The percentile bootstrap of the relative change between the medians of two samples, for several
 * quantities measured on the same runs: one resample draws runs with replacement, so the quantities
 * of a run stay together. Each resample costs O(runs) (multiplicities walked in presorted order,
 * no sort), each interval O(resamples) (selection of its two bounds, no sort). Medians and
 * spreads come from one sorted copy of each side's values.
 */
final class MedianBootstrap {
    /** Up to this many values are sorted by insertion (a side holds tens of runs). */
    private static final int INSERTION_SORT_MAX = 64;

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
                double[] base = baseline[q].clone();
                double[] cand = candidate[q].clone();
                result[q] = untested(base, base.length, cand, cand.length);
            }
            return result;
        }
        int nb = baseline[0].length;
        int nc = candidate[0].length;
        int[][] baseOrder = new int[quantities][];
        int[][] candOrder = new int[quantities][];
        // The values in that order: the resampled medians read them without going through the order.
        double[][] baseSorted = new double[quantities][];
        double[][] candSorted = new double[quantities][];
        boolean[] varies = new boolean[quantities];
        boolean anyVaries = false;
        for (int q = 0; q < quantities; q++) {
            baseOrder[q] = order(baseline[q]);
            candOrder[q] = order(candidate[q]);
            baseSorted[q] = permuted(baseline[q], baseOrder[q]);
            candSorted[q] = permuted(candidate[q], candOrder[q]);
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
                    changes[q][r] = relativeChange(resampledMedian(baseSorted[q], baseOrder[q], baseCount),
                            resampledMedian(candSorted[q], candOrder[q], candCount));
                }
            }
        }
        int tail = tailIndex(resamples, options.confidence());
        for (int q = 0; q < quantities; q++) {
            double b = sortedMedian(baseSorted[q]);
            double c = sortedMedian(candSorted[q]);
            double change = relativeChange(b, c);
            // Every resample of two constant samples gives the same change: no need to draw them.
            ConfidenceInterval interval = varies[q]
                    ? percentileInterval(changes[q], tail)
                    : new ConfidenceInterval(change, change);
            result[q] = new MetricComparison(b, c, change, interval, Verdict.of(interval, options.threshold()),
                    sortedSpread(baseSorted[q], nb, b), sortedSpread(candSorted[q], nc, c), Double.NaN);
        }
        return result;
    }

    /**
     * One quantity of an untested comparison (medians, change and spreads, verdict inconclusive) from
     * {@code baseline[0, nb)} and {@code candidate[0, nc)}, which it sorts: one sort per side gives
     * both the median and, walking outward from it, the median absolute deviation (where selecting
     * the median and then the middle distance needs two passes and an array of distances).
     */
    static MetricComparison untested(double[] baseline, int nb, double[] candidate, int nc) {
        sortPrefix(baseline, nb);
        sortPrefix(candidate, nc);
        double b = middle(baseline, nb);
        double c = middle(candidate, nc);
        return new MetricComparison(b, c, relativeChange(b, c), null, Verdict.INCONCLUSIVE,
                sortedSpread(baseline, nb, b), sortedSpread(candidate, nc, c), Double.NaN);
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

    /**
     * Sorts {@code values[0, n)} ascending (values compared with {@code <}: no NaN among them, and
     * no -0.0, as values made from integers have none), by insertion for a few tens of values.
     */
    static void sortPrefix(double[] values, int n) {
        if (n > INSERTION_SORT_MAX) {
            Arrays.sort(values, 0, n);
            return;
        }
        for (int i = 1; i < n; i++) {
            double v = values[i];
            int j = i - 1;
            while (j >= 0 && values[j] > v) {
                values[j + 1] = values[j];
                j--;
            }
            values[j + 1] = v;
        }
    }

    /**
     * The median of the ascending {@code sorted[0, n)}, as {@link #medianInPlace} gives it: the
     * middle value, or the mean of the middle two.
     */
    static double middle(double[] sorted, int n) {
        int low = (n - 1) / 2;
        return n % 2 == 1 ? sorted[low] : (sorted[low] + sorted[low + 1]) / 2;
    }

    /**
     * {@link #spread} of the ascending {@code sorted[0, n)} about its {@code median} (a value between
     * its middle two), in O(n) without reordering anything: the distances of the values below index
     * {@code n / 2} grow leftwards, those from it on grow rightwards (subtraction rounds
     * monotonically), so merging the two runs outward from the middle meets the distances in
     * ascending order, and the middle one or two of them are the same values as selection finds.
     */
    static double sortedSpread(double[] sorted, int n, double median) {
        int lowRank = (n - 1) / 2;
        int highRank = n / 2;
        int left = n / 2 - 1;
        int right = n / 2;
        double low = 0;
        for (int rank = 0; ; rank++) {
            double distance;
            if (left < 0) {
                distance = Math.abs(sorted[right++] - median);
            } else if (right >= n) {
                distance = Math.abs(sorted[left--] - median);
            } else {
                double toLeft = Math.abs(sorted[left] - median);
                double toRight = Math.abs(sorted[right] - median);
                if (toLeft <= toRight) {
                    distance = toLeft;
                    left--;
                } else {
                    distance = toRight;
                    right++;
                }
            }
            if (rank == lowRank) {
                low = distance;
            }
            if (rank == highRank) {
                return n % 2 == 1 ? distance : (low + distance) / 2;
            }
        }
    }

    /**
     * {@link #medianInPlace} of the values of the ascending {@code a[0, na)} and {@code b[0, nb)}
     * together (at least one value), by merging up to the middle.
     */
    static double mergedMedian(double[] a, int na, double[] b, int nb) {
        int n = na + nb;
        int lowRank = (n - 1) / 2;
        int highRank = n / 2;
        int i = 0;
        int j = 0;
        double low = 0;
        for (int rank = 0; ; rank++) {
            double value = j >= nb || i < na && a[i] <= b[j] ? a[i++] : b[j++];
            if (rank == lowRank) {
                low = value;
            }
            if (rank == highRank) {
                return n % 2 == 1 ? value : (low + value) / 2;
            }
        }
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

    /**
     * The median of the resample that holds value {@code order[j]} {@code count[order[j]]} times;
     * {@code sorted[j]} is that value. The counts add up to {@code sorted.length} (as {@link #draw}
     * makes them): the walk up to the lower middle rank, then on to the upper one, ends within the
     * values.
     */
    private static double resampledMedian(double[] sorted, int[] order, int[] count) {
        int n = sorted.length;
        int lowRank = (n - 1) / 2;
        int highRank = n / 2;
        int j = 0;
        int seen = count[order[0]];
        while (seen <= lowRank) {
            seen += count[order[++j]];
        }
        double low = sorted[j];
        while (seen <= highRank) {
            seen += count[order[++j]];
        }
        return (low + sorted[j]) / 2;
    }

    private static double sortedMedian(double[] sorted) {
        int n = sorted.length;
        return (sorted[(n - 1) / 2] + sorted[n / 2]) / 2;
    }

    /** {@code values[order[j]]} for every {@code j}. */
    private static double[] permuted(double[] values, int[] order) {
        double[] permuted = new double[order.length];
        for (int j = 0; j < order.length; j++) {
            permuted[j] = values[order[j]];
        }
        return permuted;
    }

    /**
     * Indices of {@code values} in ascending order of value (by {@link Double#compare}, ties by
     * index): a stable sort of the indices, by insertion in runs of {@value #INSERTION_SORT_MAX}
     * merged bottom-up, without boxing them.
     */
    static int[] order(double[] values) {
        int n = values.length;
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        for (int from = 0; from < n; from += INSERTION_SORT_MAX) {
            int to = Math.min(n, from + INSERTION_SORT_MAX);
            for (int i = from + 1; i < to; i++) {
                int index = order[i];
                double v = values[index];
                int j = i - 1;
                while (j >= from && Double.compare(values[order[j]], v) > 0) {
                    order[j + 1] = order[j];
                    j--;
                }
                order[j + 1] = index;
            }
        }
        if (n <= INSERTION_SORT_MAX) {
            return order;
        }
        int[] from = order;
        int[] to = new int[n];
        for (int width = INSERTION_SORT_MAX; width < n; width *= 2) {
            for (int start = 0; start < n; start += 2 * width) {
                int middle = Math.min(n, start + width);
                int end = Math.min(n, start + 2 * width);
                int i = start;
                int j = middle;
                for (int k = start; k < end; k++) {
                    // Ties taken from the left run first: stable.
                    if (j >= end || i < middle && Double.compare(values[from[i]], values[from[j]]) <= 0) {
                        to[k] = from[i++];
                    } else {
                        to[k] = from[j++];
                    }
                }
            }
            int[] swap = from;
            from = to;
            to = swap;
        }
        return from;
    }
}
