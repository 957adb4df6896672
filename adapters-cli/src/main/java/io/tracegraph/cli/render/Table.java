package io.tracegraph.cli.render;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A named table of values (strings, numbers, booleans, lists or {@code null}) for rendering.
 * {@code namedUnits}: whether the column names say the units of their numbers ({@code _ns},
 * {@code _bytes}, ...; see {@link Unit#ofName}), as ours do and a user's SQL columns need not.
 */
public record Table(String name, List<String> columns, List<List<Object>> rows, boolean namedUnits) {
    public Table {
        Objects.requireNonNull(name, "name");
        columns = List.copyOf(columns);
        rows = List.copyOf(rows);
    }

    /** A table whose column names say their units. */
    public Table(String name, List<String> columns, List<List<Object>> rows) {
        this(name, columns, rows, true);
    }

    /** A table of a user's columns: numbers shown without units. */
    public static Table plain(String name, List<String> columns, List<List<Object>> rows) {
        return new Table(name, columns, rows, false);
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
