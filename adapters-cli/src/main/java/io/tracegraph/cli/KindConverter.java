package io.tracegraph.cli;

import io.tracegraph.application.QueryKind;
import java.util.ArrayList;
import java.util.Locale;
import picocli.CommandLine;

/** Reads query kinds in their lower-case spelling. */
final class KindConverter implements CommandLine.ITypeConverter<QueryKind> {
    @Override
    public QueryKind convert(String value) {
        try {
            return QueryKind.valueOf(value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException("unknown kind '" + value + "' (expected one of "
                    + String.join(", ", new Candidates()) + ")");
        }
    }

    static final class Candidates extends ArrayList<String> {
        private static final long serialVersionUID = 1L;

        Candidates() {
            for (QueryKind k : QueryKind.values()) {
                add(k.name().toLowerCase(Locale.ROOT));
            }
        }
    }
}
