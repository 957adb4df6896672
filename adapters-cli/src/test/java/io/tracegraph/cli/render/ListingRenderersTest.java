package io.tracegraph.cli.render;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.commonmark.ext.gfm.tables.TableBlock;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.node.BulletList;
import org.commonmark.node.Heading;
import org.commonmark.node.Node;
import org.commonmark.parser.Parser;
import org.junit.jupiter.api.Test;

class ListingRenderersTest {
    private static final String DEEP = "tinygpt::train::update/update/Model::forward/Block::forward/Attention::forward/softmax";

    private static Listing listing() {
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("baseline_runs", 10L);
        facts.put("threshold_percent", 5.0);
        facts.put("total_ms_base_median", 1.8916680000000001);
        facts.put("total_ms_change_percent", 12.34);
        facts.put("total_ms_verdict", "slower");
        facts.put("peak_bytes_base_median", 208920576.0);
        facts.put("peak_bytes_verdict", "bigger");
        List<String> columns = List.of("path", "kind", "verdict", "self_base_median_ns", "self_candidate_median_ns",
                "self_change_percent", "self_ci_low_percent", "self_ci_high_percent", "total_base_median_ns",
                "total_candidate_median_ns", "total_change_percent", "bytes_change_percent");
        List<List<Object>> rows = new ArrayList<>();
        rows.add(Arrays.asList(DEEP, "op", "slower", 1_234_567.0, 1_512_000.5, 22.47, 18.1, 25.9, 1_234_567.0,
                1_512_000.5, 22.47, 0.0));
        rows.add(Arrays.asList("tinygpt::train::update", "span", "inconclusive", 812.0, 799.0, -1.6, -4.0, 0.9,
                98_000_000.0, 99_100_000.0, 1.12, null));
        return new Listing(facts, List.of(Listing.Grid.named("paths", columns, rows),
                Listing.Grid.named("only_in_candidate", List.of("path", "kind", "runs"), List.of())));
    }

    @Test
    void onATerminalNumbersCarryTheirUnitsAndLinesFitTheWidth() {
        for (int width : new int[] {80, 120, 200}) {
            String text = ListingText.render(listing(), Screen.terminal(width), false);
            for (String line : text.split("\n", -1)) {
                assertThat(TextWidth.of(line)).as("%d columns: %s", width, line).isLessThanOrEqualTo(width);
            }
            assertThat(text).contains("total base median:", "1.89 ms", "+12.3%", "peak bytes base median:",
                    "199 MiB", "threshold:", "5.0%", "baseline runs:", "1.23 ms", "812 ns")
                    .doesNotContain("1.8916680000000001", "208920576", ".0 ");
            assertThat(text).contains("only in candidate (0)\n  (none)\n");
            if (width == 200) {
                assertThat(text).contains("1.51 ms", "+22.5%", "+18.1%", "-1.6%");
            }
            String row = text.lines().filter(l -> l.contains("softmax")).findFirst().orElseThrow();
            if (width < DEEP.length() + 60) {
                assertThat(row).startsWith("…/").contains("/softmax");
            }
        }
    }

    @Test
    void aNarrowTerminalLeavesColumnsOutAndSaysSo() {
        String text = ListingText.render(listing(), Screen.terminal(80), false);
        assertThat(text).contains("(--wide shows 8 more columns: self candidate median, self change,");
        assertThat(ListingText.render(listing(), Screen.terminal(80), true)).contains(DEEP, "1.51 ms")
                .doesNotContain("--wide");
    }

    @Test
    void verdictsAreColouredOnlyWhenTheScreenHasColour() {
        Screen colour = new Screen(true, 120, true);
        String text = ListingText.render(listing(), colour, false);
        assertThat(text).contains("\u001b[31mslower\u001b[0m", "\u001b[31mbigger\u001b[0m",
                "\u001b[2minconclusive\u001b[0m");
        assertThat(ListingText.render(listing(), Screen.terminal(120), false)).doesNotContain("\u001b[");
    }

