package io.tracegraph.cli.render;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A listing as GitHub-flavoured Markdown (a pull-request comment, a CI job summary): its facts as a
 * list, each grid as a table under a heading, every column, numbers for people.
 */
public final class ListingMarkdown {
    private ListingMarkdown() {
    }

    public static String render(Listing listing) {
        Markdown md = new Markdown();
        if (!listing.facts().isEmpty()) {
            StringBuilder facts = new StringBuilder();
            for (Map.Entry<String, Object> fact : listing.facts().entrySet()) {
                String key = fact.getKey();
                String value = Unit.ofName(key).human(fact.getValue(), Unit.isChange(key));
                facts.append("- ").append(Markdown.escape(Unit.label(key))).append(": ");
                facts.append(value.isEmpty() ? "–" : Markdown.escape(value)).append('\n');
            }
            md.paragraph(facts.toString());
        }
        boolean titled = !listing.facts().isEmpty() || listing.grids().size() > 1;
        for (Listing.Grid grid : listing.grids()) {
            if (titled) {
                md.heading(3, grid.name().replace('_', ' ') + " (" + grid.rows().size() + ")");
            }
            if (grid.rows().isEmpty()) {
                md.paragraph("(none)");
                continue;
            }
            List<String> headers = new ArrayList<>();
            List<Boolean> right = new ArrayList<>();
            for (int c = 0; c < grid.columns().size(); c++) {
                headers.add(grid.ours() ? Unit.label(grid.columns().get(c)) : grid.columns().get(c));
                boolean numbers = true;
                for (List<Object> row : grid.rows()) {
                    numbers &= row.get(c) == null || row.get(c) instanceof Number;
                }
                right.add(numbers);
            }
            List<List<String>> rows = new ArrayList<>();
            for (List<Object> row : grid.rows()) {
                List<String> cells = new ArrayList<>();
                for (int c = 0; c < row.size(); c++) {
                    cells.add(ListingText.human(grid.units().get(c), row.get(c), Unit.isChange(grid.columns().get(c))));
                }
                rows.add(cells);
            }
            md.table(headers, right, rows);
        }
        return md.text();
    }
}
