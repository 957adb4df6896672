package io.tracegraph.cli.render;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import org.junit.jupiter.api.Test;

class HumanUnitsTest {
    @Test
    void durationsTakeTheLargestUnitWithThreeSignificantDigits() {
        assertThat(HumanUnits.duration(0)).isEqualTo("0 ns");
        assertThat(HumanUnits.duration(812)).isEqualTo("812 ns");
        assertThat(HumanUnits.duration(12.5)).isEqualTo("12.5 ns");
        assertThat(HumanUnits.duration(1234)).isEqualTo("1.23 µs");
        assertThat(HumanUnits.duration(45_678_901)).isEqualTo("45.7 ms");
        assertThat(HumanUnits.duration(1_891_668)).isEqualTo("1.89 ms");
        assertThat(HumanUnits.duration(2_500_000_000L)).isEqualTo("2.5 s");
        assertThat(HumanUnits.duration(123_456_000_000L)).isEqualTo("123 s");
        assertThat(HumanUnits.duration(4_321_000_000_000L)).isEqualTo("4321 s");
        assertThat(HumanUnits.duration(-350)).isEqualTo("-350 ns");
    }

    @Test
    void aDurationThatRoundsToAThousandMovesToTheNextUnit() {
        assertThat(HumanUnits.duration(999.6)).isEqualTo("1 µs");
        assertThat(HumanUnits.duration(999_600)).isEqualTo("1 ms");
        assertThat(HumanUnits.duration(999_499)).isEqualTo("999 µs");
    }

    @Test
    void trailingZerosAreDropped() {
        assertThat(HumanUnits.duration(12_000_000)).isEqualTo("12 ms");
        assertThat(HumanUnits.duration(1_500_000)).isEqualTo("1.5 ms");
        assertThat(HumanUnits.bytes(12L << 20)).isEqualTo("12 MiB");
    }

    @Test
    void changesOfDurationAndSizeCarryTheirSign() {
        assertThat(HumanUnits.durationChange(1_200_000)).isEqualTo("+1.2 ms");
        assertThat(HumanUnits.durationChange(-350)).isEqualTo("-350 ns");
        assertThat(HumanUnits.durationChange(0)).isEqualTo("0 ns");
        assertThat(HumanUnits.bytesChange(48L << 20)).isEqualTo("+48 MiB");
        assertThat(HumanUnits.bytesChange(-1024)).isEqualTo("-1 KiB");
        assertThat(HumanUnits.bytesChange(0)).isEqualTo("0 B");
    }

    @Test
    void millisecondsAreShownAsDurations() {
        assertThat(HumanUnits.durationMs(1.891668)).isEqualTo("1.89 ms");
        assertThat(HumanUnits.durationMs(1234.5)).isEqualTo("1.23 s");
    }

    @Test
    void bytesUseBinaryUnitsWithAtMostThreeDigits() {
        assertThat(HumanUnits.bytes(0)).isEqualTo("0 B");
        assertThat(HumanUnits.bytes(512)).isEqualTo("512 B");
        assertThat(HumanUnits.bytes(1023)).isEqualTo("1023 B");
        assertThat(HumanUnits.bytes(1024)).isEqualTo("1 KiB");
        assertThat(HumanUnits.bytes(1536)).isEqualTo("1.5 KiB");
        assertThat(HumanUnits.bytes(208_920_576)).isEqualTo("199 MiB");
        assertThat(HumanUnits.bytes(1000L << 10)).isEqualTo("0.977 MiB");
        assertThat(HumanUnits.bytes(3L << 30)).isEqualTo("3 GiB");
        assertThat(HumanUnits.bytes(Long.MAX_VALUE)).isEqualTo("8 EiB");
        assertThat(HumanUnits.bytes(-2048)).isEqualTo("-2 KiB");
    }

    @Test
    void percentagesHaveOneDecimalAndChangesASign() {
        assertThat(HumanUnits.percent(12.345)).isEqualTo("12.3%");
        assertThat(HumanUnits.change(12.35)).isEqualTo("+12.4%");
        assertThat(HumanUnits.change(-4)).isEqualTo("-4.0%");
        assertThat(HumanUnits.change(-0.01)).isEqualTo("0.0%");
        assertThat(HumanUnits.change(0)).isEqualTo("0.0%");
        assertThat(HumanUnits.change(Double.POSITIVE_INFINITY)).isEqualTo("+∞%");
        assertThat(HumanUnits.change(Double.NaN)).isEqualTo(HumanUnits.NONE);
        assertThat(HumanUnits.changeOfFraction(0.0512)).isEqualTo("+5.1%");
    }

    @Test
    void aChangeShowsItsIntervalWhenBothBoundsAreKnown() {
        assertThat(HumanUnits.changeWithInterval(12.3, 8.1, 16.04)).isEqualTo("+12.3% [+8.1, +16.0]");
        assertThat(HumanUnits.changeWithInterval(-2, -5.54, 1.0)).isEqualTo("-2.0% [-5.5, +1.0]");
        assertThat(HumanUnits.changeWithInterval(3, null, 4.0)).isEqualTo("+3.0%");
    }

    @Test
    void countsArePlainIntegers() {
        assertThat(HumanUnits.count(1234567L)).isEqualTo("1234567");
        assertThat(HumanUnits.count(3.0)).isEqualTo("3");
        assertThat(HumanUnits.count(2.5)).isEqualTo("2.5");
    }

    @Test
    void ratiosAndPValues() {
        assertThat(HumanUnits.ratio(1.2345)).isEqualTo("1.23×");
        assertThat(HumanUnits.ratio(Double.POSITIVE_INFINITY)).isEqualTo(HumanUnits.NONE);
        assertThat(HumanUnits.pValue(0.04123)).isEqualTo("0.041");
        assertThat(HumanUnits.pValue(0.5)).isEqualTo("0.5");
        assertThat(HumanUnits.pValue(1)).isEqualTo("1");
        assertThat(HumanUnits.pValue(1e-9)).isEqualTo("<0.0001");
    }

    @Test
    void theDefaultLocaleChangesNothing() {
        Locale before = Locale.getDefault();
        try {
            Locale.setDefault(Locale.GERMANY);
            assertThat(HumanUnits.duration(1_891_668)).isEqualTo("1.89 ms");
            assertThat(HumanUnits.bytes(1536)).isEqualTo("1.5 KiB");
            assertThat(HumanUnits.change(12.35)).isEqualTo("+12.4%");
            assertThat(HumanUnits.pValue(0.04123)).isEqualTo("0.041");
            assertThat(HumanUnits.count(1234567L)).isEqualTo("1234567");
        } finally {
            Locale.setDefault(before);
        }
    }
}
