package io.tracegraph.cli;

import java.math.BigDecimal;
import picocli.CommandLine;
import picocli.CommandLine.TypeConversionException;

/**
 * The ranges of the commands' numeric options, checked while the command line is parsed (before any
 * database is started): a value out of range is a usage error (exit 2) whose one line names the
 * option (picocli adds it) and what it accepts.
 */
final class OptionRanges {
    /** The longest statement timeout PostgreSQL takes: {@code statement_timeout} is an int of milliseconds. */
    static final long MAX_TIMEOUT_SECONDS = Integer.MAX_VALUE / 1000;

    private OptionRanges() {
    }

    static long wholeNumber(String value, long min, long max, String what) {
        String text = value.strip();
        try {
            BigDecimal number = new BigDecimal(text);
            if (number.stripTrailingZeros().scale() <= 0) {
                if (number.compareTo(BigDecimal.valueOf(min)) >= 0 && number.compareTo(BigDecimal.valueOf(max)) <= 0) {
                    return number.longValueExact();
                }
            }
        } catch (NumberFormatException | ArithmeticException e) {
            // falls through to the message
        }
        throw new TypeConversionException("expected " + what + ", got '" + value + "'");
    }

    static String range(long min, long max) {
        return max == Integer.MAX_VALUE || max == Long.MAX_VALUE ? "a whole number of " + min + " or more"
                : "a whole number from " + min + " to " + max;
    }

    /** A count of at least 1 ({@code --limit} of {@code runs}, {@code --max-rows}, {@code --jobs}). */
    static final class Positive implements CommandLine.ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return (int) wholeNumber(value, 1, Integer.MAX_VALUE, range(1, Integer.MAX_VALUE));
        }
    }

    /** A count of at least 0, where 0 means all ({@code --limit} of {@code compare}). */
    static final class NonNegative implements CommandLine.ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return (int) wholeNumber(value, 0, Integer.MAX_VALUE, range(0, Integer.MAX_VALUE) + " (0 for all)");
        }
    }

    /** A statement timeout in whole seconds, 1 to {@value #MAX_TIMEOUT_SECONDS}. */
    static final class TimeoutSeconds implements CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            return wholeNumber(value, 1, MAX_TIMEOUT_SECONDS, "whole seconds from 1 to " + MAX_TIMEOUT_SECONDS);
        }
    }

    /** A percentage: a finite number of 0 or more ({@code --threshold}, {@code --fail-on-regression}). */
    static final class Percent implements CommandLine.ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            try {
                double d = new BigDecimal(value.strip()).doubleValue();
                if (Double.isFinite(d) && d >= 0) {
                    return d;
                }
            } catch (NumberFormatException e) {
                // falls through to the message
            }
            throw new TypeConversionException("expected a percentage, a number of 0 or more (e.g. 5 or 2.5), got '"
                    + value + "'");
        }
    }
}
