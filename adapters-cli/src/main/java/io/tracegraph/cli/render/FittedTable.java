package io.tracegraph.cli.render;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * A table laid out for a terminal of a given width: each column as wide as its widest cell, two
 * spaces between columns, numbers right-aligned. When the table is wider than the terminal, the
 * least important columns are left out first ({@link Column#priority}), then the columns that may
 * shrink ({@link Fit#PATH}, {@link Fit#TEXT}) share the width that is left, cut at a boundary; a
 * line is never longer than the width. Wide layout shows every column whole, however wide.
 */
public final class FittedTable {
    private static final String GAP = "  ";
    /** The longest leaf a path column widens for before leaving columns out. */
    private static final int LONGEST_LEAF = 40;

    /** How a column's cells are aligned. */
    public enum Align { LEFT, RIGHT }

    /** What a column may do when the width is short. */
    public enum Fit {
        /** Never cut (numbers, verdicts, ids). */
        KEEP,
        /** A semantic path, shortened from the left at a component ({@code …/Attention::forward/softmax}). */
        PATH,
        /** Text, cut at its end ({@code Attention::for…}). */
        TEXT
    }

    /**
     * One column: its header, alignment, how it fits, its priority (0: always shown; the higher,
     * the sooner it is left out when the width is short) and the narrowest a shrinking column gets.
     */
    public record Column(String header, Align align, Fit fit, int priority, int minWidth) {
        public Column {
            Objects.requireNonNull(header, "header");
            Objects.requireNonNull(align, "align");
            Objects.requireNonNull(fit, "fit");
            if (priority < 0 || minWidth < 1) {
                throw new IllegalArgumentException("priority >= 0 and minWidth >= 1: " + priority + ", " + minWidth);
            }
        }

        /** A left-aligned text column that is always shown and never cut. */
        public static Column text(String header) {
            return new Column(header, Align.LEFT, Fit.KEEP, 0, 1);
        }

        /** A right-aligned number column that is always shown. */
        public static Column number(String header) {
            return new Column(header, Align.RIGHT, Fit.KEEP, 0, 1);
        }

        /** A semantic-path column that gives way to the others down to {@code minWidth} columns. */
        public static Column path(String header, int minWidth) {
            return new Column(header, Align.LEFT, Fit.PATH, 0, minWidth);
        }

        /** A text column cut at its end down to {@code minWidth} columns. */
        public static Column shrinking(String header, int minWidth) {
            return new Column(header, Align.LEFT, Fit.TEXT, 0, minWidth);
        }

        /** This column, left out before those of lower priority when the width is short. */
        public Column optional(int priority) {
            return new Column(header, align, fit, priority, minWidth);
        }
    }

    /** One cell: its text (one line) and its style on a colour terminal. */
    public record Cell(String text, Style style) {
        public Cell {
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(style, "style");
        }

        public static Cell of(String text) {
            return new Cell(text == null ? "" : text, Style.PLAIN);
        }
    }

    /** The lines of the laid-out table, and the headers of the columns left out to fit. */
    public record Layout(List<String> lines, List<String> hidden) {
        public Layout {
            lines = List.copyOf(lines);
            hidden = List.copyOf(hidden);
        }
    }

    private final List<Column> columns;
    private final List<List<Cell>> rows = new ArrayList<>();

    public FittedTable(List<Column> columns) {
        if (columns.isEmpty()) {
            throw new IllegalArgumentException("a table has columns");
        }
        this.columns = List.copyOf(columns);
    }

    public FittedTable(Column... columns) {
        this(Arrays.asList(columns));
    }

    /** Adds a row of cells, one per column. */
    public FittedTable row(List<Cell> cells) {
        if (cells.size() != columns.size()) {
            throw new IllegalArgumentException("row has " + cells.size() + " cells for " + columns.size() + " columns");
        }
        rows.add(List.copyOf(cells));
        return this;
    }

    /** Adds a row of plain cells. */
    public FittedTable row(String... texts) {
        List<Cell> cells = new ArrayList<>(texts.length);
        for (String t : texts) {
            cells.add(Cell.of(t));
        }
        return row(cells);
    }

    public int size() {
        return rows.size();
    }

    /** The table in at most {@code width} columns (all of them, whole, when {@code wide}). */
    public Layout layout(int width, boolean wide, boolean color) {
        int n = columns.size();
        int[] natural = new int[n];
        for (int c = 0; c < n; c++) {
            natural[c] = TextWidth.of(columns.get(c).header());
        }
        for (List<Cell> row : rows) {
            for (int c = 0; c < n; c++) {
                natural[c] = Math.max(natural[c], TextWidth.of(row.get(c).text()));
            }
        }
        // A path column gives way only down to what shows every leaf whole behind "…/" (up to a point):
        // a leaf names the span, so columns are left out before leaves are cut.
        int[] floors = new int[n];
        for (int c = 0; c < n; c++) {
            Column column = columns.get(c);
            int floor = Math.min(natural[c], column.minWidth());
            if (column.fit() == Fit.PATH) {
                int leaf = 0;
                for (List<Cell> row : rows) {
                    String text = row.get(c).text();
                    leaf = Math.max(leaf, TextWidth.of(text.substring(text.lastIndexOf('/') + 1)) + 2);
                }
                floor = Math.min(natural[c], Math.max(floor, Math.min(leaf, LONGEST_LEAF)));
            }
            floors[c] = column.fit() == Fit.KEEP ? natural[c] : floor;
        }
        boolean[] shown = new boolean[n];
        Arrays.fill(shown, true);
        int[] widths = natural.clone();
        if (!wide) {
            if (!fits(floors, shown, width)) {
                // Not even with every optional column left out: leaves are cut rather than the columns that keep.
                Arrays.fill(shown, true);
                for (int c = 0; c < n; c++) {
                    floors[c] = columns.get(c).fit() == Fit.KEEP ? natural[c] : Math.min(natural[c], columns.get(c).minWidth());
                }
                fits(floors, shown, width);
            }
            share(natural, floors, shown, width, widths);
        }
        List<String> lines = new ArrayList<>(rows.size() + 2);
        List<Cell> header = new ArrayList<>(n);
        List<Cell> rule = new ArrayList<>(n);
        for (int c = 0; c < n; c++) {
            header.add(Cell.of(columns.get(c).header()));
            rule.add(Cell.of("-".repeat(widths[c])));
        }
        lines.add(line(header, shown, widths, width, wide, false, true));
        lines.add(line(rule, shown, widths, width, wide, false, false));
        for (List<Cell> row : distinctPaths(shown, widths, wide)) {
            lines.add(line(row, shown, widths, width, wide, color, false));
        }
        List<String> hiddenInOrder = new ArrayList<>();
        for (int c = 0; c < n; c++) {
            if (!shown[c]) {
                hiddenInOrder.add(columns.get(c).header());
            }
        }
        return new Layout(lines, hiddenInOrder);
    }

    /**
     * The rows with the cells of each shortened path column fitted to its width so that two
     * different paths never read the same ({@link TextWidth#shortenPaths}).
     */
    private List<List<Cell>> distinctPaths(boolean[] shown, int[] widths, boolean wide) {
        if (wide) {
            return rows;
        }
        List<List<Cell>> fitted = new ArrayList<>(rows.size());
        for (List<Cell> row : rows) {
            fitted.add(new ArrayList<>(row));
        }
        for (int c = 0; c < columns.size(); c++) {
            if (!shown[c] || columns.get(c).fit() != Fit.PATH) {
                continue;
            }
            List<String> texts = new ArrayList<>(rows.size());
            for (List<Cell> row : rows) {
                texts.add(row.get(c).text());
            }
            List<String> shortened = TextWidth.shortenPaths(texts, widths[c]);
            for (int r = 0; r < rows.size(); r++) {
                Cell cell = rows.get(r).get(c);
                fitted.get(r).set(c, new Cell(shortened.get(r), cell.style()));
            }
        }
        return fitted;
    }

    /**
     * Leaves out optional columns, the least important first (of equals, the rightmost), until the
     * shown ones fit {@code width} at their floors; whether they do then.
     */
    private boolean fits(int[] floors, boolean[] shown, int width) {
        List<Integer> droppable = new ArrayList<>();
        for (int c = 0; c < columns.size(); c++) {
            if (columns.get(c).priority() > 0) {
                droppable.add(c);
            }
        }
        droppable.sort(Comparator.<Integer>comparingInt(c -> columns.get(c).priority()).reversed()
                .thenComparing(Comparator.<Integer>reverseOrder()));
        for (int next = 0; floor(floors, shown) > width && next < droppable.size(); next++) {
            shown[droppable.get(next)] = false;
        }
        return floor(floors, shown) <= width;
    }

    /** The narrowest the shown columns can be: whole where they keep, at their floor where they shrink. */
    private static int floor(int[] floors, boolean[] shown) {
        int total = 0;
        int count = 0;
        for (int c = 0; c < floors.length; c++) {
            if (shown[c]) {
                total += floors[c];
                count++;
            }
        }
        return total + GAP.length() * Math.max(0, count - 1);
    }

    /** Gives the shrinking columns the width the others leave: each its floor, the rest from the left. */
    private void share(int[] natural, int[] floors, boolean[] shown, int width, int[] widths) {
        int left = width;
        int shownCount = 0;
        List<Integer> shrinking = new ArrayList<>();
        for (int c = 0; c < natural.length; c++) {
            if (!shown[c]) {
                continue;
            }
            shownCount++;
            if (columns.get(c).fit() == Fit.KEEP) {
                left -= natural[c];
            } else {
                shrinking.add(c);
            }
        }
        left -= GAP.length() * Math.max(0, shownCount - 1);
        // Each gets its floor; what is left goes to them from the left (the more important first).
        for (int c : shrinking) {
            widths[c] = floors[c];
            left -= floors[c];
        }
        for (int c : shrinking) {
            int more = Math.max(0, Math.min(natural[c] - widths[c], left));
            widths[c] += more;
            left -= more;
        }
    }

    private String line(List<Cell> cells, boolean[] shown, int[] widths, int width, boolean wide, boolean color,
            boolean header) {
        StringBuilder plain = new StringBuilder();
        StringBuilder styled = new StringBuilder();
        int last = -1;
        for (int c = 0; c < cells.size(); c++) {
            if (shown[c]) {
                last = c;
            }
        }
        boolean first = true;
        for (int c = 0; c < cells.size(); c++) {
            if (!shown[c]) {
                continue;
            }
            Column column = columns.get(c);
            String text = fit(cells.get(c).text(), column, widths[c], header);
            boolean right = column.align() == Align.RIGHT;
            // No trailing spaces after the last column.
            String padded = c == last && !right ? text : TextWidth.pad(text, widths[c], right);
            String sep = first ? "" : GAP;
            first = false;
            plain.append(sep).append(padded);
            int fill = padded.length() - text.length();
            String body = right ? padded.substring(0, fill) + cells.get(c).style().apply(text, color)
                    : cells.get(c).style().apply(text, color) + padded.substring(text.length());
            styled.append(sep).append(body);
        }
        if (!wide && TextWidth.of(plain.toString()) > width) {
            // Only when even the columns that keep cannot fit: cut the line, plainly.
            return TextWidth.clipEnd(plain.toString(), width);
        }
        // An empty last cell pads nothing: no line ends in blanks.
        return styled.toString().stripTrailing();
    }

    private static String fit(String text, Column column, int width, boolean header) {
        if (TextWidth.of(text) <= width) {
            return text;
        }
        if (!header && column.fit() == Fit.PATH) {
            return TextWidth.shortenPath(text, width);
        }
        return TextWidth.clipEnd(text, width);
    }
}
