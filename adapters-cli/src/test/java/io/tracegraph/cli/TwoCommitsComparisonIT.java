package io.tracegraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tracegraph.json.SyntheticTrace;
import io.tracegraph.postgres.DatabaseConfig;
import io.tracegraph.postgres.PostgresExtension;
import java.io.OutputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scenario group comparison exists for, end to end through {@code import} and {@code compare}:
 * one archive with ten runs of a model at commit {@code aaa} and ten more at {@code aaa}, and a
 * directory of ten runs at commit {@code bbb} (imported with {@code --tag commit=bbb}), where one
 * span is slower and a workspace makes the memory peak bigger; every run has its own timing noise.
 */
@ExtendWith(PostgresExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TwoCommitsComparisonIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long MODEL = 42;
    private static final String SLOWED_NAME = "cross_entropy";

    private final Map<String, String> env;

    @TempDir
    static Path dir;

    TwoCommitsComparisonIT(DatabaseConfig db) {
        this.env = Map.of("TRACEGRAPH_DB_URL", db.jdbcUrl(), "TRACEGRAPH_DB_USER", db.user(),
                "TRACEGRAPH_DB_PASSWORD", db.password());
    }

    /** The base commit's traces carry their commit as a tag; the candidate's get it from import --tag. */
    @BeforeAll
    void importTwentyRunsInAnArchiveAndTenFromADirectory() throws Exception {
        Path archive = dir.resolve("base-commit.zip");
        try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(archive))) {
            for (int i = 0; i < 10; i++) {
                add(zip, "aaa/run" + i + ".jsonl", model("a" + i, 100 + i).tag("commit", "aaa"));
                add(zip, "aaa-again/run" + i + ".jsonl", model("c" + i, 300 + i).tag("commit", "aaa")
                        .tag("batch", "again"));
            }
        }
        Path candidate = Files.createDirectories(dir.resolve("bbb"));
        for (int i = 0; i < 10; i++) {
            model("b" + i, 200 + i).slowSpan(SLOWED_NAME, 2.0).growMemory(SLOWED_NAME, 2)
                    .writeTo(candidate.resolve("run" + i + ".jsonl"));
        }
        CliRun base = CliRun.with(env, dir, "import", archive.toString(), "--format", "json");
        assertThat(base.status()).as(base.err()).isEqualTo(ExitCode.OK);
        assertThat(JSON.readTree(base.out()).get("imported").asLong()).isEqualTo(20);
        CliRun cand = CliRun.with(env, dir, "import", candidate.toString(), "--tag", "commit=bbb", "--format", "json");
        assertThat(cand.status()).as(cand.err()).isEqualTo(ExitCode.OK);
        assertThat(JSON.readTree(cand.out()).get("imported").asLong()).isEqualTo(10);
        JsonNode tagged = JSON.readTree(CliRun.with(env, dir, "runs", "--tag", "commit=bbb", "--format", "json").out());
        assertThat(tagged.get("runs").findValuesAsText("run_id")).hasSize(10).allMatch(id -> id.startsWith("b"));
    }

    private static SyntheticTrace model(String runId, long timingSeed) {
        return SyntheticTrace.training().ops(1500).seed(MODEL).timingSeed(timingSeed).runId(runId);
    }

    private static void add(ZipOutputStream zip, String name, SyntheticTrace trace) throws Exception {
        StringWriter text = new StringWriter();
        trace.writeTo(text);
        zip.putNextEntry(new ZipEntry(name));
        zip.write(text.toString().getBytes(StandardCharsets.UTF_8));
        zip.closeEntry();
    }

    @Test
    void callsTheSlowedSpanAndOnlyItsAncestorsSlowerAndReportsTheMemoryGrowth() throws Exception {
        CliRun run = compare("tag:commit=aaa", "tag:commit=bbb");
        assertThat(run.status()).as(run.err()).isEqualTo(ExitCode.OK);
        JsonNode result = JSON.readTree(run.out());

        List<String> slower = pathsWith(result, "slower");
        String slowed = slower.stream().filter(p -> p.endsWith("/" + SLOWED_NAME)).findFirst().orElseThrow(
                () -> new AssertionError("the slowed span is not called slower: " + result.get("paths")));
        assertThat(slower).as("only the slowed span and its ancestors").allSatisfy(
                p -> assertThat(slowed.equals(p) || slowed.startsWith(p + "/")).as(p).isTrue());
        assertThat(pathsWith(result, "faster")).isEmpty();
        assertThat(result.get("paths").get(0).get("path").asText()).as("the regression is listed first")
                .isEqualTo(slowed);
        assertThat(result.get("peak_bytes_verdict").asText()).isEqualTo("bigger");
        assertThat(result.get("peak_bytes_change_percent").asDouble()).isPositive();
        // The slowed span is about 1% of the update: the run as a whole did not change enough to matter.
        assertThat(result.get("total_ms_verdict").asText()).isIn("unchanged", "inconclusive");
    }

    @Test
    void failsTheGateOnTheRegressionButNotOnTwoBatchesOfTheBaseline() throws Exception {
        assertThat(compare("tag:commit=aaa", "tag:commit=bbb", "--fail-on-regression", "10").status())
                .isEqualTo(ExitCode.REJECTED);

        CliRun same = compare("tag:batch=again", "a0,a1,a2,a3,a4,a5,a6,a7,a8,a9", "--fail-on-regression", "10");
        assertThat(same.status()).as(same.err()).isEqualTo(ExitCode.OK);
        JsonNode result = JSON.readTree(same.out());
        assertThat(result.get("baseline_runs").asInt()).isEqualTo(10);
        assertThat(result.get("candidate_runs").asInt()).isEqualTo(10);
        assertThat(pathsWith(result, "slower")).isEmpty();
        assertThat(pathsWith(result, "faster")).isEmpty();
    }

    private CliRun compare(String baseline, String candidate, String... more) {
        List<String> args = new ArrayList<>(List.of("compare", "--baseline", baseline, "--candidate", candidate,
                "--limit", "0", "--format", "json"));
        args.addAll(List.of(more));
        return CliRun.with(env, dir, args.toArray(String[]::new));
    }

    private static List<String> pathsWith(JsonNode result, String verdict) {
        List<String> paths = new ArrayList<>();
        for (JsonNode row : result.get("paths")) {
            if (row.get("verdict").asText().equals(verdict)) {
                paths.add(row.get("path").asText());
            }
        }
        return paths;
    }
}
