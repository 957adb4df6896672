package io.tracegraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tracegraph.application.QueryKind;
import io.tracegraph.json.SyntheticTrace;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.commonmark.ext.gfm.tables.TableBlock;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.node.HtmlBlock;
import org.commonmark.node.Node;
import org.commonmark.node.Paragraph;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.text.TextContentRenderer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The listings that need no store (query of every kind, compare of two trace files and of two sets
 * of them, db status), over the shared samples ({@code adapters-json}'s conformance traces and
 * {@code examples/}): on a terminal of 80, 120 and 200 columns against golden files and the rules
 * for people, and in every format, also under a German locale, against the number rules
 * ({@link OutputRules}). Exempt: the graph JSON of {@code build} and the health JSON of
 * {@code check}, the trace/6 conformance contract, byte-identical by {@code ConformanceTest}.
 *
 * <p>{@code -Dgolden.update=true} rewrites the golden files in {@code src/test/resources/golden}.
 */
class ListingOutputTest {
    private static final int[] WIDTHS = {80, 120, 200};
    private static final List<String> FORMATS = List.of("json", "csv", "table", "markdown");
    private static final Path GOLDEN = Path.of("src/test/resources/golden");
    private static final Path HOME = Path.of("/nonexistent/tracegraph-listing-home");

    @TempDir
    static Path dir;
    private static final List<Path> samples = new ArrayList<>();
    private static Path[] base;
    private static Path[] cand;
    private final Locale locale = Locale.getDefault();

    @BeforeAll
    static void samples() throws IOException {
        for (String name : List.of("synthetic.jsonl", "train_tiny.jsonl", "train_quirks.jsonl", "infer_small.jsonl",
                "infer_quirks.jsonl", "bom.jsonl", "crlf.jsonl")) {
            Path target = dir.resolve(name);
            try (InputStream in = ListingOutputTest.class.getResourceAsStream("/conformance/" + name)) {
                Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
            }
            samples.add(target);
        }
        for (String name : List.of("train_small.jsonl", "infer_small.jsonl", "train_gz.jsonl.gz")) {
            samples.add(Path.of("../examples", name));
        }
        // Ten runs a side: with fewer, the rank-sum test cannot confirm a change among ~170 paths.
        base = new Path[10];
        cand = new Path[10];
        for (int i = 0; i < 10; i++) {
            base[i] = dir.resolve("base-" + i + ".jsonl");
            cand[i] = dir.resolve("cand-" + i + ".jsonl");
            SyntheticTrace.training().ops(300).seed(7).timingSeed(100 + i).runId("base-" + i).writeTo(base[i]);
            SyntheticTrace.training().ops(300).seed(7).timingSeed(200 + i).runId("cand-" + i)
                    .slowSpan("Mlp::forward", 2.0).growMemory("Mlp::forward", 2).writeTo(cand[i]);
        }
    }

    @AfterEach
    void restoreLocale() {
        Locale.setDefault(locale);
    }

    /** The listing commands of this test, each as its arguments (a name first, for messages and golden files). */
    private static List<List<String>> commands(boolean allSamples) {
        List<List<String>> commands = new ArrayList<>();
        List<Path> traces = allSamples ? samples : List.of(samples.get(0), samples.get(7));
        for (Path trace : traces) {
            for (QueryKind kind : QueryKind.values()) {
                String k = kind.name().toLowerCase(Locale.ROOT).replace('_', '-');
                commands.add(List.of("query-" + k + "-" + name(trace), "query", trace.toString(), "--kind", k));
            }
        }
        commands.add(List.of("compare-runs", "compare", samples.get(7).toString(), samples.get(9).toString()));
        commands.add(List.of("compare-runs-synthetic", "compare", base[0].toString(), cand[0].toString()));
        commands.add(List.of("compare-sets", "compare", "--baseline", join(base), "--candidate", join(cand)));
        return commands;
    }

    @Test
    void onATerminalEveryListingFitsItsWidthAndMatchesItsGoldenFile() throws IOException {
        boolean update = Boolean.getBoolean("golden.update");
        for (List<String> command : commands(false)) {
            for (int width : WIDTHS) {
                // Without colour, so that the golden files read plainly; colour has its own test.
                CliRun run = CliRun.onTerminal(Map.of("COLUMNS", String.valueOf(width), "NO_COLOR", "1"), HOME,
                        args(command));
                String label = command.get(0) + " at " + width;
                assertThat(run.status()).as(label + ": " + run.err()).isEqualTo(ExitCode.OK);
                OutputRules.fitsTheTerminal(label, run.out(), width);
                Path golden = GOLDEN.resolve(command.get(0) + "-" + width + ".txt");
                String out = run.out().replace(dir.toString(), "DIR");
                if (update) {
                    Files.createDirectories(GOLDEN);
                    Files.writeString(golden, out, StandardCharsets.UTF_8);
                }
                assertThat(golden).as(label + ": golden file (-Dgolden.update=true writes it)").exists();
                assertThat(out).as(label).isEqualTo(Files.readString(golden, StandardCharsets.UTF_8));
            }
        }
    }

