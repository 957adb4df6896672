package io.tracegraph.cli.render;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/** A named table of values (strings, numbers, booleans, lists or {@code null}) for rendering. */
public record Table(String name, List<String> columns, List<List<Object>> rows) {
    public Table {
        Objects.requireNonNull(name, "name");
        columns = List.copyOf(columns);
        rows = List.copyOf(rows);
    }

    public static Builder named(String name, String... columns) {
        return new Builder(name, Arrays.asList(columns));
    }

    public static final class Builder {
        private final String name;
        private final List<String> columns;
        private final List<List<Object>> rows = new ArrayList<>();

        private Builder(String name, List<String> columns) {
            this.name = name;
            this.columns = columns;
        }

        public Builder row(Object... values) {
            if (values.length != columns.size()) {
                throw new IllegalArgumentException("row has " + values.length + " values for " + columns.size()
                        + " columns of " + name);
            }
            rows.add(java.util.Collections.unmodifiableList(Arrays.asList(values)));
            return this;
        }

        public Table build() {
            return new Table(name, columns, rows);
        }
    }
}
