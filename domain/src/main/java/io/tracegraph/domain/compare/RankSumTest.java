package io.tracegraph.domain.compare;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The one-sided Wilcoxon–Mann–Whitney rank-sum test: how likely a candidate sample at least as
 * large (or as small) as the one observed is when both sides come from one distribution. It
 * assumes nothing about that distribution, so heavy-tailed timings cannot fool it, and it is the
 * significance half of a group comparison's verdict (the bootstrap interval is the size half).
 *
 * <p>The statistic {@code U} counts the (baseline, candidate) pairs in which the candidate is
 * larger, ties counting one half. Up to {@value #EXACT_LIMIT} pairs its null distribution is
 * computed exactly (the coefficients of a Gaussian binomial, by the recurrence
 * {@code N(m, n; u) = N(m - 1, n; u) + N(m, n - 1; u - m)}), beyond that by the normal
 * approximation with the tie-corrected variance and a continuity correction. Ties are resolved in
 * the conservative direction: a half-integer {@code U} is rounded against significance.
 */
final class RankSumTest {
    /** Up to this many pairs (e.g. 100 runs against 100) the p-value is exact. */
    static final int EXACT_LIMIT = 10_000;
    /** Upper tails of the exact null distributions, by sample sizes: many paths share them. */
    private static final Map<Long, double[]> UPPER_TAILS = new ConcurrentHashMap<>();

    private RankSumTest() {
    }

    /** P(U ≥ u) under the null hypothesis: small when the candidate is larger. */
    static double pGreater(double[] baseline, double[] candidate) {
        return upperTail(baseline, candidate, twiceU(baseline, candidate));
    }

    /** P(U ≤ u) under the null hypothesis: small when the candidate is smaller. */
    static double pLess(double[] baseline, double[] candidate) {
        // U of (candidate larger) is n1·n2 − U of (baseline larger): the lower tail of one is the
        // upper tail of the other with the sides swapped.
        return upperTail(candidate, baseline, twiceU(candidate, baseline));
    }

    /** Twice U, to keep the halves of ties exact. */
    static long twiceU(double[] baseline, double[] candidate) {
        long twice = 0;
        for (double c : candidate) {
            for (double b : baseline) {
                twice += c > b ? 2 : c == b ? 1 : 0;
            }
        }
        return twice;
    }

    private static double upperTail(double[] baseline, double[] candidate, long twiceU) {
        int m = baseline.length;
        int n = candidate.length;
        long pairs = (long) m * n;
        if (pairs <= EXACT_LIMIT) {
            // Conservative with ties: a half-integer U counts as the integer below it.
            return upperTails(m, n)[(int) (twiceU / 2)];
        }
        double mean = pairs / 2.0;
        double all = m + n;
        double variance = pairs / 12.0 * ((all + 1) - tieCorrection(baseline, candidate) / (all * (all - 1)));
        if (variance <= 0) {
            return twiceU / 2.0 > mean ? 0 : 1;
        }
        double z = (twiceU / 2.0 - mean - 0.5) / Math.sqrt(variance);
        return upperNormalTail(z);
    }

    /** {@code P(U >= u)} for every {@code u} from 0 to {@code m · n}. */
    private static double[] upperTails(int m, int n) {
        return UPPER_TAILS.computeIfAbsent(((long) m << 32) | n, key -> {
            double[] counts = nullCounts(m, n);
            double all = 0;
            for (double count : counts) {
                all += count;
            }
            double[] tails = new double[counts.length];
            double tail = 0;
            for (int u = counts.length - 1; u >= 0; u--) {
                tail += counts[u];
                tails[u] = tail / all;
            }
            return tails;
        });
    }

    /** The number of arrangements of {@code m} baseline and {@code n} candidate values with each U. */
    static double[] nullCounts(int m, int n) {
        // rows[j] holds N(i, j; ·) for the current i; row i = 0 is one arrangement with U = 0.
        double[][] rows = new double[n + 1][];
        for (int j = 0; j <= n; j++) {
            rows[j] = new double[] {1};
        }
        for (int i = 1; i <= m; i++) {
            double[] left = new double[] {1};
            rows[0] = left;
            for (int j = 1; j <= n; j++) {
                double[] above = rows[j];
                double[] row = new double[i * j + 1];
                // The largest value is a baseline one (no pair where the candidate is larger:
                // N(i - 1, j; u)) or a candidate one, larger than all i baseline values
                // (N(i, j - 1; u - i)).
                for (int u = 0; u < above.length; u++) {
                    row[u] += above[u];
                }
                for (int u = 0; u < left.length; u++) {
                    row[u + i] += left[u];
                }
                rows[j] = row;
                left = row;
            }
        }
        return rows[n];
    }

    /** Σ (t³ − t) over the groups of tied values of both samples together. */
    private static double tieCorrection(double[] baseline, double[] candidate) {
        double[] all = new double[baseline.length + candidate.length];
        System.arraycopy(baseline, 0, all, 0, baseline.length);
        System.arraycopy(candidate, 0, all, baseline.length, candidate.length);
        Arrays.sort(all);
        double sum = 0;
        int start = 0;
        for (int i = 1; i <= all.length; i++) {
            if (i == all.length || all[i] != all[start]) {
                double t = i - start;
                sum += t * t * t - t;
                start = i;
            }
        }
        return sum;
    }

    /**
     * P(Z ≥ z) for a standard normal Z, from a Chebyshev fit of erfc whose relative error stays
     * below 1.2e-7 everywhere (Numerical Recipes' {@code erfcc}), so that tiny p-values keep their
     * digits.
     */
    static double upperNormalTail(double z) {
        double x = Math.abs(z) / Math.sqrt(2);
        double t = 1 / (1 + 0.5 * x);
        double erfc = t * Math.exp(-x * x - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418
                + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223
                + t * 0.17087277)))))))));
        double upper = erfc / 2;
        return z >= 0 ? upper : 1 - upper;
    }
}
