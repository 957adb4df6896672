package io.tracegraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tracegraph.json.SyntheticTrace;
import io.tracegraph.postgres.DatabaseConfig;
import io.tracegraph.postgres.PostgresExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A failed capture (candle-graph trace/7+ terminal outcome {@code failed}) through the CLI: {@code
 * import} stores it as a failed run (exit 0, "stored as failed run: REASON"), {@code runs} and
 * {@code show} give its outcome, set comparisons (also {@code report --compare}) and {@code history}
 * leave it out and say so, and a
 * two-run comparison that names it is refused naming it.
 */
@ExtendWith(PostgresExtension.class)
class FailedCaptureCommandIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String REASON = "CUDA out of memory";
    private static final String FORWARD = "tinygpt::train::update/update/Model::forward";

    private final DatabaseConfig db;
    private final Map<String, String> env;

    @TempDir
    Path dir;

    FailedCaptureCommandIT(DatabaseConfig db) {
        this.db = db;
        this.env = Map.of("TRACEGRAPH_DB_URL", db.jdbcUrl(), "TRACEGRAPH_DB_USER", db.user(),
                "TRACEGRAPH_DB_PASSWORD", db.password());
    }

    @BeforeEach
    void emptyStore() throws Exception {
        new StoreProbe(db).empty();
    }

    @Test
    void aFailedCaptureIsStoredAsAFailedRunAndLeftOutOfComparisonsAndHistory() throws Exception {
        Path traces = Files.createDirectories(dir.resolve("traces"));
        for (int i = 0; i < 3; i++) {
            write(traces, "base-" + i, SyntheticTrace.training().ops(200).seed(7).schema(10).timingSeed(100 + i)
                    .runId("base-" + i).tag("commit", "base"));
            write(traces, "cand-" + i, SyntheticTrace.training().ops(200).seed(7).schema(10).timingSeed(200 + i)
                    .runId("cand-" + i).tag("commit", "cand"));
        }
        write(traces, "cand-failed", SyntheticTrace.training().ops(200).seed(7).schema(10).timingSeed(300)
                .runId("cand-failed").tag("commit", "cand").failed(REASON));

        CliRun imported = cli("import", traces.toString(), "--jobs", "1", "--format", "table");
        assertThat(imported.status()).as(imported.err()).isEqualTo(ExitCode.OK);
        assertThat(imported.out()).contains("failed_runs:").contains("stored as failed run: " + REASON)
                .contains("cand-failed");
        CliRun again = cli("import", traces.toString(), "--format", "json");
        assertThat(again.status()).as(again.err()).isEqualTo(ExitCode.OK);
        JsonNode summary = JSON.readTree(again.out());
        assertThat(summary.get("duplicates_skipped").asLong()).isEqualTo(7);
        assertThat(summary.get("failed_runs").asLong()).isZero();

        // runs: the outcome in every format.
        JsonNode runs = JSON.readTree(cli("runs", "--format", "json").out());
        Map<String, JsonNode> byRun = new java.util.HashMap<>();
        rows(runs, "runs").forEach(r -> byRun.put(r.get("run_id").asText(), r));
        assertThat(byRun).hasSize(7);
        assertThat(byRun.get("cand-failed").get("outcome").asText()).isEqualTo("failed");
        assertThat(byRun.get("cand-failed").get("outcome_reason").asText()).isEqualTo(REASON);
        assertThat(byRun.get("base-0").get("outcome").asText()).isEqualTo("complete");
        String csv = cli("runs", "--format", "csv").out();
        assertThat(csv.lines().findFirst().orElseThrow()).contains("outcome");
        assertThat(csv).contains("failed," + REASON);
        assertThat(cli("runs").out()).contains("failed");
        assertThat(cli("runs", "--format", "markdown").out()).contains("| failed |");

        JsonNode show = JSON.readTree(cli("show", "cand-failed", "--format", "json").out());
        assertThat(show.get("outcome").asText()).isEqualTo("failed");
        assertThat(show.get("outcome_reason").asText()).isEqualTo(REASON);
        assertThat(JSON.readTree(cli("show", "cand-0", "--format", "json").out()).has("outcome")).isFalse();

        // A set comparison leaves the failed run out and says so.
        CliRun sets = cli("compare", "--baseline", "tag:commit=base", "--candidate", "tag:commit=cand",
                "--format", "json");
        assertThat(sets.status()).as(sets.err()).isEqualTo(ExitCode.OK);
        assertThat(sets.err()).contains("1 failed run left out: cand-failed");
        JsonNode compared = JSON.readTree(sets.out());
        assertThat(compared.get("candidate_runs").asLong()).isEqualTo(3);
        assertThat(compared.get("failed_runs_left_out").asText()).isEqualTo("cand-failed");
        CliRun text = cli("compare", "--baseline", "tag:commit=base", "--candidate", "tag:commit=cand");
        assertThat(text.status()).as(text.err()).isEqualTo(ExitCode.OK);
        assertThat(text.err()).contains("1 failed run left out: cand-failed");
        CliRun onlyFailed = cli("compare", "--baseline", "tag:commit=base", "--candidate", "cand-failed,");
        assertThat(onlyFailed.status()).as(onlyFailed.err()).isEqualTo(ExitCode.REJECTED);
        assertThat(onlyFailed.err()).contains("names only failed runs: cand-failed");

        // report --compare of sets likewise.
        CliRun report = cli("report", "--compare", "tag:commit=base", "tag:commit=cand", "-o",
                dir.resolve("sets.html").toString());
        assertThat(report.status()).as(report.err()).isEqualTo(ExitCode.OK);
        assertThat(report.err()).contains("1 failed run left out: cand-failed");
        assertThat(Files.readString(dir.resolve("sets.html"))).doesNotContain("cand-failed");
        CliRun reportOnlyFailed = cli("report", "--compare", "tag:commit=base", "cand-failed,", "-o",
                dir.resolve("failed.html").toString());
        assertThat(reportOnlyFailed.status()).as(reportOnlyFailed.err()).isEqualTo(ExitCode.REJECTED);
        assertThat(reportOnlyFailed.err().strip()).doesNotContain("\n").contains("names only failed runs: cand-failed");

        // history likewise.
        CliRun history = cli("history", FORWARD, "--format", "json");
        assertThat(history.status()).as(history.err()).isEqualTo(ExitCode.OK);
        assertThat(history.err()).contains("1 failed run left out: cand-failed");
        JsonNode points = JSON.readTree(history.out());
        assertThat(points.get("runs").asLong()).isEqualTo(6);
        assertThat(rows(points, "history")).extracting(r -> r.get("run_id").asText()).doesNotContain("cand-failed");

        // Named on its own in a two-run comparison: refused, naming it.
        for (List<String> args : List.of(List.of("base-0", "cand-failed"), List.of("cand-failed", "base-0"))) {
            List<String> command = new ArrayList<>(List.of("compare"));
            command.addAll(args);
            CliRun refused = cli(command.toArray(new String[0]));
            assertThat(refused.status()).as(refused.out()).isEqualTo(ExitCode.REJECTED);
            assertThat(refused.err().strip()).doesNotContain("\n").contains("cand-failed").contains("failed capture")
                    .contains(REASON);
        }
        assertThat(cli("compare", "base-0", "cand-0").status()).isEqualTo(ExitCode.OK);

        // latest and latest~N count complete runs: the newest, failed, run is passed over and named.
        CliRun latest = cli("compare", "latest~1", "latest", "--format", "json");
        assertThat(latest.status()).as(latest.err()).isEqualTo(ExitCode.OK);
        assertThat(latest.err()).contains("1 failed run left out: cand-failed");
        JsonNode pair = JSON.readTree(latest.out());
        assertThat(pair.get("candidate").asText()).isNotEqualTo("cand-failed");
        assertThat(pair.get("base").asText()).isNotEqualTo("cand-failed");
        assertThat(pair.get("failed_runs_left_out").asText()).isEqualTo("cand-failed");
        CliRun tooFar = cli("compare", "latest~6", "latest");
        assertThat(tooFar.status()).isEqualTo(ExitCode.REJECTED);
        assertThat(tooFar.err()).contains("`latest~6` names no run: 6 complete runs are stored (and 1 failed)");
    }

    /** The rows of the table {@code name} of a JSON report (an array of objects). */
    private static List<JsonNode> rows(JsonNode report, String name) {
        JsonNode table = report.get(name);
        assertThat(table).as(name + " in " + report).isNotNull();
        List<JsonNode> rows = new ArrayList<>();
        table.forEach(rows::add);
        return rows;
    }

    private static void write(Path dir, String name, SyntheticTrace trace) throws Exception {
        trace.writeTo(dir.resolve(name + ".jsonl"));
    }

    private CliRun cli(String... args) {
        return CliRun.with(env, dir, args);
    }
}
