package io.tracegraph.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The digit count the writer sizes every number with is the length Long.toString gives. */
class PlainElementWriterDigitsTest {
    @Test
    void countsTheDigitsOfEveryPowerOfTenAndItsNeighbours() {
        long power = 1;
        for (int exponent = 0; exponent <= 18; exponent++, power *= 10) {
            for (long value : new long[] {power - 1, power, power + 1}) {
                assertThat(PlainElementWriter.digits(value)).as("%d", value).isEqualTo(Long.toString(value).length());
            }
        }
        assertThat(PlainElementWriter.digits(0)).isEqualTo(1);
        assertThat(PlainElementWriter.digits(Long.MAX_VALUE)).isEqualTo(19);
    }

    @Test
    void countsTheDigitsOfEveryBitLength() {
        SplittableRandom random = new SplittableRandom(7);
        for (int bits = 1; bits < 64; bits++) {
            long top = 1L << (bits - 1);
            for (long value : new long[] {top, top | (top - 1), top | (random.nextLong() & (top - 1))}) {
                assertThat(PlainElementWriter.digits(value)).as("%d", value).isEqualTo(Long.toString(value).length());
            }
        }
    }

    @Test
    void writesEveryNumberAsLongToStringSpellsIt() {
        SplittableRandom random = new SplittableRandom(11);
        java.util.List<Long> values = new java.util.ArrayList<>(java.util.List.of(0L, 1L, 9L, 10L, 99L, 100L,
                Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1, -1L, Integer.MAX_VALUE + 0L,
                Integer.MAX_VALUE + 1L, 999_999_999L, 1_000_000_000L, 100_000_000L, 99_999_999L,
                999_999_999_999_999_999L, 1_000_000_000_000_000_000L, 100_000_000_000_000_001L,
                10_000_000_000_000_000L, 1_000_000_007L));
        long power = 1;
        for (int exponent = 0; exponent <= 18; exponent++, power *= 10) {
            values.add(power - 1);
            values.add(power);
            values.add(power + 1);
            values.add(-power);
        }
        for (int bits = 1; bits < 64; bits++) {
            values.add(random.nextLong() >>> (64 - bits));
            values.add(-(random.nextLong() >>> (64 - bits)));
        }
        PlainElementWriter writer = new PlainElementWriter();
        for (long value : values) {
            writer.start(new byte[64]);
            writer.number(value);
            assertThat(new String(writer.buffer(), 0, writer.length(), java.nio.charset.StandardCharsets.US_ASCII))
                    .as("%d", value).isEqualTo(Long.toString(value));
        }
    }
}
