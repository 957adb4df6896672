package io.tracegraph.domain.run;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/** What running a {@link ReadOnlySql} gave: its rows, or a refusal before anything ran. */
public sealed interface SqlOutcome permits SqlOutcome.Rows, SqlOutcome.Refused {

    /**
     * The result: column names, each column's database type name, and the rows as plain Java values
     * ({@code null}, {@link String}, {@link Boolean}, {@link Number}s, {@code java.time} values,
     * {@code byte[]}, {@link List}s for arrays; JSON and other types as their text). {@code truncated}
     * when there were more rows than the statement's {@code maxRows}.
     */
    record Rows(List<String> columns, List<String> types, List<List<Object>> rows, boolean truncated)
            implements SqlOutcome {
        public Rows {
            columns = List.copyOf(columns);
            types = List.copyOf(types);
            if (types.size() != columns.size()) {
                throw new IllegalArgumentException(columns.size() + " columns but " + types.size() + " types");
            }
            List<List<Object>> copy = new ArrayList<>(rows.size());
            for (List<Object> row : rows) {
                if (row.size() != columns.size()) {
                    throw new IllegalArgumentException("a row has " + row.size() + " values for " + columns.size()
                            + " columns");
                }
                // Values may be null: List.copyOf would refuse them.
                copy.add(Collections.unmodifiableList(new ArrayList<>(row)));
            }
            rows = Collections.unmodifiableList(copy);
        }
    }

    /** Refused without running: {@code reason} says why, in a sentence for people. */
    record Refused(String reason) implements SqlOutcome {
        public Refused {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
