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
}
