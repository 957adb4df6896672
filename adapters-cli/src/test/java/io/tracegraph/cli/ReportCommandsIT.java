package io.tracegraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tracegraph.json.ChromeTraceEvents;
import io.tracegraph.json.SyntheticTrace;
import io.tracegraph.postgres.DatabaseConfig;
import io.tracegraph.postgres.PostgresExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** report and export of stored runs, against a real PostgreSQL: the store gives what the file gives. */
@ExtendWith(PostgresExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReportCommandsIT {
    private final Map<String, String> env;

    /** Set verdicts need a rank-sum test confirmed across every path: 10 runs a side can be. */
    private static final int RUNS_PER_SIDE = 10;

    @TempDir
    static Path dir;
    static Path traces;

    ReportCommandsIT(DatabaseConfig db) {
        this.env = Map.of("TRACEGRAPH_DB_URL", db.jdbcUrl(), "TRACEGRAPH_DB_USER", db.user(),
                "TRACEGRAPH_DB_PASSWORD", db.password());
    }

    @BeforeAll
    void storeTenRunsOfTwoCommits() throws Exception {
        traces = Files.createDirectories(dir.resolve("traces"));
        for (int i = 0; i < RUNS_PER_SIDE; i++) {
            SyntheticTrace.training().ops(900).seed(21).timingSeed(300 + i).runId("old-" + i).tag("commit", "old")
                    .writeTo(traces.resolve("old" + i + ".jsonl"));
            SyntheticTrace.training().ops(900).seed(21).timingSeed(400 + i).runId("new-" + i).tag("commit", "new")
                    .slowSpan("Mlp::forward", 2.5).writeTo(traces.resolve("new" + i + ".jsonl"));
        }
        CliRun run = CliRun.with(env, dir, "import", traces.toString(), "--format", "json");
        assertThat(run.status()).as(run.err()).isEqualTo(ExitCode.OK);
    }

    @Test
    void reportOfAStoredRunShowsWhatItsTraceFileShows() throws Exception {
        Path stored = dir.resolve("stored.html");
        Path file = dir.resolve("file.html");
        assertThat(CliRun.with(env, dir, "report", "old-1", "-o", stored.toString()).status()).isEqualTo(ExitCode.OK);
        assertThat(CliRun.of("report", traces.resolve("old1.jsonl").toString(), "-o", file.toString()).status())
                .isEqualTo(ExitCode.OK);

        JsonNode fromStore = ReportPage.read(stored).data();
        JsonNode fromFile = ReportPage.read(file).data();
        assertThat(fromStore.get("title").asText()).isEqualTo("old-1");
        assertThat(fromStore.get("facts").toString()).contains("\"run\"").contains("commit=old")
                .contains("imported from");
        assertThat(fromStore.get("flame")).isEqualTo(fromFile.get("flame"));
        assertThat(fromStore.get("memory")).as("the stored memory timeline").isEqualTo(fromFile.get("memory"));
        assertThat(fromStore.get("tables")).isEqualTo(fromFile.get("tables"));
        assertThat(fromStore.get("health")).isEqualTo(fromFile.get("health"));
    }

    @Test
    void reportComparesTaggedSetsOfStoredRuns() throws Exception {
        Path html = dir.resolve("sets.html");

        CliRun run = CliRun.with(env, dir, "report", "--compare", "tag:commit=old", "tag:commit=new", "-o",
                html.toString());

        assertThat(run.status()).as(run.err()).isEqualTo(ExitCode.OK);
        JsonNode data = ReportPage.read(html).data();
        assertThat(data.get("mode").asText()).isEqualTo("groups");
        assertThat(data.get("title").asText()).isEqualTo("tag:commit=old vs tag:commit=new");
        assertThat(data.get("memory").get("base").get("label").asText()).startsWith("old-");
        assertThat(data.get("memory").get("candidate").get("label").asText()).startsWith("new-");
        JsonNode top = data.get("bars").get(0);
        assertThat(top.get("path").asText()).endsWith("/Mlp::forward");
        assertThat(top.get("verdict").asText()).isEqualTo("slower");
        List<String> runs = new ArrayList<>();
        ReportPage.read(html).table("runs").get("rows").forEach(r -> runs.add(r.get(1).asText()));
        assertThat(runs).hasSize(2 * RUNS_PER_SIDE).contains("old-0", "old-9", "new-0", "new-9");
    }

    @Test
    void reportComparesTwoStoredRunsByReference() throws Exception {
        Path html = dir.resolve("two.html");

        CliRun run = CliRun.with(env, dir, "report", "--compare", "old-0", "new-0", "-o", html.toString());

        assertThat(run.status()).as(run.err()).isEqualTo(ExitCode.OK);
        JsonNode data = ReportPage.read(html).data();
        assertThat(data.get("mode").asText()).isEqualTo("runs");
        assertThat(data.get("bars").get(0).get("path").asText()).endsWith("/Mlp::forward");
    }

    @Test
    void exportOfAStoredRunHasTheEventsOfItsTraceFile() throws Exception {
        Path stored = dir.resolve("stored.trace.json");
        Path file = dir.resolve("file.trace.json");
        assertThat(CliRun.with(env, dir, "export", "new-2", "-o", stored.toString()).status()).isEqualTo(ExitCode.OK);
        assertThat(CliRun.of("export", traces.resolve("new2.jsonl").toString(), "-o", file.toString()).status())
                .isEqualTo(ExitCode.OK);

        ChromeTraceEvents fromStore = ChromeTraceEvents.parse(Files.readAllBytes(stored));
        ChromeTraceEvents fromFile = ChromeTraceEvents.parse(Files.readAllBytes(file));
        fromStore.assertWellFormed();
        assertThat(fromStore.events("X")).isEqualTo(fromFile.events("X"));
        assertThat(fromStore.events("C")).isEqualTo(fromFile.events("C"));
        assertThat(fromStore.events("M").get(0).get("args").get("name").asText()).isEqualTo("new-2");
    }

    @Test
    void aRunThatIsNotStoredIsRejectedInOneLine() {
        CliRun run = CliRun.with(env, dir, "report", "no-such-run", "-o", dir.resolve("x.html").toString());

        assertThat(run.status()).isEqualTo(ExitCode.REJECTED);
        assertThat(run.err()).startsWith("error: ").contains("no-such-run").hasLineCount(1);
        assertThat(dir.resolve("x.html")).doesNotExist();
    }
}
