package io.tracegraph.domain.compare;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The sort-once medians, spreads, orders and bootstrap of {@link MedianBootstrap} against
 * straightforward reference implementations (sort everything, spell every resample out) on random
 * inputs: integer-valued, as the compared quantities are, with many ties, odd and even sizes, one
 * and two values, and sizes beyond the insertion sorts' limit. Equal means the same double bits.
 */
class MedianBootstrapReferenceTest {

    /** n values, integer-valued; few distinct ones in every other round (ties around the middle). */
    private static double[] values(SplittableRandom random, int n, int round) {
        int distinct = round % 2 == 0 ? 1 + random.nextInt(4) : 1 + random.nextInt(2_000_000);
        long offset = random.nextInt(3) == 0 ? 0 : random.nextLong(1L << 40);
        double[] values = new double[n];
        for (int i = 0; i < n; i++) {
            values[i] = offset + random.nextInt(distinct);
        }
        return values;
    }

    private static int size(SplittableRandom random, int round) {
        return round < 8 ? 1 + round % 2 : 1 + random.nextInt(round % 5 == 0 ? 200 : 70);
    }

    private static double referenceMedian(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static double referenceSpread(double[] values, double median) {
        double[] distances = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            distances[i] = Math.abs(values[i] - median);
        }
        return referenceMedian(distances);
    }

    @Test
    void untestedMediansAndSpreadsAreThoseOfAFullSort() {
        SplittableRandom random = new SplittableRandom(17);
        for (int round = 0; round < 3000; round++) {
            double[] base = values(random, size(random, round), round);
            double[] cand = values(random, size(random, round + 1), round);
            double b = referenceMedian(base);
            double c = referenceMedian(cand);
            MetricComparison expected = new MetricComparison(b, c, MedianBootstrap.relativeChange(b, c), null,
                    Verdict.INCONCLUSIVE, referenceSpread(base, b), referenceSpread(cand, c), Double.NaN);
            // Scratch longer than the values, as a comparison's buffers are: only the prefix counts.
            double[] baseScratch = Arrays.copyOf(base, base.length + 3);
            double[] candScratch = Arrays.copyOf(cand, cand.length + 5);

            assertThat(MedianBootstrap.untested(baseScratch, base.length, candScratch, cand.length))
                    .isEqualTo(expected);
            // And the same as the selection the comparison used before.
            assertThat(b).isEqualTo(MedianBootstrap.median(base));
            assertThat(referenceSpread(base, b)).isEqualTo(MedianBootstrap.spread(base, b));
            assertThat(MedianBootstrap.compare(new double[][] {base}, new double[][] {cand}, round,
                    GroupOptions.defaults(), false)[0]).isEqualTo(expected);
        }
    }

    @Test
    void spreadsAboutAMedianBetweenTheMiddleTwoAreThoseOfAFullSort() {
        SplittableRandom random = new SplittableRandom(23);
        for (int round = 0; round < 2000; round++) {
            int n = size(random, round);
            double[] sorted = values(random, n, round);
            Arrays.sort(sorted);
            // The tested paths' median: the mean of the middle two for odd sizes too.
            double median = (sorted[(n - 1) / 2] + sorted[n / 2]) / 2;

            assertThat(MedianBootstrap.sortedSpread(sorted, n, median)).isEqualTo(referenceSpread(sorted, median));
            assertThat(MedianBootstrap.middle(sorted, n)).isEqualTo(referenceMedian(sorted));
        }
    }

    @Test
    void mergedMedianIsTheMedianOfBothSidesTogether() {
        SplittableRandom random = new SplittableRandom(29);
        for (int round = 0; round < 2000; round++) {
            double[] a = values(random, size(random, round), round);
            double[] b = values(random, size(random, round + 3), round);
            double[] all = new double[a.length + b.length];
            System.arraycopy(a, 0, all, 0, a.length);
            System.arraycopy(b, 0, all, a.length, b.length);
            double expected = referenceMedian(all);
            Arrays.sort(a);
            Arrays.sort(b);

            assertThat(MedianBootstrap.mergedMedian(a, a.length, b, b.length)).isEqualTo(expected);
            assertThat(MedianBootstrap.medianInPlace(all)).isEqualTo(expected);
        }
    }

    @Test
    void orderIsAStableSortOfTheIndices() {
        SplittableRandom random = new SplittableRandom(31);
        for (int round = 0; round < 2000; round++) {
            double[] values = values(random, size(random, round), round);
            Integer[] boxed = new Integer[values.length];
            for (int i = 0; i < boxed.length; i++) {
                boxed[i] = i;
            }
            // Arrays.sort of objects is stable: ties keep their index order.
            Arrays.sort(boxed, Comparator.comparingDouble(i -> values[i]));
            int[] expected = Arrays.stream(boxed).mapToInt(Integer::intValue).toArray();

            assertThat(MedianBootstrap.order(values)).containsExactly(expected);
        }
    }

