package io.tracegraph.domain.trace;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RustTextTest {
    @Test
    void floatsPrintLikeRustDebug() {
        assertThat(RustText.debugFloat(0.42)).isEqualTo("0.42");
        assertThat(RustText.debugFloat(2.0)).isEqualTo("2.0");
        assertThat(RustText.debugFloat(-0.0)).isEqualTo("-0.0");
        assertThat(RustText.debugFloat(0.0)).isEqualTo("0.0");
        assertThat(RustText.debugFloat(1e-7)).isEqualTo("1e-7");
        assertThat(RustText.debugFloat(1.5e-5)).isEqualTo("1.5e-5");
        assertThat(RustText.debugFloat(0.0001)).isEqualTo("0.0001");
        assertThat(RustText.debugFloat(1e15)).isEqualTo("1000000000000000.0");
        assertThat(RustText.debugFloat(1e16)).isEqualTo("1e16");
        assertThat(RustText.debugFloat(-1.2345678901234568e17)).isEqualTo("-1.2345678901234568e17");
        assertThat(RustText.debugFloat(0.1 + 0.2)).isEqualTo("0.30000000000000004");
        assertThat(RustText.debugFloat(Double.NaN)).isEqualTo("NaN");
        assertThat(RustText.debugFloat(Double.POSITIVE_INFINITY)).isEqualTo("inf");
        assertThat(RustText.debugOption(null)).isEqualTo("None");
        assertThat(RustText.debugOption(1.0)).isEqualTo("Some(1.0)");
    }

    @Test
    void stringsQuoteLikeRustDebugAndTrimLikeStrTrim() {
        assertThat(RustText.debugQuote("a\"b\\c\nd")).isEqualTo("\"a\\\"b\\\\c\\nd\"");
        assertThat(RustText.isBlank("\u00a0\u3000 \t")).isTrue();
        assertThat(RustText.isBlank("\ufeff")).isFalse();
    }
}
