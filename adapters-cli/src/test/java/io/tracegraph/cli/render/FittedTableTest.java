package io.tracegraph.cli.render;

import static org.assertj.core.api.Assertions.assertThat;

import io.tracegraph.cli.render.FittedTable.Cell;
import io.tracegraph.cli.render.FittedTable.Column;
import java.util.List;
import org.junit.jupiter.api.Test;

class FittedTableTest {
    private static final String LONG = "tinygpt::train::update/update/Model::forward/Block::forward/Attention::forward/softmax";

    private static FittedTable compare() {
        FittedTable t = new FittedTable(Column.path("path", 20), Column.text("kind"), Column.number("baseline"),
                Column.number("candidate"), Column.number("change").optional(1), Column.number("p").optional(2),
                Column.text("verdict"));
        t.row(List.of(Cell.of(LONG), Cell.of("op"), Cell.of("1.23 ms"), Cell.of("1.5 ms"),
                Cell.of("+22.0% [+18.1, +25.9]"), Cell.of("0.0012"), new Cell("slower", Style.BAD)));
        t.row(List.of(Cell.of("tinygpt::train::update"), Cell.of("span"), Cell.of("812 ns"), Cell.of("799 ns"),
                Cell.of("-1.6% [-4.0, +0.9]"), Cell.of("0.41"), new Cell("inconclusive", Style.DIM)));
        return t;
    }

    @Test
    void aTableThatFitsIsShownWhole() {
        FittedTable.Layout layout = compare().layout(200, false, false);
        assertThat(layout.hidden()).isEmpty();
        assertThat(layout.lines().get(2)).startsWith(LONG + "  op  ");
        assertThat(layout.lines().get(0)).startsWith("path ");
        assertThat(layout.lines().get(1)).startsWith("-----");
    }

    @Test
    void noLineIsLongerThanTheWidth() {
        for (int width = Screen.MIN_WIDTH; width <= 220; width++) {
            for (String line : compare().layout(width, false, false).lines()) {
                assertThat(TextWidth.of(line)).as("width %d: %s", width, line).isLessThanOrEqualTo(width);
                assertThat(line).as("no trailing blanks").isEqualTo(line.stripTrailing());
            }
        }
    }

    @Test
    void pathsAreShortenedAtABoundaryBeforeColumnsAreLeftOut() {
        FittedTable.Layout layout = compare().layout(100, false, false);
        assertThat(layout.hidden()).isEmpty();
        assertThat(layout.lines().get(2)).startsWith("…/").contains("/softmax  op");
    }

    @Test
    void theLeastImportantColumnsGoFirstWhenTheWidthIsShort() {
        FittedTable.Layout layout = compare().layout(90, false, false);
        assertThat(layout.hidden()).containsExactly("p");
        assertThat(layout.lines().get(0)).contains("change").doesNotContain(" p ");
        FittedTable.Layout narrow = compare().layout(80, false, false);
        assertThat(narrow.hidden()).containsExactly("change", "p");
        assertThat(narrow.lines().get(2)).contains("slower").startsWith("…/");
    }

    @Test
    void wideShowsEveryColumnWhole() {
        FittedTable.Layout layout = compare().layout(60, true, false);
        assertThat(layout.hidden()).isEmpty();
        assertThat(layout.lines().get(2)).startsWith(LONG).contains("0.0012");
    }

    @Test
    void numbersAreRightAlignedAndTextLeftAligned() {
        FittedTable t = new FittedTable(Column.text("name"), Column.number("time"));
        t.row("a", "1.5 ms").row("longer", "812 ns");
        assertThat(t.layout(80, false, false).lines()).containsExactly(
                "name      time",
                "------  ------",
                "a       1.5 ms",
                "longer  812 ns");
    }

    @Test
    void colourWrapsTheTextNotThePadding() {
        FittedTable t = new FittedTable(Column.text("verdict"), Column.number("n"));
        t.row(List.of(new Cell("slower", Style.BAD), Cell.of("1")));
        String line = t.layout(80, false, true).lines().get(2);
        assertThat(line).isEqualTo("\u001b[31mslower\u001b[0m   1");
        assertThat(t.layout(80, false, false).lines().get(2)).isEqualTo("slower   1");
    }

    @Test
    void textColumnsAreCutAtTheirEndWithAMark() {
        FittedTable t = new FittedTable(Column.shrinking("message", 10), Column.text("code"));
        t.row("a message much longer than the terminal is wide, repeated, repeated, repeated", "E1");
        List<String> lines = t.layout(40, false, false).lines();
        assertThat(lines.get(2)).endsWith("…  E1");
        assertThat(lines.get(0)).endsWith("  code");
        assertThat(TextWidth.of(lines.get(0))).isEqualTo(40);
    }

    @Test
    void aTableOfColumnsThatCannotShrinkIsCutAtTheWidth() {
        FittedTable t = new FittedTable(Column.text("a".repeat(30)), Column.text("b".repeat(30)));
        t.row("x", "y");
        for (String line : t.layout(40, false, false).lines()) {
            assertThat(TextWidth.of(line)).isLessThanOrEqualTo(40);
        }
    }
}