    @Test
    void bootstrapIsThatOfResamplesSpelledOut() {
        SplittableRandom random = new SplittableRandom(37);
        for (int round = 0; round < 300; round++) {
            int nb = 1 + random.nextInt(round % 4 == 0 ? 90 : 12);
            int nc = round % 3 == 0 ? nb : 1 + random.nextInt(12);
            int quantities = 1 + random.nextInt(3);
            double[][] base = new double[quantities][];
            double[][] cand = new double[quantities][];
            for (int q = 0; q < quantities; q++) {
                // Constant sides now and then: their interval is the change itself, no resamples drawn.
                int kind = random.nextInt(5) == 0 ? 1 : round;
                base[q] = values(random, nb, kind % 2 == 1 && q == 0 ? 0 : kind);
                cand[q] = values(random, nc, kind);
                if (kind == 1) {
                    Arrays.fill(base[q], 7);
                    Arrays.fill(cand[q], random.nextBoolean() ? 7 : 9);
                }
            }
            GroupOptions options = GroupOptions.defaults().withResamples(1 + random.nextInt(300))
                    .withConfidence(0.5 + random.nextInt(49) / 100.0).withThreshold(random.nextInt(20) / 100.0);
            long seed = random.nextLong();
            MedianBootstrap.Resamples shared = round % 2 == 0
                    ? new MedianBootstrap.Resamples(seed ^ 5, options.resamples(), nb, round % 6 == 0 ? nc + 1 : nc)
                    : null;

            MetricComparison[] actual = MedianBootstrap.compare(copy(base), copy(cand), seed, options, true, shared);

            assertThat(actual).containsExactly(referenceBootstrap(base, cand, seed, options, shared));
        }
    }

    private static double[][] copy(double[][] values) {
        return Arrays.stream(values).map(double[]::clone).toArray(double[][]::new);
    }

    /**
     * The bootstrap as its description says: each resample drawn (from {@code shared} when its sizes
     * fit, else from {@code seed}: baseline counts then candidate counts, per resample), written out
     * value by value, sorted and its median taken; the changes sorted and the bounds read off.
     */
    private static MetricComparison[] referenceBootstrap(double[][] base, double[][] cand, long seed,
            GroupOptions options, MedianBootstrap.Resamples shared) {
        int quantities = base.length;
        int nb = base[0].length;
        int nc = cand[0].length;
        int resamples = options.resamples();
        boolean[] varies = new boolean[quantities];
        boolean anyVaries = false;
        for (int q = 0; q < quantities; q++) {
            varies[q] = Arrays.stream(base[q]).distinct().count() > 1 || Arrays.stream(cand[q]).distinct().count() > 1;
            anyVaries |= varies[q];
        }
        boolean useShared = shared != null && shared.fits(nb, nc, resamples);
        SplittableRandom random = !useShared && anyVaries ? new SplittableRandom(seed) : null;
        List<double[]> changes = new ArrayList<>();
        for (int q = 0; q < quantities; q++) {
            changes.add(new double[resamples]);
        }
        for (int r = 0; anyVaries && r < resamples; r++) {
            int[] baseCount = new int[nb];
            int[] candCount = new int[nc];
            if (useShared) {
                baseCount = shared.baseline[r];
                candCount = shared.candidate[r];
            } else {
                for (int i = 0; i < nb; i++) {
                    baseCount[random.nextInt(nb)]++;
                }
                for (int i = 0; i < nc; i++) {
                    candCount[random.nextInt(nc)]++;
                }
            }
            for (int q = 0; q < quantities; q++) {
                changes.get(q)[r] = MedianBootstrap.relativeChange(meanOfMiddle(spelledOut(base[q], baseCount)),
                        meanOfMiddle(spelledOut(cand[q], candCount)));
            }
        }
        int tail = MedianBootstrap.tailIndex(resamples, options.confidence());
        MetricComparison[] result = new MetricComparison[quantities];
        for (int q = 0; q < quantities; q++) {
            double b = meanOfMiddle(base[q]);
            double c = meanOfMiddle(cand[q]);
            double change = MedianBootstrap.relativeChange(b, c);
            ConfidenceInterval interval;
            if (varies[q]) {
                double[] sorted = changes.get(q).clone();
                Arrays.sort(sorted);
                interval = new ConfidenceInterval(sorted[tail], sorted[resamples - 1 - tail]);
            } else {
                interval = new ConfidenceInterval(change, change);
            }
            result[q] = new MetricComparison(b, c, change, interval, Verdict.of(interval, options.threshold()),
                    referenceSpread(base[q], b), referenceSpread(cand[q], c), Double.NaN);
        }
        return result;
    }

    private static double[] spelledOut(double[] values, int[] count) {
        double[] resample = new double[values.length];
        int at = 0;
        for (int i = 0; i < values.length; i++) {
            for (int k = 0; k < count[i]; k++) {
                resample[at++] = values[i];
            }
        }
        return resample;
    }

    /** The mean of the middle two of the sorted values (the same value twice for an odd count). */
    private static double meanOfMiddle(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return (sorted[(n - 1) / 2] + sorted[n / 2]) / 2;
    }
}
