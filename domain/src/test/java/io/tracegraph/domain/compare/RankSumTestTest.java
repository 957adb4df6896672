package io.tracegraph.domain.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RankSumTestTest {

    @Test
    void countsTheArrangementsOfEachStatisticExactly() {
        // Two against two: the 6 orders give U = 0, 1, 2, 2, 3, 4.
        assertThat(RankSumTest.nullCounts(2, 2)).containsExactly(1, 1, 2, 1, 1);
        // Ten against ten: C(20, 10) arrangements in all, one of them with every candidate largest.
        double[] counts = RankSumTest.nullCounts(10, 10);
        assertThat(counts).hasSize(101);
        assertThat(java.util.Arrays.stream(counts).sum()).isEqualTo(184_756);
        assertThat(counts[100]).isEqualTo(1);
        assertThat(counts[99]).isEqualTo(1);
        assertThat(counts[98]).isEqualTo(2);
    }

    @Test
    void givesTheSmallestPossiblePValueToACompleteSeparation() {
        double[] base = {10, 11, 12};
        double[] cand = {20, 21, 22};

        assertThat(RankSumTest.pGreater(base, cand)).isEqualTo(1 / 20.0);
        assertThat(RankSumTest.pLess(base, cand)).isEqualTo(1.0);
        assertThat(RankSumTest.pLess(cand, base)).isEqualTo(1 / 20.0);
    }

    @Test
    void countsTiesAsHalvesAndRoundsThemAgainstSignificance() {
        double[] base = {1, 2, 3};
        double[] cand = {3, 4, 5};

        // U = 8.5 (the tie 3 = 3 counts one half); P(U >= 8) = 2/20.
        assertThat(RankSumTest.twiceU(base, cand)).isEqualTo(17);
        assertThat(RankSumTest.pGreater(base, cand)).isEqualTo(2 / 20.0);
    }

    @Test
    void findsNothingBetweenEqualSamples() {
        double[] same = {5, 5, 5, 5};

        assertThat(RankSumTest.pGreater(same, same)).isGreaterThan(0.5);
        assertThat(RankSumTest.pLess(same, same)).isGreaterThan(0.5);
    }

    @Test
    void approximatesLargeSamplesCloselyAndCautiously() {
        SplittableRandom random = new SplittableRandom(7);
        double[] base = new double[120];
        double[] cand = new double[120];
        for (int i = 0; i < 120; i++) {
            base[i] = random.nextDouble();
            cand[i] = random.nextDouble() + 0.2;
        }
        double approximate = RankSumTest.pGreater(base, cand);
        double[] counts = RankSumTest.nullCounts(120, 120);
        long u = RankSumTest.twiceU(base, cand) / 2;
        double tail = 0;
        double all = 0;
        for (int k = 0; k < counts.length; k++) {
            all += counts[k];
            tail += k >= u ? counts[k] : 0;
        }

        double exact = tail / all;
        assertThat(exact).isLessThan(1e-4);
        // Deep in the tail the normal approximation errs, but on the side of caution.
        assertThat(approximate).isBetween(exact, exact * 1.25);
    }

    @Test
    void computesTheNormalTailWithSmallRelativeError() {
        assertThat(RankSumTest.upperNormalTail(0)).isCloseTo(0.5, within(1e-7));
        assertThat(RankSumTest.upperNormalTail(1.959963985)).isCloseTo(0.025, within(0.025 * 1e-6));
        assertThat(RankSumTest.upperNormalTail(5)).isCloseTo(2.866515719e-7, within(2.866515719e-7 * 1e-6));
        assertThat(RankSumTest.upperNormalTail(-3)).isCloseTo(1 - 1.349898032e-3, within(1e-7));
    }
}
