package io.tracegraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** build, check and query from the command line: outputs, one-line errors and exit statuses. */
class TraceCommandsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    private static Path sample(String name) {
        Path target = dir.resolve(name);
        if (!Files.exists(target)) {
            try (InputStream in = TraceCommandsTest.class.getResourceAsStream("/conformance/" + name)) {
                Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
        return target;
    }

    @BeforeAll
    static void samplesAreOnTheTestClasspath() {
        assertThat(TraceCommandsTest.class.getResource("/conformance/synthetic.jsonl")).isNotNull();
    }

    @Test
    void buildPrintsTheGraphOfATrustedTrace() throws IOException {
        CliRun run = CliRun.of("build", sample("synthetic.jsonl").toString());

        assertThat(run.status()).isEqualTo(ExitCode.OK);
        assertThat(run.err()).isEmpty();
        JsonNode graph = JSON.readTree(run.out());
        assertThat(graph.get("schema").asText()).isEqualTo("candle-graph/graph/3");
        assertThat(graph.get("spans")).hasSize(5);
        assertThat(graph.get("summary").get("total_ms").asDouble()).isEqualTo(10.0);
    }

    @Test
    void buildWritesTheGraphToTheOutputFileAndItsDirectories() throws IOException {
        Path output = dir.resolve("nested/deeper/graph.json");

        CliRun run = CliRun.of("build", sample("train_tiny.jsonl").toString(), "-o", output.toString());

        assertThat(run.status()).isEqualTo(ExitCode.OK);
        assertThat(run.out()).isEmpty();
        assertThat(JSON.readTree(output.toFile())).isEqualTo(JSON.readTree(sample("train_tiny.graph.json").toFile()));
        try (var files = Files.list(output.getParent())) {
            assertThat(files).containsExactly(output);
        }
    }

    @Test
    void buildRejectsAnUntrustedTraceWithTheHealthMessages() {
        CliRun run = CliRun.of("build", sample("untrusted_cycle.jsonl").toString());

        assertThat(run.status()).isEqualTo(ExitCode.REJECTED);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).isEqualTo("error: trace is structurally untrusted: span `s_cyc_a1` participates in a "
                + "parent cycle; span `s_cyc_b1` participates in a parent cycle\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"malformed_wrong_type.jsonl", "malformed_int_over_i63.jsonl"})
    void buildRejectsAMalformedTraceNamingFileLineAndMember(String name) {
        Path trace = sample(name);

        CliRun run = CliRun.of("build", trace.toString());

        assertThat(run.status()).isEqualTo(ExitCode.REJECTED);
        assertThat(run.err()).startsWith("error: " + trace + ":64: member `duration_ns`: ");
        assertThat(run.err().lines()).hasSize(1);
    }

    @Test
    void buildRejectsASecondMetaRecordWithItsLine() {
        Path trace = sample("malformed_duplicate_meta.jsonl");

        CliRun run = CliRun.of("build", trace.toString());

        assertThat(run.status()).isEqualTo(ExitCode.REJECTED);
        assertThat(run.err()).isEqualTo("error: " + trace + ":64: duplicate meta record (the first is at line 1)\n");
    }

    @Test
    void aMissingFileIsAUsageErrorInOneLine() {
        // A trace named on the command line that does not exist is the user's argument at fault (issue 14).
        CliRun run = CliRun.of("build", dir.resolve("nope.jsonl").toString());

        assertThat(run.status()).isEqualTo(ExitCode.USAGE);
        assertThat(run.err()).isEqualTo("error: " + dir.resolve("nope.jsonl")
                + ": no such file (see 'tracegraph build --help')\n");
    }

    @Test
    void debugAddsTheStackTrace() throws IOException {
        Path file = Files.writeString(dir.resolve("a-file"), "x");
        CliRun run = CliRun.of("build", "--debug", sample("synthetic.jsonl").toString(), "-o",
                file.resolve("graph.json").toString());

        assertThat(run.status()).isEqualTo(ExitCode.FAILURE);
        assertThat(run.err()).contains("FileAlreadyExistsException").contains("\tat ");
    }

    @Test
    void usageErrorsExitWithTwo() {
        assertThat(CliRun.of("build").status()).isEqualTo(ExitCode.USAGE);
        assertThat(CliRun.of("frobnicate").status()).isEqualTo(ExitCode.USAGE);
        CliRun badKind = CliRun.of("query", sample("synthetic.jsonl").toString(), "--kind", "fastest");
        assertThat(badKind.status()).isEqualTo(ExitCode.USAGE);
        assertThat(badKind.err()).contains("unknown kind 'fastest'");
    }

    @Test
    void importOptionsAreCheckedBeforeAnyDatabaseIsOpened() {
        CliRun zeroJobs = CliRun.of("import", "--jobs", "0", dir.toString());
        assertThat(zeroJobs.status()).isEqualTo(ExitCode.USAGE);
        assertThat(zeroJobs.err()).contains("--jobs must be at least 1");

        CliRun badSize = CliRun.of("import", "--max-trace-size", "lots", dir.toString());
        assertThat(badSize.status()).isEqualTo(ExitCode.USAGE);
        assertThat(badSize.err()).contains("not a size: 'lots'");
    }

    @Test
    void anUnreachableDatabaseFailsInOneLineWithoutEverShowingThePassword() {
        String secret = "s3cret-Pa55word";
        Map<String, String> env = Map.of("TRACEGRAPH_DB_URL", "jdbc:postgresql://127.0.0.1:1/tracegraph",
                "TRACEGRAPH_DB_USER", "tracegraph", "TRACEGRAPH_DB_PASSWORD", secret);
        String inUrl = "jdbc:postgresql://127.0.0.1:1/tracegraph?user=tracegraph&password=" + secret;

        for (CliRun run : List.of(CliRun.with(env, dir, "runs"), CliRun.with(env, dir, "sql", "SELECT 1"),
                CliRun.with(Map.of(), dir, "import", "--db", inUrl, dir.toString()),
                CliRun.with(Map.of(), dir, "runs", "--db", inUrl))) {
            assertThat(run.status()).as(run.err()).isEqualTo(ExitCode.FAILURE);
            assertThat(run.err().lines()).hasSize(1);
            assertThat(run.err()).startsWith("error: cannot connect to PostgreSQL at 127.0.0.1:1/tracegraph as tracegraph")
                    .doesNotContain(secret);
        }
        CliRun debug = CliRun.with(Map.of(), dir, "runs", "--debug", "--db", inUrl);
        assertThat(debug.status()).isEqualTo(ExitCode.FAILURE);
        assertThat(debug.err()).contains("\tat ").doesNotContain(secret);
    }

    @Test
    void helpTeachesTheCommandsAndExitStatuses() {
        CliRun run = CliRun.of("--help");

        assertThat(run.status()).isEqualTo(ExitCode.OK);
        assertThat(run.out()).contains("build", "check", "query", "import", "db", "Exit status", "Examples");
    }

    @Test
    void checkPrintsTheHealthReport() throws IOException {
        CliRun run = CliRun.of("check", sample("synthetic.jsonl").toString());

        assertThat(run.status()).isEqualTo(ExitCode.OK);
        assertThat(JSON.readTree(run.out())).isEqualTo(JSON.readTree(sample("synthetic.health.json").toFile()));
    }

    @Test
    void checkOfAnUntrustedTracePrintsTheReportAndExitsWithOne() throws IOException {
        CliRun run = CliRun.of("check", sample("untrusted_open_span.jsonl").toString());

        assertThat(run.status()).isEqualTo(ExitCode.REJECTED);
        assertThat(JSON.readTree(run.out()))
                .isEqualTo(JSON.readTree(sample("untrusted_open_span.health.json").toFile()));
        assertThat(run.err()).isEqualTo("error: trace is structurally untrusted: span `s23` was not closed\n");
    }

    @Test
    void querySlowestAsJsonListsSpansAndOps() throws IOException {
        CliRun run = CliRun.of("query", sample("synthetic.jsonl").toString(), "--kind", "slowest", "--format",
                "json");

        assertThat(run.status()).isEqualTo(ExitCode.OK);
        JsonNode result = JSON.readTree(run.out());
        assertThat(result.get("kind").asText()).isEqualTo("slowest");
        assertThat(result.get("total_ms").asDouble()).isEqualTo(10.0);
        assertThat(result.get("slowest_spans").findValuesAsText("id")).containsExactly("root", "encoder", "head");
        assertThat(result.get("slowest_ops").findValuesAsText("id")).containsExactly("encoder/op/0", "head/op/0");
    }

    @Test
    void queryDefaultsToAnAlignedTableOnATerminal() {
        CliRun run = CliRun.onTerminal("query", sample("synthetic.jsonl").toString(), "--kind", "heaviest");

        assertThat(run.status()).isEqualTo(ExitCode.OK);
        // For a person: bytes in their units, labels in words (issue 14).
        assertThat(run.out()).contains("peak bytes:  2.31 KiB", "heaviest spans (3)", "encoder  Encoder::forward  2 KiB");
    }

    @Test
    void queryGradientsAsCsv() {
        CliRun run = CliRun.of("query", sample("synthetic.jsonl").toString(), "--kind", "gradients", "--format",
                "csv");

        assertThat(run.status()).isEqualTo(ExitCode.OK);
        assertThat(run.out()).isEqualTo("root,key,state,norm\r\nvb,encoder.weight,present,0.5\r\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"slowest", "heaviest", "memory", "efficiency", "spans", "edges", "tensors", "gradients",
        "health", "tensor-stats"})
    void everyQueryKindAnswersInEveryFormat(String kind) throws IOException {
        String trace = sample("train_tiny.jsonl").toString();
        for (String format : new String[] {"table", "csv", "json"}) {
            CliRun run = CliRun.of("query", trace, "--kind", kind, "--format", format);
            assertThat(run.status()).as(kind + " " + format).isEqualTo(ExitCode.OK);
            assertThat(run.out()).as(kind + " " + format).isNotBlank();
        }
        JsonNode json = JSON.readTree(CliRun.of("query", trace, "--kind", kind, "--format", "json").out());
        assertThat(json.get("kind").asText()).isEqualTo(kind);
    }

    @Test
    void queryEdgesListsTheGraphsEdges() throws IOException {
        CliRun run = CliRun.of("query", sample("train_tiny.jsonl").toString(), "--kind", "edges", "--format", "json");
        JsonNode expected = JSON.readTree(sample("train_tiny.graph.json").toFile()).get("edges");

        assertThat(run.status()).as(run.err()).isEqualTo(ExitCode.OK);
        JsonNode result = JSON.readTree(run.out());
        assertThat(result.get("kind").asText()).isEqualTo("edges");
        assertThat(result.get("edges")).hasSize(expected.size());
        assertThat(result.get("edges").findValuesAsText("from")).isEqualTo(expected.findValuesAsText("from"));
        assertThat(result.get("edges").findValuesAsText("to")).isEqualTo(expected.findValuesAsText("to"));
    }

    @Test
    void queryHealthGivesTrustAndCoverageOfTheTrace() throws IOException {
        CliRun run = CliRun.of("query", sample("synthetic.jsonl").toString(), "--kind", "health", "--format",
                "json");
        CliRun check = CliRun.of("check", sample("synthetic.jsonl").toString());

        assertThat(run.status()).as(run.err()).isEqualTo(ExitCode.OK);
        JsonNode result = JSON.readTree(run.out());
        JsonNode health = JSON.readTree(check.out());
        assertThat(result.get("kind").asText()).isEqualTo("health");
        assertThat(result.get("trusted").asBoolean()).isTrue();
        health.get("coverage").fields().forEachRemaining(count ->
                assertThat(result.get(count.getKey())).as(count.getKey()).isEqualTo(count.getValue()));
        assertThat(result.get("issues")).hasSize(health.get("issues").size());
    }

    @Test
    void queryMemoryMatchesTheGraphsMemoryProfile() throws IOException {
        JsonNode result = JSON.readTree(CliRun.of("query", sample("train_tiny.jsonl").toString(), "--kind",
                "memory", "--format", "json").out());
        JsonNode expected = JSON.readTree(sample("train_tiny.graph.json").toFile()).get("memory");

        assertThat(result.get("peak_bytes")).isEqualTo(expected.get("summary").get("peak_bytes"));
        assertThat(result.get("timeline")).hasSize(expected.get("timeline").size());
        assertThat(result.get("peak_breakdown").findValuesAsText("tensor_id"))
                .isEqualTo(expected.get("peak_breakdown").findValuesAsText("tensor_id"));
    }
}
