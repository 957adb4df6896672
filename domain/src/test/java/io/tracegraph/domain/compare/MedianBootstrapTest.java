package io.tracegraph.domain.compare;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class MedianBootstrapTest {

    @Test
    void takesTheMiddleValueOrTheMeanOfTheMiddleTwo() {
        assertThat(MedianBootstrap.median(new double[] {7})).isEqualTo(7);
        assertThat(MedianBootstrap.median(new double[] {3, 1, 2})).isEqualTo(2);
        assertThat(MedianBootstrap.median(new double[] {4, 1, 3, 2})).isEqualTo(2.5);
        assertThat(MedianBootstrap.median(new double[] {5, 5, 1, 9, 5, 0})).isEqualTo(5);
    }

    @Test
    void selectsTheSameMedianAsASortWithoutChangingTheValues() {
        SplittableRandom random = new SplittableRandom(5);
        for (int round = 0; round < 2000; round++) {
            int n = 1 + random.nextInt(120);
            // Few distinct values too: ties around the middle.
            int distinct = 1 + random.nextInt(round % 2 == 0 ? 4 : 1_000_000);
            double[] values = new double[n];
            for (int i = 0; i < n; i++) {
                values[i] = random.nextInt(distinct) * 1000.0;
            }
            double[] sorted = values.clone();
            Arrays.sort(sorted);
            double expected = (sorted[(n - 1) / 2] + sorted[n / 2]) / 2;
            double[] kept = values.clone();

            assertThat(MedianBootstrap.median(values)).isEqualTo(expected);
            assertThat(values).isEqualTo(kept);
            assertThat(MedianBootstrap.medianInPlace(values)).isEqualTo(expected);
        }
    }

    @Test
    void measuresChangeRelativeToTheBaseline() {
        assertThat(MedianBootstrap.relativeChange(100, 105)).isEqualTo(0.05);
        assertThat(MedianBootstrap.relativeChange(100, 80)).isEqualTo(-0.2);
        assertThat(MedianBootstrap.relativeChange(0, 0)).isZero();
        assertThat(MedianBootstrap.relativeChange(0, 1)).isEqualTo(Double.POSITIVE_INFINITY);
    }

    @Test
    void leavesTheSameShareOfResamplesBeyondEachBound() {
        assertThat(MedianBootstrap.tailIndex(2000, 0.95)).isEqualTo(50);
        assertThat(MedianBootstrap.tailIndex(1000, 0.9)).isEqualTo(50);
        assertThat(MedianBootstrap.tailIndex(10, 0.95)).isZero();
        assertThat(MedianBootstrap.tailIndex(1, 0.95)).isZero();
        assertThat(MedianBootstrap.tailIndex(3, 0.01)).isEqualTo(1);
    }

    @Test
    void selectsTheSameBoundsAsASort() {
        SplittableRandom random = new SplittableRandom(11);
        for (int round = 0; round < 200; round++) {
            int n = 1 + random.nextInt(300);
            double[] values = new double[n];
            for (int i = 0; i < n; i++) {
                values[i] = random.nextInt(round % 2 == 0 ? 5 : 1000);
            }
            if (round % 7 == 0) {
                values[random.nextInt(n)] = Double.POSITIVE_INFINITY;
            }
            double[] sorted = values.clone();
            Arrays.sort(sorted);
            int tail = random.nextInt((n + 1) / 2);

            ConfidenceInterval interval = MedianBootstrap.percentileInterval(values, tail);

            assertThat(interval).isEqualTo(new ConfidenceInterval(sorted[tail], sorted[n - 1 - tail]));
        }
    }

    @Test
    void judgesAnIntervalAgainstTheThreshold() {
        assertThat(Verdict.of(new ConfidenceInterval(0.06, 0.4), 0.05)).isEqualTo(Verdict.SLOWER);
        assertThat(Verdict.of(new ConfidenceInterval(0.05, 0.4), 0.05)).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(Verdict.of(new ConfidenceInterval(-0.4, -0.06), 0.05)).isEqualTo(Verdict.FASTER);
        assertThat(Verdict.of(new ConfidenceInterval(-0.05, 0.05), 0.05)).isEqualTo(Verdict.UNCHANGED);
        assertThat(Verdict.of(new ConfidenceInterval(-0.01, 0.08), 0.05)).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(Verdict.of(new ConfidenceInterval(-0.3, 0.3), 0.05)).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(Verdict.of(new ConfidenceInterval(0, 0), 0)).isEqualTo(Verdict.UNCHANGED);
    }
}
