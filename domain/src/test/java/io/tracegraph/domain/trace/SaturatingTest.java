package io.tracegraph.domain.trace;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SaturatingTest {
    private static final long MAX = Long.MAX_VALUE;

    @Test
    void addsWithinRange() {
        assertThat(Saturating.add(2, 3)).isEqualTo(5);
        assertThat(Saturating.add(MAX - 1, 1)).isEqualTo(MAX);
        assertThat(Saturating.add(0, 0)).isZero();
    }

    @Test
    void clampsSumsAtTheLargestValue() {
        assertThat(Saturating.add(MAX, 1)).isEqualTo(MAX);
        assertThat(Saturating.add(MAX - 1, 2)).isEqualTo(MAX);
        assertThat(Saturating.add(MAX, MAX)).isEqualTo(MAX);
    }

    @Test
    void subtractsWithinRange() {
        assertThat(Saturating.sub(10, 3)).isEqualTo(7);
        assertThat(Saturating.sub(MAX, 1)).isEqualTo(MAX - 1);
    }

    @Test
    void clampsDifferencesAtZero() {
        assertThat(Saturating.sub(3, 10)).isZero();
        assertThat(Saturating.sub(5, 5)).isZero();
        assertThat(Saturating.sub(0, MAX)).isZero();
    }

    @Test
    void multipliesWithinRange() {
        assertThat(Saturating.mul(6, 7)).isEqualTo(42);
        assertThat(Saturating.mul(1L << 31, 1L << 31)).isEqualTo(1L << 62);
        assertThat(Saturating.mul(MAX, 1)).isEqualTo(MAX);
        assertThat(Saturating.mul(0, MAX)).isZero();
    }

    @Test
    void clampsProductsAtTheLargestValue() {
        assertThat(Saturating.mul(1L << 32, 1L << 31)).as("exactly 2^63").isEqualTo(MAX);
        assertThat(Saturating.mul(1L << 32, 1L << 32)).as("2^64 would wrap to 0").isEqualTo(MAX);
        assertThat(Saturating.mul(MAX, MAX)).isEqualTo(MAX);
        assertThat(Saturating.mul(3, MAX / 2)).isEqualTo(MAX);
    }
}
