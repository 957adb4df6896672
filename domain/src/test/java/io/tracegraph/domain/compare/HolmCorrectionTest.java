package io.tracegraph.domain.compare;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HolmCorrectionTest {

    @Test
    void stepsDownThroughTheSortedPValues() {
        // alpha 0.05 over 4 tests: 0.0125, then 0.05/3, then 0.025, then 0.05.
        double[] p = {0.04, 0.01, 0.016, 0.03};

        assertThat(HolmCorrection.significant(p, 0.05)).containsExactly(false, true, true, false);
    }

    @Test
    void stopsAtTheFirstFailureEvenWhenALaterValueWouldPass() {
        double[] p = {0.001, 0.03, 0.04};

        assertThat(HolmCorrection.significant(p, 0.05)).containsExactly(true, false, false);
    }

    @Test
    void treatsEqualPValuesAlike() {
        double[] p = {0.01, 0.01, 0.5};

        assertThat(HolmCorrection.significant(p, 0.05)).containsExactly(true, true, false);
        assertThat(HolmCorrection.significant(new double[0], 0.05)).isEmpty();
    }

    @Test
    void adjustsPValuesSoThatTheyMeetAlphaExactlyWhenSignificant() {
        double[] p = {0.04, 0.01, 0.016, 0.03};

        assertThat(HolmCorrection.adjusted(p)).containsExactly(0.06, 0.04, 0.048, 0.06);
        for (double alpha : new double[] {0.01, 0.04, 0.048, 0.05, 0.06, 0.1}) {
            boolean[] significant = HolmCorrection.significant(p, alpha);
            double[] adjusted = HolmCorrection.adjusted(p);
            for (int i = 0; i < p.length; i++) {
                assertThat(adjusted[i] <= alpha).as("alpha %s, p %s", alpha, p[i]).isEqualTo(significant[i]);
            }
        }
        assertThat(HolmCorrection.adjusted(new double[] {0.6, 0.9})).containsExactly(1.0, 1.0);
    }
}
