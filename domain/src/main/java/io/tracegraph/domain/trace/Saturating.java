package io.tracegraph.domain.trace;

/**
 * Arithmetic on non-negative 63-bit quantities (decision D5): every sum is clamped at
 * {@link Long#MAX_VALUE} and every difference at zero, so nothing ever wraps.
 */
public final class Saturating {
    private Saturating() {
    }

    public static long add(long a, long b) {
        long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }

    public static long sub(long a, long b) {
        return a > b ? a - b : 0;
    }

    public static long mul(long a, long b) {
        long hi = Math.multiplyHigh(a, b);
        long lo = a * b;
        return (hi != 0 || lo < 0) ? Long.MAX_VALUE : lo;
    }
}
