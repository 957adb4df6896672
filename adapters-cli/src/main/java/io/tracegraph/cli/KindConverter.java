package io.tracegraph.cli;

import java.util.ArrayList;
import java.util.Locale;
import picocli.CommandLine;

/** Reads query kinds in their lower-case spelling. */
final class KindConverter implements CommandLine.ITypeConverter<GraphReports.Kind> {
    @Override
    public GraphReports.Kind convert(String value) {
        try {
            return GraphReports.Kind.valueOf(value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException("unknown kind '" + value + "' (expected one of "
                    + String.join(", ", new Candidates()) + ")");
        }
    }

    static final class Candidates extends ArrayList<String> {
        private static final long serialVersionUID = 1L;

        Candidates() {
            for (GraphReports.Kind k : GraphReports.Kind.values()) {
                add(k.name().toLowerCase(Locale.ROOT));
            }
        }
    }
}
