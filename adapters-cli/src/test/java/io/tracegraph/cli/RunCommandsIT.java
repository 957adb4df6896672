package io.tracegraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tracegraph.application.QueryKind;
import io.tracegraph.json.SyntheticTrace;
import io.tracegraph.postgres.DatabaseConfig;
import io.tracegraph.postgres.PostgresExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** runs, show, compare, history and sql against stored runs in a real PostgreSQL. */
@ExtendWith(PostgresExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RunCommandsIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final DatabaseConfig db;
    private final Map<String, String> env;

    @TempDir
    static Path dir;

    RunCommandsIT(DatabaseConfig db) {
        this.db = db;
        this.env = Map.of("TRACEGRAPH_DB_URL", db.jdbcUrl(), "TRACEGRAPH_DB_USER", db.user(),
                "TRACEGRAPH_DB_PASSWORD", db.password());
    }

    @BeforeAll
    void storeSixRunsOfTwoCommits() throws Exception {
        Path traces = Files.createDirectories(dir.resolve("traces"));
        for (int i = 0; i < 6; i++) {
            SyntheticTrace.training().ops(400).seed(500 + i).runId("run-" + (i < 3 ? "a" : "b") + i)
                    .tag("commit", i < 3 ? "aaa" : "bbb").writeTo(traces.resolve("t" + i + ".jsonl"));
        }
        CliRun run = CliRun.with(env, dir, "import", traces.toString(), "--format", "json");
        assertThat(run.status()).as(run.err()).isEqualTo(ExitCode.OK);
    }

    @Test
    void runsListsNewestFirstWithFilters() throws Exception {
        JsonNode all = json("runs");
        assertThat(all.get("runs")).hasSize(6);
        JsonNode tagged = json("runs", "--tag", "commit=aaa");
        assertThat(tagged.get("runs").findValuesAsText("run_id")).containsExactlyInAnyOrder("run-a0", "run-a1", "run-a2");
        assertThat(json("runs", "--limit", "2").get("runs")).hasSize(2);
        assertThat(CliRun.with(env, dir, "runs", "--limit", "0").status()).isEqualTo(ExitCode.USAGE);
    }

    @Test
    void showSummarisesARunByPrefixOrLatest() throws Exception {
        JsonNode shown = json("show", "run-b4");
        assertThat(shown.get("run_id").asText()).isEqualTo("run-b4");
        assertThat(shown.get("slowest_spans").size()).isBetween(1, 8);
        assertThat(json("show", "latest").get("run_id").asText()).startsWith("run-");

        CliRun ambiguous = CliRun.with(env, dir, "show", "run-");
        assertThat(ambiguous.status()).isEqualTo(ExitCode.REJECTED);
        assertThat(ambiguous.err()).contains("ambiguous");
    }

    @Test
    void compareOfTwoRunsMatchesHandWrittenSqlOverTheStoredNodes() throws Exception {
        JsonNode comparison = json("compare", "run-a0", "run-b3", "--limit", "0");
        Map<String, long[]> sql = new HashMap<>();
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT n.path, "
                        + "sum(n.self_time_ns) FILTER (WHERE r.run_id = 'run-a0'), "
                        + "sum(n.self_time_ns) FILTER (WHERE r.run_id = 'run-b3'), "
                        + "sum(n.bytes) FILTER (WHERE r.run_id = 'run-a0'), "
                        + "sum(n.bytes) FILTER (WHERE r.run_id = 'run-b3') "
                        + "FROM nodes n JOIN runs r USING (run_key) WHERE r.run_id IN ('run-a0', 'run-b3') "
                        + "GROUP BY n.path HAVING count(DISTINCT r.run_id) = 2")) {
            while (rs.next()) {
                sql.put(rs.getString(1), new long[] {rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5)});
            }
        }
        assertThat(comparison.get("paths")).hasSize(sql.size());
        for (JsonNode row : comparison.get("paths")) {
            long[] expected = sql.get(row.get("path").asText());
            assertThat(expected).as(row.get("path").asText()).isNotNull();
            assertThat(row.get("self_base_ns").asLong()).isEqualTo(expected[0]);
            assertThat(row.get("self_candidate_ns").asLong()).isEqualTo(expected[1]);
            assertThat(row.get("self_delta_ns").asLong()).isEqualTo(expected[1] - expected[0]);
            assertThat(row.get("bytes_base").asLong()).isEqualTo(expected[2]);
            assertThat(row.get("bytes_candidate").asLong()).isEqualTo(expected[3]);
        }
    }

    @Test
    void groupComparisonOfACommitWithItselfFindsNoRegression() throws Exception {
        CliRun same = CliRun.with(env, dir, "compare", "--baseline", "tag:commit=aaa", "--candidate",
                "tag:commit=aaa", "--fail-on-regression", "5", "--format", "json");

        assertThat(same.status()).as(same.err()).isEqualTo(ExitCode.OK);
        JsonNode result = JSON.readTree(same.out());
        assertThat(result.get("baseline_runs").asInt()).isEqualTo(3);
        assertThat(result.get("paths").findValuesAsText("verdict")).doesNotContain("slower", "faster");
    }

    @Test
    void compareWorksOnTraceFilesWithoutADatabase() throws Exception {
        Path a = dir.resolve("traces/t0.jsonl");
        Path b = dir.resolve("traces/t1.jsonl");

        CliRun run = CliRun.of("compare", a.toString(), b.toString(), "--format", "json");

        assertThat(run.status()).as(run.err()).isEqualTo(ExitCode.OK);
        assertThat(JSON.readTree(run.out()).get("base").asText()).isEqualTo(a.toString());
    }

    @Test
    void queryOfAStoredRunAnswersEveryKindAsOnItsTraceFile() throws Exception {
        String trace = dir.resolve("traces/t1.jsonl").toString();
        for (QueryKind kind : QueryKind.values()) {
            String k = kind.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
            CliRun file = CliRun.of("query", trace, "--kind", k, "--format", "json");
            assertThat(file.status()).as(k + ": " + file.err()).isEqualTo(ExitCode.OK);

            assertThat(json("query", "run-a1", "--kind", k)).as(k).isEqualTo(JSON.readTree(file.out()));
        }
        JsonNode memory = json("query", "run-a1", "--kind", "memory");
        assertThat(memory.get("timeline").size()).isPositive();
        assertThat(memory.get("peak_breakdown").size()).isPositive();
        assertThat(json("query", "run-a1", "--kind", "spans").get("spans").size()).isGreaterThan(400);
    }

    @Test
    void queryResolvesRunReferencesAndRejectsUnknownOnes() throws Exception {
        assertThat(json("query", "latest", "--kind", "health").get("trusted").asBoolean()).isTrue();

        CliRun ambiguous = CliRun.with(env, dir, "query", "run-", "--kind", "slowest");
        assertThat(ambiguous.status()).isEqualTo(ExitCode.REJECTED);
        assertThat(ambiguous.err()).contains("ambiguous").doesNotContain("\n\tat ");
        CliRun unknown = CliRun.with(env, dir, "query", "no-such-run", "--kind", "slowest");
        assertThat(unknown.status()).isEqualTo(ExitCode.REJECTED);
        assertThat(unknown.err()).startsWith("error: ").hasLineCount(1);
    }

    @Test
    void historyFollowsOnePathAcrossRuns() throws Exception {
        String path = JSON.readTree(CliRun.with(env, dir, "compare", "run-a0", "run-a1", "--format", "json").out())
                .get("paths").get(0).get("path").asText();

        JsonNode history = json("history", path);

        assertThat(history.get("history").size()).isGreaterThanOrEqualTo(2);
    }

    @Test
    void sqlIsReadOnly() throws Exception {
        assertThat(json("sql", "SELECT count(*) AS n FROM runs").get("rows").get(0).get("n").asLong()).isEqualTo(6);
        for (String statement : new String[] {"DELETE FROM runs", "DROP TABLE runs", "UPDATE runs SET total_ms = 0",
            "SELECT 1; DELETE FROM runs", "COPY runs TO PROGRAM 'true'",
            "WITH gone AS (DELETE FROM runs RETURNING 1) SELECT count(*) FROM gone"}) {
            CliRun refused = CliRun.with(env, dir, "sql", statement);
            assertThat(refused.status()).as(statement + ": " + refused.err()).isEqualTo(ExitCode.REJECTED);
        }
        assertThat(count("SELECT count(*) FROM runs")).isEqualTo(6);
        assertThat(count("SELECT count(*) FROM nodes")).isPositive();
    }

    @Test
    void sqlIsTimeLimited() {
        long start = System.nanoTime();
        CliRun slow = CliRun.with(env, dir, "sql", "--timeout", "1", "SELECT pg_sleep(30)");
        long seconds = (System.nanoTime() - start) / 1_000_000_000L;

        assertThat(slow.status()).as(slow.err()).isEqualTo(ExitCode.REJECTED);
        assertThat(slow.err()).isEqualTo("error: ERROR: canceling statement due to statement timeout\n");
        assertThat(seconds).isLessThan(20);
        CliRun disarm = CliRun.with(env, dir, "sql", "--timeout", "1",
                "SELECT set_config('statement_timeout', '0', true), pg_sleep(30)");
        assertThat(disarm.err()).as("the statement cannot lift its own timeout").contains("statement timeout");
    }

    private long count(String query) throws SQLException {
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
                Statement s = c.createStatement(); ResultSet rs = s.executeQuery(query)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private JsonNode json(String... args) throws Exception {
        String[] withFormat = java.util.Arrays.copyOf(args, args.length + 2);
        withFormat[args.length] = "--format";
        withFormat[args.length + 1] = "json";
        CliRun run = CliRun.with(env, dir, withFormat);
        assertThat(run.status()).as(String.join(" ", args) + ": " + run.err()).isEqualTo(ExitCode.OK);
        return JSON.readTree(run.out());
    }
}
