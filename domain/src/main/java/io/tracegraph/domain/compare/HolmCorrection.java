package io.tracegraph.domain.compare;

import java.util.Arrays;

/**
 * Holm's step-down correction for many tests: with the p-values in ascending order, the k-th
 * (1-based) is significant while every one before it and itself lie at or below
 * {@code alpha / (m - k + 1)}. The chance that even one of the tests whose hypothesis is true comes
 * out significant stays below {@code alpha}, whatever the others do: comparing a model of thousands
 * of spans cannot call an untouched one slower by luck, even next to one that really got slower.
 */
final class HolmCorrection {
    private HolmCorrection() {
    }

    /** Which of {@code pValues} are significant with the family-wise error rate {@code alpha}. */
    static boolean[] significant(double[] pValues, double alpha) {
        int m = pValues.length;
        double[] sorted = pValues.clone();
        Arrays.sort(sorted);
        double cutoff = -1;
        for (int k = 1; k <= m && sorted[k - 1] <= alpha / (m - k + 1); k++) {
            cutoff = sorted[k - 1];
        }
        boolean[] significant = new boolean[m];
        for (int i = 0; i < m; i++) {
            significant[i] = pValues[i] <= cutoff;
        }
        return significant;
    }

    /**
     * Holm's adjusted p-values, in the order of {@code pValues}: with them in ascending order, the
     * k-th (1-based) is {@code max over j <= k of min(1, (m - j + 1) p_j)}. One is at most
     * {@code alpha} exactly when {@link #significant} calls it significant at {@code alpha}.
     */
    static double[] adjusted(double[] pValues) {
        int m = pValues.length;
        Integer[] order = new Integer[m];
        for (int i = 0; i < m; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Double.compare(pValues[a], pValues[b]));
        double[] adjusted = new double[m];
        double running = 0;
        for (int k = 0; k < m; k++) {
            running = Math.max(running, Math.min(1, (m - k) * pValues[order[k]]));
            adjusted[order[k]] = running;
        }
        return adjusted;
    }
}
