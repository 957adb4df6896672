package io.tracegraph.domain.trace;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class StorageBytesTest {
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
            "u8, 1", "i8, 1", "bool, 1", "f8, 1",
            "u16, 2", "i16, 2", "f16, 2", "bf16, 2",
            "u32, 4", "i32, 4", "f32, 4",
            "u64, 8", "i64, 8", "f64, 8",
            "BF16, 2", "Bool, 1",
            "f128, 0", "float32, 0", "q4, 0", "'', 0"})
    void sizesKnownDtypesIgnoringAsciiCase(String dtype, long size) {
        assertThat(StorageBytes.dtypeSize(dtype)).isEqualTo(size);
    }

    @ParameterizedTest
    @ValueSource(strings = {" f32", "f32\t", "\nf32\r", "\u00A0f32", "f32\u3000", "\u2003f32\u2028", "\u0085f32"})
    void trimsUnicodeWhiteSpaceAroundTheDtype(String dtype) {
        assertThat(StorageBytes.dtypeSize(dtype)).isEqualTo(4);
    }

    @ParameterizedTest
    @ValueSource(strings = {"\uFEFFf32", "f32\u200B", "f 32"})
    void doesNotTrimByteOrderMarksOrZeroWidthSpaces(String dtype) {
        assertThat(StorageBytes.dtypeSize(dtype)).isZero();
    }

    @Test
    void countsAScalarAsOneElement() {
        assertThat(StorageBytes.derive(Shape.SCALAR, "i64")).isEqualTo(8);
        assertThat(Shape.SCALAR.elementCount()).isEqualTo(1);
    }

    @Test
    void givesZeroBytesForAZeroDimensionOrAnUnknownDtype() {
        assertThat(StorageBytes.derive(Shape.of(4, 0, 3), "f32")).isZero();
        assertThat(StorageBytes.derive(Shape.of(4, 3), "complex64")).isZero();
    }

    @Test
    void saturatesHugeShapes() {
        assertThat(StorageBytes.derive(Shape.of(1L << 40, 1L << 40), "u8")).isEqualTo(Long.MAX_VALUE);
        assertThat(StorageBytes.derive(Shape.of(1L << 61), "f64")).isEqualTo(Long.MAX_VALUE);
        assertThat(StorageBytes.derive(Shape.of(1L << 60), "f64")).isEqualTo(Long.MAX_VALUE);
        assertThat(StorageBytes.derive(Shape.of(1L << 59), "f64")).isEqualTo(1L << 62);
    }
}
