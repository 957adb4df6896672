package io.tracegraph.cli.render;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a listing command prints, as the renderers for people see it: headline facts, then named
 * grids of values (strings, numbers, booleans, lists or {@code null}), each column with its
 * {@link Unit}. Whether units are read from the names is the listing's choice: a user's SQL
 * columns are not named by our rules.
 */
public record Listing(Map<String, Object> facts, List<Grid> grids) {
    public Listing {
        facts = Collections.unmodifiableMap(new LinkedHashMap<>(facts));
        grids = List.copyOf(grids);
    }

    /**
     * One table of a listing; {@code ours}: its columns are named by our rules, so people read them
     * as words ({@link Unit#label}), else (a user's SQL) as they are.
     */
    public record Grid(String name, List<String> columns, List<Unit> units, List<List<Object>> rows, boolean ours) {
        public Grid {
            Objects.requireNonNull(name, "name");
            columns = List.copyOf(columns);
            units = List.copyOf(units);
            if (units.size() != columns.size()) {
                throw new IllegalArgumentException(name + ": " + units.size() + " units for " + columns.size()
                        + " columns");
            }
            List<List<Object>> copy = new ArrayList<>(rows.size());
            for (List<Object> row : rows) {
                if (row.size() != columns.size()) {
                    throw new IllegalArgumentException(name + ": row of " + row.size() + " values for "
                            + columns.size() + " columns");
                }
                copy.add(Collections.unmodifiableList(new ArrayList<>(row)));
            }
            rows = Collections.unmodifiableList(copy);
        }

        /** A grid whose units are read from its column names ({@link Unit#ofName}). */
        public static Grid named(String name, List<String> columns, List<List<Object>> rows) {
            List<Unit> units = new ArrayList<>(columns.size());
            for (String c : columns) {
                units.add(Unit.ofName(c));
            }
            return new Grid(name, columns, units, rows, true);
        }

        /** A grid of our columns with the units given. */
        public Grid(String name, List<String> columns, List<Unit> units, List<List<Object>> rows) {
            this(name, columns, units, rows, true);
        }

        /** A grid of plain values: numbers without units, every other column text (ad-hoc SQL). */
        public static Grid plain(String name, List<String> columns, List<List<Object>> rows) {
            List<Unit> units = new ArrayList<>(columns.size());
            for (int c = 0; c < columns.size(); c++) {
                boolean numbers = true;
                for (List<Object> row : rows) {
                    numbers &= row.get(c) == null || row.get(c) instanceof Number;
                }
                units.add(numbers ? Unit.PLAIN : Unit.TEXT);
            }
            return new Grid(name, columns, units, rows, false);
        }
    }
}
