package io.tracegraph.cli.render;

import static org.assertj.core.api.Assertions.assertThat;

import io.tracegraph.domain.compare.GroupComparison;
import io.tracegraph.domain.compare.GroupOptions;
import io.tracegraph.domain.compare.PathStats;
import io.tracegraph.domain.compare.RunComparison;
import io.tracegraph.domain.compare.RunFacts;
import io.tracegraph.domain.compare.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.commonmark.ext.gfm.tables.TableBlock;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.node.HtmlBlock;
import org.commonmark.node.Node;
import org.commonmark.node.Paragraph;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.text.TextContentRenderer;
import org.junit.jupiter.api.Test;

class ComparisonRenderersTest {
    private static final String ROOT = "tinygpt::train::update";
    private static final String SLOWED = ROOT + "/update/Model::forward/Block::forward/Attention::forward/softmax";
    private static final String STEADY = ROOT + "/update/Model::forward/Block::forward/Mlp::forward/matmul";
    private static final Parser PARSER = Parser.builder().extensions(List.of(TablesExtension.create())).build();

    /** Ten runs a side; {@code slowdown} multiplies the softmax's time and {@code grow} the memory peak. */
    private static List<RunFacts> runs(String prefix, long seed, double slowdown, double grow) {
        SplittableRandom random = new SplittableRandom(seed);
        List<RunFacts> runs = new ArrayList<>();
        for (int r = 0; r < 10; r++) {
            long softmax = Math.round(1_200_000 * slowdown * (1 + random.nextDouble(-0.02, 0.02)));
            long matmul = Math.round(3_400_000 * (1 + random.nextDouble(-0.02, 0.02)));
            long rootSelf = Math.round(500_000 * (1 + random.nextDouble(-0.02, 0.02)));
            long total = softmax + matmul + rootSelf;
            List<PathStats> paths = List.of(PathStats.of(ROOT, 1, "root", rootSelf, total, 0, 0),
                    PathStats.of(SLOWED, 2, "op", softmax, softmax, 4096, 4096),
                    PathStats.of(STEADY, 3, "op", matmul, matmul, 1 << 20, 1 << 20));
            runs.add(new RunFacts(prefix + r, total / 1e6, Math.round(208_920_576 * grow), paths));
        }
        return runs;
    }

    private static GroupComparison sets() {
        return GroupComparison.compare(runs("base-", 1, 1, 1), runs("cand-", 2, 1.3, 1.2), GroupOptions.defaults());
    }

    @Test
    void theSetsAreAsTheTestMeansThem() {
        GroupComparison c = sets();
        assertThat(c.pathsWith(Verdict.SLOWER)).extracting(p -> p.path()).containsExactlyInAnyOrder(SLOWED, ROOT);
        assertThat(c.peakBytes().verdict()).isEqualTo(Verdict.SLOWER);
    }

    @Test
    void aSetComparisonOnATerminalStartsWithItsSummaryAndFitsEveryWidth() {
        for (int width : new int[] {80, 120, 200}) {
            String text = ComparisonText.sets(sets(), 50, Screen.terminal(width), false);
            for (String line : text.split("\n", -1)) {
                assertThat(TextWidth.of(line)).as("%d columns: %s", width, line).isLessThanOrEqualTo(width);
            }
            assertThat(text).startsWith("2 paths slower, 0 faster (of 3 compared); total time +");
            assertThat(text.replace("\n  ", " ")).contains("memory peak +20.0% bigger", "Baseline:", "10 runs, total time ", " ms ±",
                    "slower");
            String header = text.lines().filter(l -> l.startsWith("path")).findFirst().orElseThrow();
            assertThat(header).contains("baseline", "candidate", "change", "verdict");
            String softmax = text.lines().filter(l -> l.contains("softmax")).findFirst().orElseThrow();
            assertThat(softmax).contains("ms ±", "slower").containsPattern("\\+\\d+\\.\\d%");
            if (width < 120) {
                assertThat(softmax).startsWith("…/");
            }
            if (width >= 120) {
                assertThat(header).contains("95% CI", " p ");
                assertThat(softmax).containsPattern("\\[\\+\\d+\\.\\d, \\+\\d+\\.\\d\\]");
            }
        }
    }

    @Test
    void wideShowsSelfTimeBytesAndRunCounts() {
        String text = ComparisonText.sets(sets(), 50, Screen.terminal(80), true);
        assertThat(text).contains("self baseline", "bytes verdict", "10/10", SLOWED).doesNotContain("--wide shows");
    }

    @Test
    void verdictsAreColouredOnAColourTerminal() {
        String text = ComparisonText.sets(sets(), 50, new Screen(true, 120, true), false);
        assertThat(text).contains("\u001b[31mslower\u001b[0m");
    }

    @Test
    void aSetComparisonInMarkdownIsAPullRequestComment() {
        String md = ComparisonMarkdown.sets(sets(), 50);
        Node doc = PARSER.parse(md);
        Paragraph summary = (Paragraph) doc.getFirstChild();
        String summaryText = TextContentRenderer.builder().extensions(List.of(TablesExtension.create())).build().render(summary);
        assertThat(summaryText).startsWith("tracegraph compare: 2 paths slower, 0 faster (of 3 compared); total time +")
                .contains("memory peak +20.0% bigger");
        TableBlock regressions = (TableBlock) summary.getNext();
        String table = TextContentRenderer.builder().extensions(List.of(TablesExtension.create())).build().render(regressions);
        assertThat(table).contains(SLOWED, ROOT, "slower").doesNotContain(STEADY);
        Node details = regressions.getNext();
        while (!(details instanceof HtmlBlock)) {
            details = details.getNext();
        }
        assertThat(((HtmlBlock) details).getLiteral()).isEqualTo("<details><summary>The other 1 path (0 faster)"
                + "</summary>");
        assertThat(TextContentRenderer.builder().extensions(List.of(TablesExtension.create())).build().render(details.getNext())).contains(STEADY);
    }

    @Test
    void aComparisonWithoutRegressionsSaysSo() {
        String md = ComparisonMarkdown.sets(GroupComparison.compare(runs("b", 1, 1, 1), runs("c", 2, 1, 1),
                GroupOptions.defaults()), 50);
        assertThat(md).startsWith("**tracegraph compare: 0 paths slower, 0 faster** (of 3 compared)")
                .contains("\n\nNo path is slower.\n");
    }

    @Test
    void twoRunsOnATerminalFitEveryWidth() {
        RunComparison c = RunComparison.compare(runs("base-", 1, 1, 1).get(0), runs("cand-", 2, 1.3, 1.2).get(0));
        for (int width : new int[] {80, 120, 200}) {
            String text = ComparisonText.runs(c, 50, Screen.terminal(width), false);
            for (String line : text.split("\n", -1)) {
                assertThat(TextWidth.of(line)).as("%d columns: %s", width, line).isLessThanOrEqualTo(width);
            }
            assertThat(text).startsWith("Base:         base-0\nCandidate:    cand-0\nTotal time:   5.15 ms → 5.5 ms (+6.9%)\n")
                    .contains("Memory peak:  199 MiB → 239 MiB (+20.0%)", "softmax", "ms");
        }
        String md = ComparisonMarkdown.runs(c, 50);
        assertThat(PARSER.parse(md).getFirstChild()).isInstanceOf(Paragraph.class);
        assertThat(PARSER.parse(md).getFirstChild().getNext()).isInstanceOf(TableBlock.class);
    }
}