    @Test
    void aHostileValueCannotBreakTheTerminalLine() {
        Listing l = new Listing(Map.of(), List.of(Listing.Grid.named("x", List.of("name"),
                List.of(List.of("evil\n\u001b[2Jname\u202e")))));
        String text = ListingText.render(l, Screen.terminal(80), false);
        assertThat(text).contains("evil\\n\\u001b[2Jname\\u202e").doesNotContain("\u001b");
    }

    @Test
    void markdownIsAListOfFactsThenGfmTables() {
        String md = ListingMarkdown.render(listing());
        Node doc = Parser.builder().extensions(List.of(TablesExtension.create())).build().parse(md);
        assertThat(doc.getFirstChild()).isInstanceOf(BulletList.class);
        assertThat(doc.getFirstChild().getNext()).isInstanceOf(Heading.class);
        assertThat(doc.getFirstChild().getNext().getNext()).isInstanceOf(TableBlock.class);
        assertThat(md).contains("| self base median |", "1.23 ms", "+22.5%", DEEP.replace("_", "\\_"))
                .doesNotContain("1.8916680000000001");
    }

    @Test
    void jsonAndCsvKeepTheirFieldsButLoseFloatArtifacts() {
        Locale before = Locale.getDefault();
        try {
            Locale.setDefault(Locale.GERMANY);
            String json = out(o -> ListingMachine.json(listing(), o));
            assertThat(json).contains("\"total_ms_base_median\": 1.891668", "\"peak_bytes_base_median\": 208920576,",
                    "\"threshold_percent\": 5,", "\"self_candidate_median_ns\": 1512000.5",
                    "\"bytes_change_percent\": null");
            assertThat(json.indexOf("\"baseline_runs\"")).isLessThan(json.indexOf("\"threshold_percent\""));
            String csv = out(o -> ListingMachine.csv(listing(), o));
            assertThat(csv).startsWith("# paths\r\npath,kind,verdict,self_base_median_ns,")
                    .contains("," + "1234567,1512000.5,22.47,18.1,25.9,", "\r\n\r\n# only_in_candidate\r\npath,kind,runs\r\n")
                    .doesNotContain("\"1,0\"", "1234567.0");
        } finally {
            Locale.setDefault(before);
        }
    }

    private interface Writing {
        void to(ByteArrayOutputStream out);
    }

    private static String out(Writing writing) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        writing.to(out);
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void unitsAreReadFromTheNames() {
        assertThat(Unit.ofName("self_time_ns")).isEqualTo(Unit.NANOSECONDS);
        assertThat(Unit.ofName("bytes_per_ns")).isEqualTo(Unit.PLAIN);
        assertThat(Unit.ofName("peak_bytes")).isEqualTo(Unit.BYTES);
        assertThat(Unit.ofName("bytes_change_percent")).isEqualTo(Unit.CHANGE_PERCENT);
        assertThat(Unit.ofName("total_ms_delta")).isEqualTo(Unit.MILLISECONDS);
        assertThat(Unit.ofName("threshold_percent")).isEqualTo(Unit.PERCENT);
        assertThat(Unit.ofName("self_ratio")).isEqualTo(Unit.RATIO);
        assertThat(Unit.ofName("path")).isEqualTo(Unit.PATH);
        assertThat(Unit.ofName("run_id")).isEqualTo(Unit.ID);
        assertThat(Unit.ofName("count")).isEqualTo(Unit.PLAIN);
        assertThat(Unit.label("self_time_ns")).isEqualTo("self time");
        assertThat(Unit.label("bytes_per_ns")).isEqualTo("bytes per ns");
        assertThat(Unit.label("total_ms_delta")).isEqualTo("total delta");
        assertThat(Unit.label("bytes_change_percent")).isEqualTo("bytes change");
        assertThat(Unit.MILLISECONDS.human(-0.5, true)).isEqualTo("-500 µs");
        assertThat(Unit.BYTES.human(1024L, true)).isEqualTo("+1 KiB");
        assertThat(Unit.PLAIN.human(3L, false)).isEqualTo("3");
        assertThat(Unit.PLAIN.human(true, false)).isEqualTo("yes");
    }
}
