package io.tracegraph.cli.render;

import io.tracegraph.cli.render.FittedTable.Cell;
import io.tracegraph.cli.render.FittedTable.Column;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A listing for a person at a terminal: its facts as labelled lines and each grid as a table that
 * fits the screen's width, numbers in their units, verdicts coloured. Columns left out to fit are
 * named under their table; {@code wide} shows every column whole.
 */
public final class ListingText {
    private static final int PATH_MIN = 20;
    private static final int TEXT_MIN = 12;

    private ListingText() {
    }

    /** The listing's text, one line break after each line. */
    public static String render(Listing listing, Screen screen, boolean wide) {
        StringBuilder out = new StringBuilder();
        int width = screen.width();
        LabelledLines facts = new LabelledLines();
        for (Map.Entry<String, Object> fact : listing.facts().entrySet()) {
            String key = fact.getKey();
            String text = oneLine(Unit.ofName(key).human(fact.getValue(), Unit.isChange(key)));
            facts.add(Unit.label(key), text, key.endsWith("verdict") ? VerdictWords.styleOfWord(text) : Style.PLAIN);
        }
        for (String line : facts.lines(width, screen.color())) {
            out.append(line).append('\n');
        }
        boolean titled = !listing.facts().isEmpty() || listing.grids().size() > 1;
        for (Listing.Grid grid : listing.grids()) {
            if (titled) {
                if (out.length() > 0) {
                    out.append('\n');
                }
                out.append(TextWidth.clipEnd(grid.name().replace('_', ' ') + " (" + grid.rows().size() + ")", width))
                        .append('\n');
            }
            if (grid.rows().isEmpty()) {
                out.append("  (none)\n");
                continue;
            }
            FittedTable.Layout layout = table(grid).layout(width, wide, screen.color());
            for (String line : layout.lines()) {
                out.append(line).append('\n');
            }
            if (!layout.hidden().isEmpty()) {
                int n = layout.hidden().size();
                out.append(TextWidth.clipEnd("(--wide shows " + n + " more column" + (n == 1 ? "" : "s") + ": "
                        + String.join(", ", layout.hidden()) + ")", width)).append('\n');
            }
        }
        return out.toString();
    }

    /** The fitted table of one grid: the first column, paths, names and verdicts stay; the rest go from the right. */
    static FittedTable table(Listing.Grid grid) {
        List<Column> columns = new ArrayList<>();
        for (int c = 0; c < grid.columns().size(); c++) {
            String name = grid.columns().get(c);
            Unit unit = grid.units().get(c);
            boolean numbers = true;
            for (List<Object> row : grid.rows()) {
                Object v = row.get(c);
                numbers &= v == null || v instanceof Number;
            }
            String header = grid.ours() ? Unit.label(name) : name;
            Column column;
            if (unit == Unit.PATH) {
                column = Column.path(header, PATH_MIN);
            } else if (unit == Unit.TEXT || unit == Unit.ID) {
                column = Column.shrinking(header, TEXT_MIN);
            } else if (numbers) {
                column = Column.number(header);
            } else {
                column = Column.text(header);
            }
            boolean stays = c == 0 || unit == Unit.PATH || name.equals("name") || name.equals("verdict");
            columns.add(stays ? column : column.optional(c));
        }
        FittedTable table = new FittedTable(columns);
        for (List<Object> row : grid.rows()) {
            List<Cell> cells = new ArrayList<>(row.size());
            for (int c = 0; c < row.size(); c++) {
                String name = grid.columns().get(c);
                String text = oneLine(human(grid.units().get(c), row.get(c), Unit.isChange(name)));
                cells.add(new Cell(text, name.endsWith("verdict") ? VerdictWords.styleOfWord(text) : Style.PLAIN));
            }
            table.row(cells);
        }
        return table;
    }

    static String human(Unit unit, Object value, boolean change) {
        if (value instanceof List<?> list) {
            StringBuilder s = new StringBuilder("[");
            for (int i = 0; i < list.size(); i++) {
                s.append(i == 0 ? "" : ",").append(Unit.PLAIN.human(list.get(i), false));
            }
            return s.append(']').toString();
        }
        return unit.human(value, change);
    }

    /** Text safe for one terminal line: control characters shown as escapes, never obeyed. */
    static String oneLine(String text) {
        StringBuilder out = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean unsafe = Character.isISOControl(c) || c >= '\u202a' && c <= '\u202e' || c >= '\u2066' && c <= '\u2069'
                    || c == '\u2028' || c == '\u2029' || c == '\u200e' || c == '\u200f' || c == '\u061c';
            if (unsafe && out == null) {
                out = new StringBuilder(text.length() + 16).append(text, 0, i);
            }
            if (out != null) {
                if (!unsafe) {
                    out.append(c);
                } else if (c == '\n') {
                    out.append("\\n");
                } else if (c == '\r') {
                    out.append("\\r");
                } else if (c == '\t') {
                    out.append(' ');
                } else {
                    out.append(String.format("\\u%04x", (int) c));
                }
            }
        }
        return out == null ? text : out.toString();
    }
}
