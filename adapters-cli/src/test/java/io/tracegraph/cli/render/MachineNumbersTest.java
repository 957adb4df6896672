package io.tracegraph.cli.render;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class MachineNumbersTest {
    @Test
    void integersStayExact() {
        assertThat(MachineNumbers.normalize(Long.MAX_VALUE)).isEqualTo(Long.MAX_VALUE);
        assertThat(MachineNumbers.normalize(42)).isEqualTo(42L);
        assertThat(MachineNumbers.text(Long.MIN_VALUE)).isEqualTo("-9223372036854775808");
    }

    @Test
    void aFloatThatHoldsAnIntegerIsThatInteger() {
        assertThat(MachineNumbers.normalize(208920576.0)).isEqualTo(208920576L);
        assertThat(MachineNumbers.text(1.0)).isEqualTo("1");
        assertThat(MachineNumbers.text(-0.0)).isEqualTo("0");
    }

    @Test
    void binaryArtifactsAreRoundedAway() {
        assertThat(MachineNumbers.text(1.8916680000000001)).isEqualTo("1.891668");
        assertThat(MachineNumbers.text(0.1 + 0.2)).isEqualTo("0.3");
        assertThat(MachineNumbers.text(123456.7890123)).isEqualTo("123456.789012");
    }

    @Test
    void smallFractionsKeepSixSignificantDigits() {
        assertThat(MachineNumbers.text(0.000123456789)).isEqualTo("0.000123457");
        assertThat(MachineNumbers.text(0.5)).isEqualTo("0.5");
        assertThat(MachineNumbers.text(-0.04)).isEqualTo("-0.04");
    }

    @Test
    void tinyNumbersUseENotationRatherThanRoundingToZero() {
        assertThat(MachineNumbers.text(1.2345678e-9)).isEqualTo("1.23457E-9");
        assertThat(MachineNumbers.normalize(1.2345678e-9)).isEqualTo(new BigDecimal("1.23457E-9"));
    }

    @Test
    void hugeFloatsStayShort() {
        assertThat(MachineNumbers.text(1e300)).isEqualTo("1E+300");
    }

    @Test
    void nonFiniteAndOtherValuesPassThrough() {
        assertThat(MachineNumbers.normalize(Double.NaN)).isEqualTo(Double.NaN);
        assertThat(MachineNumbers.normalize("x")).isEqualTo("x");
        assertThat(MachineNumbers.normalize(null)).isNull();
        assertThat(MachineNumbers.normalize(true)).isEqualTo(true);
    }

    @Test
    void theDefaultLocaleChangesNothing() {
        Locale before = Locale.getDefault();
        try {
            Locale.setDefault(Locale.GERMANY);
            assertThat(MachineNumbers.text(1.8916680000000001)).isEqualTo("1.891668");
            assertThat(MachineNumbers.text(1.0)).isEqualTo("1");
        } finally {
            Locale.setDefault(before);
        }
    }
}
