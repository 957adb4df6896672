package io.tracegraph.cli;

import java.util.Locale;
import picocli.CommandLine;

/** Reads sizes such as {@code 1048576}, {@code 512k}, {@code 64m}, {@code 8g}. */
final class SizeConverter implements CommandLine.ITypeConverter<Long> {
    @Override
    public Long convert(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        long unit = 1;
        if (v.endsWith("b")) {
            v = v.substring(0, v.length() - 1);
        }
        switch (v.isEmpty() ? ' ' : v.charAt(v.length() - 1)) {
            case 'k': unit = 1L << 10; break;
            case 'm': unit = 1L << 20; break;
            case 'g': unit = 1L << 30; break;
            case 't': unit = 1L << 40; break;
            default: unit = 1;
        }
        if (unit > 1) {
            v = v.substring(0, v.length() - 1);
        }
        try {
            long n = Long.parseLong(v);
            if (n <= 0 || n > Long.MAX_VALUE / unit) {
                throw new NumberFormatException();
            }
            return n * unit;
        } catch (NumberFormatException e) {
            throw new CommandLine.TypeConversionException("not a size: '" + value + "' (e.g. 512m, 8g)");
        }
    }
}
