package io.tracegraph.cli;

import io.tracegraph.cli.render.Format;
import java.util.Locale;
import picocli.CommandLine;

/** Reads output formats in their lower-case spelling. */
final class FormatConverter implements CommandLine.ITypeConverter<Format> {
    @Override
    public Format convert(String value) {
        try {
            return Format.valueOf(value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException("unknown format '" + value
                    + "' (expected table, csv or json)");
        }
    }
}
