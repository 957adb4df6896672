package io.tracegraph.cli.render;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.commonmark.ext.gfm.tables.TableBlock;
import org.commonmark.ext.gfm.tables.TableCell;
import org.commonmark.ext.gfm.tables.TableHead;
import org.commonmark.ext.gfm.tables.TableRow;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.node.Code;
import org.commonmark.node.HtmlBlock;
import org.commonmark.node.Node;
import org.commonmark.node.Paragraph;
import org.commonmark.node.Text;
import org.commonmark.parser.Parser;
import org.junit.jupiter.api.Test;

/** The Markdown renderer's output, read back by a CommonMark parser with GitHub's table extension. */
class MarkdownTest {
    private static final Parser PARSER = Parser.builder().extensions(List.of(TablesExtension.create())).build();

    @Test
    void aTableParsesAsAGfmTableWithItsCellsAsWritten() {
        String md = new Markdown().table(List.of("path", "change"), List.of(false, true),
                List.of(List.of("update/Model::forward", "+12.3%"), List.of("a|b", ""))).text();
        Node doc = PARSER.parse(md);
        TableBlock table = (TableBlock) doc.getFirstChild();
        assertThat(rows(table)).containsExactly(List.of("path", "change"), List.of("update/Model::forward", "+12.3%"),
                List.of("a|b", ""));
        TableCell change = (TableCell) table.getFirstChild().getFirstChild().getLastChild();
        assertThat(change.getAlignment()).isEqualTo(TableCell.Alignment.RIGHT);
        assertThat(table.getFirstChild()).isInstanceOf(TableHead.class);
    }

    @Test
    void hostileNamesShowAsWrittenAndInjectNothing() {
        List<String> names = List.of("*bold* _em_ `code`", "<script>alert(1)</script>", "[link](http://x)",
                "![img](x.png)", "a \\| b", "~~strike~~", "&amp; &lt;", "# heading", "line\nbreak", "| lead", "trail \\");
        List<List<String>> rows = new ArrayList<>();
        for (String name : names) {
            rows.add(List.of(name));
        }
        Node doc = PARSER.parse(new Markdown().table(List.of("name"), List.of(false), rows).text());
        TableBlock table = (TableBlock) doc.getFirstChild();
        assertThat(table.getNext()).as("one block: the table").isNull();
        List<List<String>> parsed = rows(table);
        assertThat(parsed).hasSize(names.size() + 1);
        for (int i = 0; i < names.size(); i++) {
            assertThat(parsed.get(i + 1).get(0)).isEqualTo(names.get(i).replace('\n', ' '));
        }
        assertThat(onlyTextBelow(table)).as("no emphasis, link, code or HTML").isTrue();
    }

    @Test
    void aSummaryLineComesFirstAndDetailsFold() {
        String md = new Markdown().paragraph("**2 slower**, 0 faster")
                .table(List.of("path"), List.of(false), List.of(List.of("a/b")))
                .openDetails("12 other paths <unchanged>")
                .table(List.of("path"), List.of(false), List.of(List.of("a/c")))
                .closeDetails().text();
        Node doc = PARSER.parse(md);
        assertThat(doc.getFirstChild()).isInstanceOf(Paragraph.class);
        Node table = doc.getFirstChild().getNext();
        assertThat(table).isInstanceOf(TableBlock.class);
        HtmlBlock open = (HtmlBlock) table.getNext();
        assertThat(open.getLiteral()).isEqualTo("<details><summary>12 other paths &lt;unchanged&gt;</summary>");
        assertThat(open.getNext()).isInstanceOf(TableBlock.class);
        assertThat(((HtmlBlock) open.getNext().getNext()).getLiteral()).isEqualTo("</details>");
    }

    @Test
    void headingsAreEscapedToo() {
        Node doc = PARSER.parse(new Markdown().heading(2, "compare *x*").text());
        assertThat(text(doc.getFirstChild())).isEqualTo("compare *x*");
    }

    private static List<List<String>> rows(TableBlock table) {
        List<List<String>> rows = new ArrayList<>();
        for (Node section = table.getFirstChild(); section != null; section = section.getNext()) {
            for (Node row = section.getFirstChild(); row != null; row = row.getNext()) {
                List<String> cells = new ArrayList<>();
                for (Node cell = ((TableRow) row).getFirstChild(); cell != null; cell = cell.getNext()) {
                    cells.add(text(cell));
                }
                rows.add(cells);
            }
        }
        return rows;
    }

    private static String text(Node node) {
        StringBuilder s = new StringBuilder();
        for (Node child = node.getFirstChild(); child != null; child = child.getNext()) {
            if (child instanceof Text t) {
                s.append(t.getLiteral());
            } else if (child instanceof Code c) {
                s.append(c.getLiteral());
            } else {
                s.append(text(child));
            }
        }
        return s.toString().strip();
    }

    private static boolean onlyTextBelow(Node node) {
        for (Node child = node.getFirstChild(); child != null; child = child.getNext()) {
            boolean structural = child instanceof TableRow || child instanceof TableCell
                    || child.getClass().getSimpleName().startsWith("Table");
            if (!(child instanceof Text) && !structural) {
                return false;
            }
            if (!onlyTextBelow(child)) {
                return false;
            }
        }
        return true;
    }
}
