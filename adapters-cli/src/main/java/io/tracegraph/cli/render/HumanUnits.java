package io.tracegraph.cli.render;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Numbers for people, as terminal tables and Markdown show them: durations in ns/µs/ms/s and
 * bytes in B/KiB/MiB/GiB/..., both with three significant digits; percentages with one decimal;
 * counts as plain integers. Trailing zeros are dropped ({@code 1.5 ms}, {@code 12 MiB}, never
 * {@code 12.0 MiB}). Every result is the same whatever the JVM's default locale: a decimal point,
 * ASCII digits and an ASCII minus, no grouping separators. JSON and CSV use {@link MachineNumbers}.
 */
public final class HumanUnits {
    /** What a missing or undefined number shows as. */
    public static final String NONE = "–";

    private static final MathContext THREE = new MathContext(3, RoundingMode.HALF_EVEN);
    private static final MathContext TWO = new MathContext(2, RoundingMode.HALF_EVEN);
    private static final String[] TIME_UNITS = {"ns", "µs", "ms", "s"};
    private static final String[] BYTE_UNITS = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};

    private HumanUnits() {
    }

    /** A duration given in nanoseconds: {@code 812 ns}, {@code 1.23 µs}, {@code 45.6 ms}, {@code 2.5 s}. */
    public static String duration(double ns) {
        if (!Double.isFinite(ns)) {
            return NONE;
        }
        return (ns < 0 ? "-" : "") + unsignedDuration(Math.abs(ns));
    }

    /** A change of duration with its sign: {@code +1.2 ms}, {@code -350 ns}, {@code 0 ns}. */
    public static String durationChange(double ns) {
        String text = duration(ns);
        return ns > 0 && !text.equals("0 ns") ? "+" + text : text;
    }

    /** A duration given in milliseconds (as the runs' total times are stored). */
    public static String durationMs(double ms) {
        return duration(ms * 1e6);
    }

    private static String unsignedDuration(double ns) {
        double scaled = ns;
        int unit = 0;
        while (unit < TIME_UNITS.length - 1 && round3(scaled) >= 1000) {
            scaled /= 1000;
            unit++;
        }
        if (scaled >= 1000) {
            // Past 999 s: whole seconds (1234 s), not a fourth unit a reader has to decode.
            return BigDecimal.valueOf(scaled).setScale(0, RoundingMode.HALF_EVEN).toPlainString() + " s";
        }
        return three(scaled) + " " + TIME_UNITS[unit];
    }

    /** A size in bytes: {@code 512 B}, {@code 1.5 KiB}, {@code 199 MiB}, {@code 0.977 GiB}. */
    public static String bytes(double bytes) {
        if (!Double.isFinite(bytes)) {
            return NONE;
        }
        return (bytes < 0 ? "-" : "") + unsignedBytes(Math.abs(bytes));
    }

    /** A change of size with its sign: {@code +48 MiB}, {@code -1 KiB}, {@code 0 B}. */
    public static String bytesChange(double bytes) {
        String text = bytes(bytes);
        return bytes > 0 && !text.equals("0 B") ? "+" + text : text;
    }

    private static String unsignedBytes(double bytes) {
        if (round0(bytes) < 1024) {
            return BigDecimal.valueOf(bytes).setScale(0, RoundingMode.HALF_EVEN).toPlainString() + " B";
        }
        double scaled = bytes;
        int unit = 0;
        // Three digits at most: 1000..1023 KiB reads as 0.977 MiB, as benchstat and hyperfine keep
        // their columns narrow.
        while (unit < BYTE_UNITS.length - 1 && (unit == 0 || round3(scaled) >= 1000)) {
            scaled /= 1024;
            unit++;
        }
        return three(scaled) + " " + BYTE_UNITS[unit];
    }

    /** A percentage given in percent, one decimal: {@code 12.3%}. */
    public static String percent(double percent) {
        if (Double.isNaN(percent)) {
            return NONE;
        }
        if (Double.isInfinite(percent)) {
            return (percent > 0 ? "" : "-") + "∞%";
        }
        String text = oneDecimal(percent);
        return text + "%";
    }

    /** A relative change given in percent, signed, one decimal: {@code +12.3%}, {@code -4.0%}, {@code 0.0%}. */
    public static String change(double percent) {
        if (Double.isNaN(percent)) {
            return NONE;
        }
        if (Double.isInfinite(percent)) {
            return (percent > 0 ? "+" : "-") + "∞%";
        }
        String text = oneDecimal(percent);
        return (text.startsWith("-") || text.equals("0.0") ? "" : "+") + text + "%";
    }

    /** A relative change given as a fraction ({@code 0.123} is {@code +12.3%}). */
    public static String changeOfFraction(double fraction) {
        return change(fraction * 100);
    }

    /**
     * A relative change with its confidence interval, in percent: {@code +12.3% [+8.1, +16.0]}; the
     * interval is left out when either bound is missing.
     */
    public static String changeWithInterval(double percent, Double lowPercent, Double highPercent) {
        String change = change(percent);
        if (lowPercent == null || highPercent == null || lowPercent.isNaN() || highPercent.isNaN()) {
            return change;
        }
        return change + " [" + withoutPercent(change(lowPercent)) + ", " + withoutPercent(change(highPercent)) + "]";
    }

    private static String withoutPercent(String text) {
        return text.endsWith("%") ? text.substring(0, text.length() - 1) : text;
    }

    /** A count: a plain integer, no grouping, no {@code .0}. */
    public static String count(long count) {
        return Long.toString(count);
    }

    /** A count that may be fractional (a median of counts): {@code 3}, {@code 2.5}. */
    public static String count(double count) {
        if (!Double.isFinite(count)) {
            return NONE;
        }
        if (count == Math.rint(count) && Math.abs(count) < 1e15) {
            return Long.toString((long) count);
        }
        return three(count);
    }

    /** A ratio with three significant digits: {@code 1.23×}. */
    public static String ratio(double ratio) {
        if (!Double.isFinite(ratio)) {
            return NONE;
        }
        return three(ratio) + "×";
    }

    /** A p-value: two significant digits, {@code <0.0001} below that. */
    public static String pValue(double p) {
        if (Double.isNaN(p)) {
            return NONE;
        }
        if (p < 0.0001) {
            return "<0.0001";
        }
        return new BigDecimal(p).round(TWO).stripTrailingZeros().toPlainString();
    }

    /** A plain number with three significant digits ({@code 1.23}, {@code 45.6}, {@code 1230}). */
    public static String three(double value) {
        if (!Double.isFinite(value)) {
            return NONE;
        }
        if (value == 0) {
            return "0";
        }
        BigDecimal rounded = BigDecimal.valueOf(value).round(THREE).stripTrailingZeros();
        return rounded.scale() < 0 ? rounded.setScale(0).toPlainString() : rounded.toPlainString();
    }

    private static String oneDecimal(double value) {
        String text = BigDecimal.valueOf(value).setScale(1, RoundingMode.HALF_EVEN).toPlainString();
        return text.equals("-0.0") ? "0.0" : text;
    }

    private static double round3(double value) {
        return value == 0 ? 0 : BigDecimal.valueOf(value).round(THREE).doubleValue();
    }

    private static double round0(double value) {
        return Math.rint(value);
    }
}
