package io.tracegraph.cli.render;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Numbers for programs, as the JSON and CSV of listings write them: integers exact, and floats
 * without the artifacts of binary arithmetic ({@code 1.8916680000000001} is written
 * {@code 1.891668}, {@code 208920576.0} is written {@code 208920576}). Locale-independent.
 *
 * <p>The rule: a float that holds an integer (below 2^53 in magnitude) is written as that integer;
 * any other keeps at most six significant decimals: six places after the point when it is 1 or
 * more in magnitude, six significant digits when it is less; below 10^-6 it is written in
 * E notation ({@code 1.23E-9}), which JSON and spreadsheets read. Not for the graph JSON of
 * {@code build} and the health JSON of {@code check}: they are the trace/6 conformance contract and
 * stay byte-identical (docs/decisions.md).
 */
public final class MachineNumbers {
    private static final MathContext SIX = new MathContext(6, RoundingMode.HALF_EVEN);
    private static final double EXACT_INTEGERS = 9007199254740992d; // 2^53

    private MachineNumbers() {
    }

    /**
     * {@code value} as JSON and CSV should carry it: a {@link Long} for integers and for floats that
     * hold one, a {@link BigDecimal} rounded as above for other finite floats, and anything else
     * (strings, booleans, {@code null}, non-finite floats) unchanged.
     */
    public static Object normalize(Object value) {
        if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            return Double.isFinite(d) ? decimal(d) : value;
        }
        if (value instanceof BigDecimal b) {
            return decimal(b);
        }
        return value;
    }

    /** A finite float, rounded as the class describes: a {@link Long} when it holds an integer. */
    public static Number decimal(double d) {
        if (!Double.isFinite(d)) {
            throw new IllegalArgumentException("not a finite number: " + d);
        }
        if (d == Math.rint(d) && Math.abs(d) < EXACT_INTEGERS) {
            return (long) d;
        }
        return decimal(BigDecimal.valueOf(d));
    }

    private static Number decimal(BigDecimal b) {
        BigDecimal rounded = b.abs().compareTo(BigDecimal.ONE) >= 0
                ? b.setScale(Math.min(6, Math.max(b.scale(), 0)), RoundingMode.HALF_EVEN)
                : b.round(SIX);
        rounded = rounded.stripTrailingZeros();
        if (rounded.signum() == 0) {
            return 0L;
        }
        if (rounded.scale() <= 0 && rounded.abs().compareTo(BigDecimal.valueOf((long) EXACT_INTEGERS)) < 0) {
            return rounded.longValueExact();
        }
        return rounded;
    }

    /** The text of a number as JSON and CSV write it; {@code value} as {@link #normalize} gives it. */
    public static String text(Number value) {
        Object n = normalize(value);
        if (n instanceof BigDecimal b) {
            BigDecimal abs = b.abs();
            boolean tiny = abs.compareTo(new BigDecimal("0.000001")) < 0 && b.signum() != 0;
            return tiny || abs.compareTo(BigDecimal.valueOf((long) EXACT_INTEGERS)) >= 0 ? b.toString()
                    : b.toPlainString();
        }
        return String.valueOf(n);
    }
}