    @Test
    void aSetComparisonOnATerminalReadsAsTheIssueAsks() {
        List<String> sets = commands(false).stream().filter(c -> c.get(0).equals("compare-sets")).findFirst()
                .orElseThrow();
        String out = CliRun.onTerminal(Map.of("COLUMNS", "120"), HOME, args(sets)).out();
        String header = out.lines().filter(l -> l.startsWith("path")).findFirst().orElseThrow();
        assertThat(header).containsSubsequence("path", "kind", "baseline", "candidate", "change", "95% CI", "p",
                "verdict");
        assertThat(out.lines().findFirst().orElseThrow()).matches("\\d+ paths? slower, \\d+ faster \\(of \\d+ compared\\); "
                + "total time .*; memory peak .*");
        assertThat(out).contains("Mlp::forward", "slower", " ms ±");
        String wide = CliRun.onTerminal(Map.of("COLUMNS", "120"), HOME, args(sets, "--wide")).out();
        assertThat(wide).contains("self baseline", "bytes verdict", "10/10");
        String colour = CliRun.onTerminal(Map.of("COLUMNS", "120"), HOME, args(sets, "--color", "always")).out();
        assertThat(colour).contains("\u001b[31mslower\u001b[0m");
        assertThat(CliRun.onTerminal(Map.of("NO_COLOR", "1"), HOME, args(sets)).out()).doesNotContain("\u001b[");
        assertThat(CliRun.onTerminal(Map.of(), HOME, args(sets)).out()).contains("\u001b[");
        assertThat(CliRun.onTerminal(Map.of(), HOME, args(sets, "--color", "never")).out()).doesNotContain("\u001b[");
        assertThat(CliRun.of(args(sets, "--format", "table")).out()).as("a pipe gets no colour").doesNotContain("\u001b[");
    }

    @Test
    void everyFormatFollowsTheNumberRulesAlsoUnderAGermanLocale() {
        // Every command over every sample in a German locale (where "1,0" came from); the default
        // locale over the commands of the golden files.
        for (Locale l : List.of(Locale.GERMANY, Locale.ROOT)) {
            Locale.setDefault(l);
            for (List<String> command : commands(l.equals(Locale.GERMANY))) {
                for (String format : FORMATS) {
                    CliRun run = CliRun.of(args(command, "--format", format));
                    String label = command.get(0) + " as " + format + " in " + l;
                    assertThat(run.status()).as(label + ": " + run.err()).isEqualTo(ExitCode.OK);
                    check(label, format, run.out());
                }
            }
            for (List<String> command : commands(false)) {
                CliRun terminal = CliRun.onTerminal(Map.of("COLUMNS", "120"), HOME, args(command));
                OutputRules.fitsTheTerminal(command.get(0) + " on a terminal in " + l, terminal.out(), 120);
            }
        }
        // Exempt: build's graph JSON and check's health JSON are the conformance contract (ConformanceTest).
    }

    static void check(String label, String format, String out) {
        switch (format) {
            case "json" -> OutputRules.numbersInJson(label, out);
            case "csv" -> OutputRules.numbersInCsv(label, out);
            default -> OutputRules.numbersInText(label, out, format.equals("markdown"));
        }
    }

    @Test
    void markdownParsesAsGfmWithTheSummaryLineFirst() {
        Parser parser = Parser.builder().extensions(List.of(TablesExtension.create())).build();
        TextContentRenderer text = TextContentRenderer.builder().extensions(List.of(TablesExtension.create())).build();
        List<String> sets = commands(false).stream().filter(c -> c.get(0).equals("compare-sets")).findFirst()
                .orElseThrow();
        Node comment = parser.parse(CliRun.of(args(sets, "--format", "markdown")).out());
        assertThat(comment.getFirstChild()).isInstanceOf(Paragraph.class);
        assertThat(text.render(comment.getFirstChild())).matches("tracegraph compare: \\d+ paths? slower, \\d+ faster "
                + "\\(of \\d+ compared\\); total time .* (slower|faster|unchanged|inconclusive); memory peak .* "
                + "(bigger|smaller|unchanged|inconclusive)");
        Node regressions = comment.getFirstChild().getNext();
        assertThat(regressions).isInstanceOf(TableBlock.class);
        assertThat(text.render(regressions)).contains("Mlp::forward", "slower").doesNotContain("unchanged");
        boolean folded = false;
        for (Node n = regressions; n != null; n = n.getNext()) {
            folded |= n instanceof HtmlBlock h && h.getLiteral().startsWith("<details><summary>The other ");
        }
        assertThat(folded).as("the rest folded in <details>").isTrue();
        for (List<String> command : commands(false)) {
            Node doc = parser.parse(CliRun.of(args(command, "--format", "markdown")).out());
            boolean table = false;
            for (Node n = doc.getFirstChild(); n != null; n = n.getNext()) {
                table |= n instanceof TableBlock;
            }
            assertThat(table || command.get(0).startsWith("query-")).as(command.get(0)).isTrue();
        }
    }

    @Test
    void dbStatusIsAListingToo() {
        for (String format : FORMATS) {
            CliRun run = CliRun.of("db", "status", "--format", format);
            assertThat(run.status()).isEqualTo(ExitCode.FAILURE);
            assertThat(run.out()).as(run.err()).contains("not running");
        }
        assertThat(CliRun.of("db", "status").out()).startsWith("embedded database: not running (data in ");
    }

    private static String[] args(List<String> command, String... more) {
        List<String> args = new ArrayList<>(command.subList(1, command.size()));
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
    }

    private static String name(Path trace) {
        String file = trace.getFileName().toString();
        return (trace.startsWith("../examples") ? "examples-" : "") + file.substring(0, file.indexOf('.'));
    }

    private static String join(Path[] paths) {
        StringBuilder s = new StringBuilder();
        for (Path p : paths) {
            s.append(s.length() == 0 ? "" : ",").append(p);
        }
        return s.toString();
    }
}
