package io.tracegraph.cli;

import io.tracegraph.application.QueryKind;
import java.util.ArrayList;
import java.util.Locale;
import picocli.CommandLine;

/** Reads query kinds in their lower-case spelling, words joined by {@code -} (or {@code _}). */
final class KindConverter implements CommandLine.ITypeConverter<QueryKind> {
    @Override
    public QueryKind convert(String value) {
        try {
            return QueryKind.valueOf(value.toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException("unknown kind '" + value + "' (expected one of "
                    + String.join(", ", new Candidates()) + ")");
        }
    }

    /** A kind as the command line spells it: {@code tensor-stats} ({@code tensor_stats} is read too). */
    static String spelling(QueryKind kind) {
        return kind.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    static final class Candidates extends ArrayList<String> {
        private static final long serialVersionUID = 1L;

        Candidates() {
            for (QueryKind k : QueryKind.values()) {
                add(spelling(k));
            }
        }
    }
}
