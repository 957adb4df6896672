package io.tracegraph.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

class OptionRangesTest {
    @Test
    void percentagesAreFiniteAndNotNegative() {
        OptionRanges.Percent percent = new OptionRanges.Percent();
        assertThat(percent.convert("5")).isEqualTo(5.0);
        assertThat(percent.convert("2.5")).isEqualTo(2.5);
        assertThat(percent.convert("0")).isEqualTo(0.0);
        for (String bad : new String[] {"-5", "NaN", "Infinity", "1e400", "5d", "0x1p3", "", "ten"}) {
            assertThatThrownBy(() -> percent.convert(bad)).as(bad).isInstanceOf(TypeConversionException.class)
                    .hasMessage("expected a percentage, a number of 0 or more (e.g. 5 or 2.5), got '" + bad + "'");
        }
    }

    @Test
    void countsAreWholeNumbersInTheirRange() {
        assertThat(new OptionRanges.Positive().convert("1")).isEqualTo(1);
        assertThat(new OptionRanges.Positive().convert("2147483647")).isEqualTo(Integer.MAX_VALUE);
        assertThat(new OptionRanges.NonNegative().convert("0")).isEqualTo(0);
        for (String bad : new String[] {"0", "-1", "1.5", "2147483648", "99999999999", "x"}) {
            assertThatThrownBy(() -> new OptionRanges.Positive().convert(bad)).as(bad)
                    .isInstanceOf(TypeConversionException.class)
                    .hasMessage("expected a whole number of 1 or more, got '" + bad + "'");
        }
        assertThatThrownBy(() -> new OptionRanges.NonNegative().convert("-1"))
                .hasMessage("expected a whole number of 0 or more (0 for all), got '-1'");
    }

    @Test
    void timeoutsAreWholeSecondsPostgresCanTake() {
        OptionRanges.TimeoutSeconds timeout = new OptionRanges.TimeoutSeconds();
        assertThat(timeout.convert("30")).isEqualTo(30L);
        assertThat(timeout.convert("2147483")).isEqualTo(2147483L);
        for (String bad : new String[] {"0", "-3", "2147484", "1.5"}) {
            assertThatThrownBy(() -> timeout.convert(bad)).as(bad)
                    .hasMessage("expected whole seconds from 1 to 2147483, got '" + bad + "'");
        }
    }
}
