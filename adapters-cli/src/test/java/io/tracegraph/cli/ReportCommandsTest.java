package io.tracegraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tracegraph.json.ChromeTraceEvents;
import io.tracegraph.json.SyntheticTrace;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** report and export over trace files: what the pages and the Chrome trace hold, sizes, errors. */
class ReportCommandsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * Set verdicts need a rank-sum test significant after Holm's correction over every path; 5 runs a
     * side cannot get there (p is at least 1/252), 10 can (1/184,756).
     */
    private static final int RUNS_PER_SIDE = 10;

    @TempDir
    static Path dir;
    static Path train;
    static List<String> baseline = new ArrayList<>();
    static List<String> candidate = new ArrayList<>();

    @BeforeAll
    static void writeTraces() throws IOException {
        train = dir.resolve("train.jsonl");
        SyntheticTrace.training().ops(1_200).seed(7).writeTo(train);
        // Repeated runs of one program; the candidate's Mlp::forward spans take twice as long and hold more memory.
        for (int i = 0; i < RUNS_PER_SIDE; i++) {
            Path b = dir.resolve("base" + i + ".jsonl");
            Path c = dir.resolve("cand" + i + ".jsonl");
            SyntheticTrace.training().ops(1_200).seed(7).timingSeed(100 + i).runId("base-" + i).writeTo(b);
            SyntheticTrace.training().ops(1_200).seed(7).timingSeed(200 + i).runId("cand-" + i).slowSpan("Mlp::forward", 2.0)
                    .growMemory("Mlp::forward", 2).writeTo(c);
            baseline.add(b.toString());
            candidate.add(c.toString());
        }
    }

    @Test
    void reportOfATraceIsOneSelfContainedPage() throws IOException {
        Path html = dir.resolve("out/run.html");
        CliRun run = CliRun.of("report", train.toString(), "-o", html.toString());

        assertThat(run.status()).as(run.err()).isEqualTo(ExitCode.OK);
        assertThat(run.out()).contains("wrote " + html);
        ReportPage page = ReportPage.read(html);
        assertThat(page.html()).startsWith("<!DOCTYPE html>")
                .contains("Content-Security-Policy").contains("default-src 'none'")
                .doesNotContain("src=\"http").doesNotContain("href=\"http").doesNotContain("<link rel=\"stylesheet\"");
        assertThat(count(page.html(), "<script")).isEqualTo(3);
        JsonNode data = page.data();
        assertThat(data.get("type").asText()).isEqualTo("run");
        JsonNode flame = data.get("flame");
        int nodes = flame.get("nodes").asInt();
        assertThat(flame.get("parent")).hasSize(nodes);
        assertThat(flame.get("note").isNull()).as("nothing merged").isTrue();
        assertThat(flame.get("parent").get(0).asInt()).isEqualTo(-1);
        assertThat(flame.get("kind").get(0).asText()).isEqualTo("root");
        JsonNode device = data.get("memory").get("devices").get(0);
        assertThat(device.get("device").asText()).isEqualTo("cuda:0");
        assertThat(device.get("t")).hasSize(device.get("records").asInt());
        assertThat(device.get("categories").has("parameter")).isTrue();
        assertThat(data.get("memory").get("peak").get("bytes").asLong()).isEqualTo(device.get("peak_bytes").asLong());
        assertThat(page.table("slowest-ops").get("rows")).hasSize(50);
        assertThat(page.table("heaviest-spans").get("rows").size()).isPositive();
        assertThat(page.table("gradients").get("rows").size()).isPositive();
        assertThat(data.get("health").get("trusted").asBoolean()).isTrue();
    }

    @Test
    void namesInTheTraceCannotBreakOutOfTheDataScript() throws IOException {
        String evil = "</script><img src=x onerror=alert(1)><!-- & \u2028";
        String trace = Files.readString(train).replace("\"name\":\"update\"",
                "\"name\":" + JSON.writeValueAsString(evil));
        Path file = Files.writeString(dir.resolve("evil.jsonl"), trace);
        Path html = dir.resolve("evil.html");

        CliRun run = CliRun.of("report", file.toString(), "-o", html.toString());

        assertThat(run.status()).as(run.err()).isEqualTo(ExitCode.OK);
        ReportPage page = ReportPage.read(html);
        assertThat(count(page.html(), "</script>")).isEqualTo(3);
        assertThat(page.html()).doesNotContain("<img").doesNotContain("<!--");
        assertThat(page.data().get("flame").get("names").toString()).contains(JSON.writeValueAsString(evil));
    }

    @Test
    void aLargeRunIsPrunedVisiblyAndStaysSmall() throws IOException {
        Path big = dir.resolve("big.jsonl");
        SyntheticTrace.training().ops(92_000).seed(3).writeTo(big);
        Path html = dir.resolve("big.html");

        CliRun run = CliRun.of("report", big.toString(), "-o", html.toString());

        assertThat(run.status()).as(run.err()).isEqualTo(ExitCode.OK);
        assertThat(Files.size(html)).as("page size").isLessThan(3_000_000L);
        JsonNode flame = ReportPage.read(html).data().get("flame");
        assertThat(flame.get("nodes").asInt()).isGreaterThan(100_000);
        assertThat(flame.get("note").asText()).containsPattern("[0-9,]+ of [0-9,]+ spans and ops are merged into");
        long held = 0;
        int merged = 0;
        for (int i = 0; i < flame.get("count").size(); i++) {
            held += flame.get("count").get(i).asLong();
            merged += flame.get("kind").get(i).asText().equals("merged") ? 1 : 0;
        }
        assertThat(held).as("every node is in exactly one box").isEqualTo(flame.get("nodes").asLong());
        assertThat(flame.get("count").size() - merged).isEqualTo(5_000);
        JsonNode device = ReportPage.read(html).data().get("memory").get("devices").get(0);
        assertThat(device.get("points").asInt()).isLessThanOrEqualTo(4_000).isLessThan(device.get("records").asInt());
        assertThat(ReportPage.read(html).data().get("memory").get("note").asText()).contains("drawn as");
    }

    @Test
    void aHundredThousandDeepChainIsDrawnToItsBudget() throws IOException {
        Path deep = dir.resolve("deep.jsonl");
        SyntheticTrace.deepChain(100_000).writeTo(deep);
        Path html = dir.resolve("deep.html");

        CliRun run = CliRun.of("report", deep.toString(), "-o", html.toString(), "--max-nodes", "2000");

        assertThat(run.status()).as(run.err()).isEqualTo(ExitCode.OK);
        JsonNode flame = ReportPage.read(html).data().get("flame");
        assertThat(flame.get("parent")).hasSize(2_001);
        assertThat(flame.get("note").asText()).contains("merged");
        assertThat(Files.size(html)).isLessThan(1_000_000L);
    }

    @Test
    void comparisonOfTwoRunsFindsTheSlowerOp() throws IOException {
        Path html = dir.resolve("diff.html");

        CliRun run = CliRun.of("report", "--compare", baseline.get(0), candidate.get(0), "-o", html.toString());

        assertThat(run.status()).as(run.err()).isEqualTo(ExitCode.OK);
        JsonNode data = ReportPage.read(html).data();
        assertThat(data.get("mode").asText()).isEqualTo("runs");
        JsonNode flame = data.get("flame");
        assertThat(flame.get("presence").toString()).doesNotContain("added").doesNotContain("removed");
        JsonNode top = data.get("bars").get(0);
        assertThat(top.get("change").asDouble()).isPositive();
        assertThat(top.get("path").asText()).endsWith("/Mlp::forward");
        assertThat(top.has("lo")).as("single runs have no interval").isFalse();
        List<String> slowerLeaves = new ArrayList<>();
        data.get("bars").forEach(b -> {
            if (b.get("change").asDouble() > 0.5) {
                slowerLeaves.add(b.get("path").asText().replaceAll(".*/", ""));
            }
        });
        assertThat(slowerLeaves).contains("Mlp::forward");
        assertThat(data.get("memory").get("base").get("devices")).hasSize(1);
        assertThat(data.get("memory").get("candidate").get("devices")).hasSize(1);
    }

    @Test
    void comparisonOfSetsOfTracesHasConfidenceIntervalsAndVerdicts() throws IOException {
        Path html = dir.resolve("sets.html");

        CliRun run = CliRun.of("report", "--compare", String.join(",", baseline), String.join(",", candidate),
                "-o", html.toString());

        assertThat(run.status()).as(run.err()).isEqualTo(ExitCode.OK);
        JsonNode data = ReportPage.read(html).data();
        assertThat(data.get("mode").asText()).isEqualTo("groups");
        Map<String, JsonNode> bars = new HashMap<>();
        data.get("bars").forEach(b -> bars.putIfAbsent(b.get("path").asText(), b));
        List<JsonNode> mlp = bars.entrySet().stream().filter(e -> e.getKey().endsWith("/Mlp::forward"))
                .map(Map.Entry::getValue).toList();
        assertThat(mlp).isNotEmpty().allSatisfy(b -> {
            assertThat(b.get("verdict").asText()).isEqualTo("slower");
            assertThat(b.get("lo").asDouble()).isPositive().isLessThanOrEqualTo(b.get("change").asDouble());
            assertThat(b.get("hi").asDouble()).isGreaterThanOrEqualTo(b.get("change").asDouble());
        });
        JsonNode flame = data.get("flame");
        assertThat(flame.get("verdict").toString()).contains("slower");
        assertThat(ReportPage.read(html).table("paths").get("rows").size()).isPositive();
        String facts = data.get("facts").toString();
        assertThat(facts).contains("\"baseline runs\"").contains("base0.jsonl").contains("cand0.jsonl");
        // One vocabulary (issue 14): the memory peak is bigger or smaller, never slower or faster.
        Map<String, String> byLabel = new HashMap<>();
        data.get("facts").forEach(f -> byLabel.put(f.get("label").asText(), f.get("value").asText()));
        assertThat(byLabel.get("memory peak, verdict")).as("the candidate's workspace grows").isEqualTo("bigger");
        assertThat(byLabel.get("measured total, verdict")).isIn("slower", "faster", "unchanged", "inconclusive");
    }

    @Test
    void exportWritesChromeTraceEventsThatKeepTheSpanTree() throws IOException {
        Path out = dir.resolve("train.trace.json");

        CliRun run = CliRun.of("export", train.toString(), "--format", "chrome", "-o", out.toString());

        assertThat(run.status()).as(run.err()).isEqualTo(ExitCode.OK);
        ChromeTraceEvents events = ChromeTraceEvents.parse(Files.readAllBytes(out));
        JsonNode graph = JSON.readTree(CliRun.of("build", train.toString()).out());
        assertThat(events.assertWellFormed()).isEqualTo(graph.get("spans").size());
        Map<String, String> parents = new HashMap<>();
        events.events("X").forEach(e -> parents.put(e.get("args").get("id").asText(),
                e.get("args").path("parent_id").asText(null)));
        Map<String, String> expected = new HashMap<>();
        graph.get("spans").forEach(n -> expected.put(n.get("id").asText(), n.path("parent_id").asText(null)));
        assertThat(parents).isEqualTo(expected);
        assertThat(events.events("C")).isNotEmpty();

        CliRun toStdout = CliRun.of("export", train.toString());
        assertThat(toStdout.status()).isEqualTo(ExitCode.OK);
        assertThat(toStdout.out().getBytes(StandardCharsets.UTF_8)).isEqualTo(Files.readAllBytes(out));
    }

    @Test
    void usageErrorsSayWhatIsWrong() {
        CliRun noOutput = CliRun.of("report", train.toString());
        assertThat(noOutput.status()).isEqualTo(ExitCode.USAGE);
        assertThat(noOutput.err()).contains("--output");

        CliRun oneSide = CliRun.of("report", "--compare", train.toString(), "-o", dir.resolve("x.html").toString());
        assertThat(oneSide.status()).isEqualTo(ExitCode.USAGE);
        assertThat(oneSide.err()).contains("--compare needs BASE and CAND");

        CliRun twoRuns = CliRun.of("report", train.toString(), train.toString(), "-o", dir.resolve("x.html").toString());
        assertThat(twoRuns.status()).isEqualTo(ExitCode.USAGE);

        CliRun format = CliRun.of("export", train.toString(), "--format", "perfetto");
        assertThat(format.status()).isEqualTo(ExitCode.USAGE);
        assertThat(format.err()).contains("unknown export format 'perfetto' (expected chrome)");
    }

    @Test
    void aRejectedOrMissingTraceIsOneLineAndWritesNothing() throws IOException {
        Path bad = Files.writeString(dir.resolve("bad.jsonl"), "{\"kind\":\"meta\"}\n");
        Path html = dir.resolve("rejected/report.html");

        CliRun rejected = CliRun.of("report", bad.toString(), "-o", html.toString());
        assertThat(rejected.status()).isEqualTo(ExitCode.REJECTED);
        assertThat(rejected.err()).startsWith("error: " + bad).endsWith("\n").hasLineCount(1);
        assertThat(html).doesNotExist();

        // A missing trace is a usage error named as such (issue 14), found before anything is read.
        CliRun missing = CliRun.of("export", dir.resolve("nope.jsonl").toString());
        assertThat(missing.status()).isEqualTo(ExitCode.USAGE);
        assertThat(missing.err()).isEqualTo("error: RUN: " + dir.resolve("nope.jsonl")
                + ": no such file (see 'tracegraph export --help')\n");
    }

    @Test
    void aFailedWriteLeavesNoPartialFile() throws IOException {
        Path occupied = Files.createDirectories(dir.resolve("occupied/report.html"));
        Files.writeString(occupied.resolve("keep"), "x");

        CliRun run = CliRun.of("report", train.toString(), "-o", occupied.toString());

        assertThat(run.status()).isEqualTo(ExitCode.FAILURE);
        assertThat(run.err()).startsWith("error: " + occupied).hasLineCount(1);
        try (Stream<Path> files = Files.list(occupied.getParent())) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("report.html");
        }
    }

    @Test
    void helpTeachesTheNewCommands() {
        CliRun report = CliRun.of("report", "--help");
        assertThat(report.status()).isEqualTo(ExitCode.OK);
        assertThat(report.out()).contains("--compare", "--max-nodes", "--output", "Examples:",
                "tracegraph report --compare latest~1 latest -o diff.html");
        CliRun export = CliRun.of("export", "--help");
        assertThat(export.out()).contains("Perfetto", "--format", "Examples:", "tracegraph export");
        assertThat(CliRun.of("--help").out()).contains("report", "export");
    }

    private static int count(String text, String what) {
        Matcher m = Pattern.compile(Pattern.quote(what)).matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }
}
