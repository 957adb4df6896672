package io.tracegraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tracegraph.json.SyntheticTrace;
import io.tracegraph.postgres.DatabaseConfig;
import io.tracegraph.postgres.PostgresExtension;
import io.tracegraph.postgres.ShardedPostgresExtension;
import io.tracegraph.postgres.ShardedPostgresExtension.ShardedDatabases;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same imports on one server and on a sharded store (a coordinator and two shards, postgres_fdw
 * partitions, docs/scaling.md): every query command and every recipe of docs/sql.md gives the same
 * output on both, byte for byte, and the heaviest per-run aggregation runs on the shards.
 */
@ExtendWith({PostgresExtension.class, ShardedPostgresExtension.class})
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ShardedStoreIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The runs the traces make: 7 conformance samples (2 rejected), 2 examples, 8 twins, 3 of trace/10 (one a failed capture), 2 PyTorch. */
    private static final int RUNS = 20;

    private final DatabaseConfig single;
    private final ShardedDatabases sharded;
    private final Map<String, String> singleEnv;
    private final Map<String, String> shardedEnv;

    @TempDir
    static Path dir;

    ShardedStoreIT(DatabaseConfig single, ShardedDatabases sharded) {
        this.single = single;
        this.sharded = sharded;
        this.singleEnv = env(single);
        // The coordinator alone: it knows its shards.
        this.shardedEnv = env(sharded.coordinator());
    }

    private static Map<String, String> env(DatabaseConfig db) {
        return Map.of("TRACEGRAPH_DB_URL", db.jdbcUrl(), "TRACEGRAPH_DB_USER", db.user(), "TRACEGRAPH_DB_PASSWORD",
                db.password(), "COLUMNS", "200");
    }

    @BeforeAll
    void importTheSameTracesIntoBoth() throws Exception {
        Path traces = Files.createDirectories(dir.resolve("traces"));
        for (String name : List.of("synthetic.jsonl", "train_tiny.jsonl", "train_quirks.jsonl", "infer_small.jsonl",
                "bom.jsonl", "malformed_wrong_type.jsonl", "untrusted_cycle.jsonl")) {
            try (InputStream in = ShardedStoreIT.class.getResourceAsStream("/conformance/" + name)) {
                Files.copy(in, traces.resolve(name), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        for (String name : List.of("trace10_train.jsonl", "trace10_failed.jsonl")) {
            try (InputStream in = ShardedStoreIT.class.getResourceAsStream("/candle/" + name)) {
                Files.copy(in, traces.resolve(name), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        for (String name : List.of("hta-trace-compare-base.json.gz", "hta-backward-thread.json")) {
            try (InputStream in = ShardedStoreIT.class.getResourceAsStream("/pytorch/" + name)) {
                Files.copy(in, traces.resolve(name), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        SyntheticTrace.training().ops(300).seed(11).schema(10).runId("t10-gen").tag("side", "t10")
                .writeTo(traces.resolve("t10-gen.jsonl"));
        for (String name : List.of("train_small.jsonl", "infer_small.jsonl")) {
            Files.copy(Path.of("../examples", name), traces.resolve("example-" + name));
        }
        for (int i = 0; i < 4; i++) {
            SyntheticTrace.training().ops(200).seed(7).timingSeed(100 + i).runId("base-" + i).tag("side", "base")
                    .writeTo(traces.resolve("base-" + i + ".jsonl"));
            SyntheticTrace.training().ops(200).seed(7).timingSeed(200 + i).runId("cand-" + i).tag("side", "cand")
                    .slowSpan("Mlp::forward", 2.0).growMemory("Mlp::forward", 2).writeTo(traces.resolve("cand-" + i + ".jsonl"));
        }
        for (Map<String, String> env : List.of(singleEnv, shardedEnv)) {
            CliRun imported = CliRun.with(env, dir, "import", traces.toString(), "--jobs", "1", "--format", "json");
            assertThat(imported.status()).as(imported.err()).isEqualTo(ExitCode.REJECTED);
            assertThat(JSON.readTree(imported.out()).get("imported").asLong()).as(imported.out()).isEqualTo(RUNS);
        }
        // The same imports at the same times: what the listings show of import times is then equal.
        for (DatabaseConfig db : List.of(single, sharded.coordinator())) {
            execute(db, "UPDATE public.runs SET imported_at = timestamptz '2026-06-01 00:00:00+00' "
                    + "+ run_key * interval '1 second'");
            execute(db, "UPDATE public.import_log SET logged_at = timestamptz '2026-06-01 00:00:00+00' "
                    + "+ entry_key * interval '1 second', import_id = '00000000-0000-0000-0000-000000000001'");
        }
    }

    @Test
    void everyQueryCommandAnswersAsOnOneServer() throws Exception {
        String path = JSON.readTree(CliRun.with(singleEnv, dir, "compare", "--baseline", "tag:side=base",
                "--candidate", "tag:side=cand", "--format", "json").out()).get("paths").get(0).get("path").asText();
        List<List<String>> commands = new ArrayList<>();
        commands.add(List.of("runs"));
        commands.add(List.of("runs", "--tag", "side=cand", "--limit", "3"));
        commands.add(List.of("runs", "--entrypoint", "tinygpt::train::update"));
        commands.add(List.of("show", "latest"));
        commands.add(List.of("show", "train-s1"));
        commands.add(List.of("show", "latest~3"));
        for (String kind : List.of("slowest", "heaviest", "memory", "efficiency", "spans", "edges", "tensors",
                "gradients", "health")) {
            commands.add(List.of("query", "train-s1", "--kind", kind));
            commands.add(List.of("query", "cand-2", "--kind", kind));
            commands.add(List.of("query", "t10-gen", "--kind", kind));
        }
        commands.add(List.of("compare", "base-0", "cand-0"));
        commands.add(List.of("compare", "train-s1", "t10-gen"));
        commands.add(List.of("compare", "--baseline", "tag:side=base", "--candidate", "tag:side=cand"));
        // The ranges mix trace/10 runs, which declare a comparison identity, with runs that declare none.
        commands.add(List.of("compare", "--baseline", "latest~7..latest~4", "--candidate", "latest~3..latest",
                "--allow-mixed-identity"));
        commands.add(List.of("history", path));
        commands.add(List.of("history", "tinygpt::train::update/update"));
        for (String sql : recipes().values()) {
            commands.add(List.of("sql", sql.replace("'alpha-1'", "'base-0'").replace("'alpha-2'", "'cand-0'")
                    .replace("'tinygpt::train'", "'tinygpt::train::update'")));
        }
        commands.add(List.of("sql", "SELECT run_key, count(*) AS nodes, sum(self_time_ns) AS self_ns, "
                + "max(peak_bytes) AS peak FROM nodes GROUP BY run_key ORDER BY run_key"));
        commands.add(List.of("sql", "SELECT count(*) AS edges FROM edges"));
        // The capture facts of trace/7+ (V6), per run on the shards.
        for (String relation : List.of("tensor_stats", "node_device_times", "path_device_times", "run_identities",
                "run_capture_contracts", "memory_peak_breakdown")) {
            commands.add(List.of("sql", "SELECT * FROM " + relation + " t ORDER BY t::text"));
        }
        commands.add(List.of("sql", "SELECT run_id, outcome, outcome_reason, device_time_ns FROM runs ORDER BY run_key"));
        commands.add(List.of("show", "t10-gen"));
        commands.add(List.of("show", "run-failed"));
        commands.add(List.of("sql", "SELECT * FROM run_overview ORDER BY run_key"));
        int compared = 0;
        for (List<String> command : commands) {
            // Tables render what json shows; a recipe's rows are compared as json only (time).
            for (String format : command.get(0).equals("sql") ? List.of("json") : List.of("json", "table")) {
                List<String> args = new ArrayList<>(command);
                args.add("--format");
                args.add(format);
                CliRun one = CliRun.with(singleEnv, dir, args.toArray(String[]::new));
                CliRun spread = CliRun.with(shardedEnv, dir, args.toArray(String[]::new));
                assertThat(one.status()).as(command + ": " + one.err()).isEqualTo(ExitCode.OK);
                assertThat(spread.status()).as(command + ": " + spread.err()).isEqualTo(ExitCode.OK);
                assertThat(spread.out()).as(String.join(" ", args)).isEqualTo(one.out());
                compared++;
            }
        }
        assertThat(compared).isGreaterThan(85);
    }

    @Test
    void reportsAndExportsAreTheSameFiles() throws Exception {
        for (List<String> command : List.of(List.of("report", "train-s1"), List.of("report", "--compare", "base-1",
                "cand-1"), List.of("export", "train-s1"), List.of("export", "cand-3"))) {
            Map<String, byte[]> written = new LinkedHashMap<>();
            for (Map.Entry<String, Map<String, String>> store : Map.of("single", singleEnv, "sharded", shardedEnv)
                    .entrySet()) {
                Path file = dir.resolve(store.getKey() + "-" + String.join("-", command).replace(':', '_') + ".out");
                List<String> args = new ArrayList<>(command);
                args.add("-o");
                args.add(file.toString());
                CliRun run = CliRun.with(store.getValue(), dir, args.toArray(String[]::new));
                assertThat(run.status()).as(command + ": " + run.err()).isEqualTo(ExitCode.OK);
                written.put(store.getKey(), Files.readAllBytes(file));
            }
            assertThat(new String(written.get("sharded"), StandardCharsets.UTF_8)).as(command.toString())
                    .isEqualTo(new String(written.get("single"), StandardCharsets.UTF_8));
        }
    }

    @Test
    void theRunsAreSpreadOverBothShardsAndDbStatusSaysHowMany() throws Exception {
        CliRun status = CliRun.with(shardedEnv, dir, "db", "status", "--format", "json");
        assertThat(status.status()).as(status.err()).isEqualTo(ExitCode.OK);
        assertThat(status.out()).containsOnlyOnce("\"shards\"");
        assertThat(JSON.readTree(status.out()).get("shard_count").asInt()).isEqualTo(2);
        JsonNode shards = JSON.readTree(status.out()).get("shards");
        assertThat(shards.isArray()).as(status.out()).isTrue();
        assertThat(shards.size()).isEqualTo(2);
        List<Long> runs = JSON.readTree(status.out()).findValues("runs").stream().map(JsonNode::asLong).toList();
        assertThat(runs).hasSize(2).allSatisfy(n -> assertThat(n).isPositive());
        assertThat(runs.stream().mapToLong(Long::longValue).sum()).isEqualTo(RUNS);
        CliRun text = CliRun.with(shardedEnv, dir, "db", "status");
        assertThat(text.out()).contains("2 shard(s)").contains("shard_1: ").contains("shard_2: ");
    }

    /** The pushdown this layout exists for: a run's rows decoded and aggregated where they are stored. */
    @Test
    void perRunAggregationRunsOnTheShardsInParallel() throws Exception {
        for (String query : List.of(
                "SELECT run_key, count(*), sum(self_time_ns), max(peak_bytes) FROM nodes GROUP BY run_key",
                "SELECT run_key, count(*), sum(total_time_ns), max(peak_bytes) FROM run_paths GROUP BY run_key",
                "SELECT run_key, max(live_bytes) FROM memory_timeline GROUP BY run_key")) {
            CliRun plan = CliRun.with(shardedEnv, dir, "sql", "EXPLAIN (VERBOSE, COSTS OFF) " + query, "--format",
                    "csv");
            assertThat(plan.status()).as(plan.err()).isEqualTo(ExitCode.OK);
            String text = plan.out();
            // One remote aggregate per shard, run at once; only per-run results come back.
            assertThat(count(text, "Async Foreign Scan")).as(text).isEqualTo(2);
            assertThat(count(text, "Relations: Aggregate on")).as(text).isEqualTo(2);
            assertThat(count(text, "GROUP BY 1")).as(text).isEqualTo(2);
            assertThat(text).as(text).doesNotContain("HashAggregate", "GroupAggregate", "Partial");
        }
        // A run's rows, asked by key, come from its shard alone: its nodes, and the packed path
        // statistics a comparison of sets reads of each run (stored per run at import).
        for (String table : List.of("node_packs", "path_packs")) {
            CliRun plan = CliRun.with(shardedEnv, dir, "sql", "EXPLAIN (VERBOSE, COSTS OFF) SELECT * FROM " + table
                    + " WHERE run_key = 3", "--format", "csv");
            assertThat(plan.status()).as(plan.err()).isEqualTo(ExitCode.OK);
            assertThat(count(plan.out(), "Foreign Scan")).as(plan.out()).isEqualTo(1);
            assertThat(plan.out()).as(plan.out()).contains("FROM public." + table + " WHERE ((run_key = 3))");
        }
    }

    /**
     * {@code run_path_stats()}, the recipes' per-run call: each run's paths decoded on its shard, one
     * remote query per shard (not the packs fetched and decoded on the coordinator).
     */
    @Test
    void aRunsPathStatisticsAreDecodedOnItsShard() throws Exception {
        CliRun plan = CliRun.with(shardedEnv, dir, "sql", "EXPLAIN (VERBOSE, COSTS OFF) SELECT r.run_id, p.path, "
                + "p.self_time_ns FROM runs r CROSS JOIN LATERAL run_path_stats(r.run_key) p", "--format", "csv");
        assertThat(plan.status()).as(plan.err()).isEqualTo(ExitCode.OK);
        assertThat(count(plan.out(), "FROM shard_reads.decoded_path_stats WHERE ((run_key = "))
                .as(plan.out()).isEqualTo(2);
        assertThat(plan.out()).as(plan.out()).doesNotContain("path_packs", "run_strings");
    }

    /**
     * The slowest-paths recipe of docs/sql.md, as written: each run's paths decoded on its shard, and
     * only the columns the recipe reads travel (path, hash, self and total time: not the kinds, counts,
     * bytes and peaks, nor the packs), for both shards.
     */
    @Test
    void theSlowestPathsRecipeReadsOnlyItsColumnsDecodedOnTheShards() throws Exception {
        String recipe = recipes().get("Slowest paths over the last N runs");
        assertThat(recipe).contains("run_path_stats(r.run_key)");
        CliRun plan = CliRun.with(shardedEnv, dir, "sql", "EXPLAIN (VERBOSE, COSTS OFF) " + recipe, "--format", "csv");
        assertThat(plan.status()).as(plan.err()).isEqualTo(ExitCode.OK);
        assertThat(count(plan.out(), "Remote SQL: SELECT path_hash, path, self_time_ns, total_time_ns FROM "
                + "shard_reads.decoded_path_stats WHERE ((run_key = ")).as(plan.out()).isEqualTo(2);
        // Each run's paths in two halves, read at once on two connections to its shard (docs/scaling.md, round 6).
        assertThat(count(plan.out(), "Remote SQL: SELECT path_hash, path, self_time_ns, total_time_ns FROM "
                + "shard_reads.decoded_path_stats_tail WHERE ((run_key = ")).as(plan.out()).isEqualTo(2);
        assertThat(count(plan.out(), "Async Foreign Scan")).as(plan.out()).isEqualTo(4);
        assertThat(count(plan.out(), "Remote SQL:")).as(plan.out()).isEqualTo(4);
        assertThat(plan.out()).as(plan.out()).doesNotContain("path_packs", "run_strings");
    }

    /**
     * The slowest-paths recipe asks the shards for the runs it picks alone, one remote query per run
     * by its key (not every catalogued run's rows, joined with the picked ones on the coordinator),
     * and the coordinator hashes the rows into groups: planned for the rows of that many runs (as a
     * join of every run's rows the planner expected 1/200 of them and sorted half a million rows on
     * disk at 10 runs of 100,000 nodes, docs/scaling.md); a store laid out before is laid out again.
     */
    @Test
    void theSlowestPathsRecipeAsksForTheRunsItPicksAloneAndHashesTheirRows() throws Exception {
        String recipe = recipes().get("Slowest paths over the last N runs").replace("'tinygpt::train'",
                "'tinygpt::train::update'");
        assertThat(recipe).contains("LIMIT 10");
        // As an older tracegraph laid it out (joined with every run's rows): the next command lays it out again.
        execute(sharded.coordinator(), "CREATE OR REPLACE FUNCTION sharded.run_path_stats(p_run_key bigint) RETURNS "
                + "SETOF public.run_paths LANGUAGE sql STABLE AS $$ SELECT * FROM sharded.run_path_stats_on_shards p "
                + "WHERE p.run_key = p_run_key $$");
        CliRun plan = CliRun.with(shardedEnv, dir, "sql", "EXPLAIN (VERBOSE, COSTS OFF) " + recipe, "--format", "csv");
        assertThat(plan.status()).as(plan.err()).isEqualTo(ExitCode.OK);
        assertThat(count(plan.out(), "FROM shard_reads.decoded_path_stats WHERE ((run_key = $1::bigint))"))
                .as(plan.out()).isEqualTo(2);
        assertThat(plan.out()).as(plan.out()).contains("Nested Loop", "HashAggregate")
                .doesNotContain("GroupAggregate", "Hash Join", "Merge Join");
        // Over 3 of the 20 runs: the shards send the paths of those 3, no more.
        String three = recipe.replace("LIMIT 10", "LIMIT 3");
        CliRun analyzed = CliRun.with(shardedEnv, dir, "sql", "EXPLAIN (ANALYZE, VERBOSE, COSTS OFF, TIMING OFF) "
                + three, "--format", "csv");
        assertThat(analyzed.status()).as(analyzed.err()).isEqualTo(ExitCode.OK);
        long sent = 0;
        long loops = 0;
        Matcher scan = Pattern.compile("Foreign Scan on [^(]*\\(actual rows=(\\d+) loops=(\\d+)\\)")
                .matcher(analyzed.out());
        while (scan.find()) {
            // rows is the mean per loop, rounded.
            sent += Long.parseLong(scan.group(1)) * Long.parseLong(scan.group(2));
            loops += Long.parseLong(scan.group(2));
        }
        // Each of the 3 runs read in two halves (docs/scaling.md, round 6).
        assertThat(loops).as(analyzed.out()).isEqualTo(2 * 3);
        String picked = "SELECT count(*) AS paths FROM (SELECT run_key FROM runs WHERE entrypoint = "
                + "'tinygpt::train::update' ORDER BY captured_at DESC NULLS LAST, imported_at DESC, run_key DESC "
                + "LIMIT 3) r CROSS JOIN LATERAL run_path_stats(r.run_key) p";
        long paths = JSON.readTree(CliRun.with(singleEnv, dir, "sql", picked, "--format", "json").out())
                .findValue("paths").asLong();
        long all = JSON.readTree(CliRun.with(singleEnv, dir, "sql", "SELECT count(*) AS paths FROM run_paths",
                "--format", "json").out()).findValue("paths").asLong();
        assertThat(all).isGreaterThan(paths + loops);
        assertThat(sent).as(analyzed.out()).isBetween(paths - loops, paths + loops);
    }

    /**
     * On a shard, a run's decoded paths stream out to the coordinator's cursors (a ProjectSet over the
     * run's pack for each half of its paths) instead of being gathered in a function scan's tuplestore
     * first (which went to a temporary file at 4 MB of work_mem, docs/scaling.md round 6), the two
     * halves the same rows as run_path_stats() there; and a coordinator laid out with the earlier views
     * has its shards' views made again.
     */
    @Test
    void aRunsPathsStreamOutOfItsShardAlsoInAStoreLaidOutBefore() throws Exception {
        DatabaseConfig shard = sharded.shards().get(0);
        // As an older tracegraph left it: the coordinator without this version's mark, the shard's views gone.
        execute(sharded.coordinator(), "COMMENT ON TABLE shard_parts.decoded_path_stats IS NULL");
        execute(shard, "DROP SCHEMA shard_reads CASCADE");
        CliRun runs = CliRun.with(shardedEnv, dir, "runs", "--format", "json");
        assertThat(runs.status()).as(runs.err()).isEqualTo(ExitCode.OK);
        try (Connection c = DriverManager.getConnection(shard.jdbcUrl(), shard.user(), shard.password());
                Statement s = c.createStatement()) {
            long runKey;
            long paths;
            try (var rs = s.executeQuery("SELECT run_key, cardinality(hashes) FROM path_packs "
                    + "ORDER BY cardinality(hashes) DESC, run_key LIMIT 1")) {
                assertThat(rs.next()).isTrue();
                runKey = rs.getLong(1);
                paths = rs.getLong(2);
            }
            assertThat(paths).isGreaterThan(100);
            for (String half : List.of("decoded_path_stats", "decoded_path_stats_tail")) {
                StringBuilder plan = new StringBuilder();
                try (var rs = s.executeQuery("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) SELECT path_hash, path, "
                        + "self_time_ns FROM shard_reads." + half + " WHERE run_key = " + runKey)) {
                    while (rs.next()) {
                        plan.append(rs.getString(1)).append('\n');
                    }
                }
                long rows = half.endsWith("_tail") ? paths - paths / 2 : paths / 2;
                assertThat(plan.toString()).as(plan.toString())
                        .contains("ProjectSet (actual rows=" + rows + " loops=1)")
                        .doesNotContainPattern("Function Scan[^\n]*actual rows=[1-9]");
            }
            String columns = "SELECT run_key, path_hash, path::text COLLATE \"C\", kind, count, self_time_ns, "
                    + "total_time_ns, bytes, peak_bytes FROM ";
            String streamed = columns + "shard_reads.decoded_path_stats WHERE run_key = " + runKey + " UNION ALL "
                    + columns + "shard_reads.decoded_path_stats_tail WHERE run_key = " + runKey;
            String function = columns + "public.run_path_stats(" + runKey + ")";
            try (var rs = s.executeQuery("SELECT (SELECT count(*) FROM (" + streamed + " EXCEPT ALL " + function
                    + ") d) + (SELECT count(*) FROM (" + function + " EXCEPT ALL (" + streamed + ")) d)")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).isZero();
            }
        }
    }

    /**
     * {@code history}: each shard finds the path in its own runs (one remote query per shard, at
     * once), instead of the coordinator fetching every run's path packs; and a coordinator laid out
     * without the shards' views (by an older tracegraph) has them made again by the next command.
     */
    @Test
    void historyIsFoundOnTheShardsAlsoInAStoreLaidOutWithoutTheirViews() throws Exception {
        CliRun plan = CliRun.with(shardedEnv, dir, "sql", "EXPLAIN (VERBOSE, COSTS OFF) SELECT r.run_key, f.path_rank "
                + "FROM runs r JOIN shard_parts.path_figures f ON f.run_key = r.run_key WHERE f.path_hash = 42",
                "--format", "csv");
        assertThat(plan.status()).as(plan.err()).isEqualTo(ExitCode.OK);
        assertThat(count(plan.out(), "Async Foreign Scan")).as(plan.out()).isEqualTo(2);
        assertThat(count(plan.out(), "FROM shard_reads.path_figures WHERE ((path_hash = 42))")).as(plan.out())
                .isEqualTo(2);
        String path = JSON.readTree(CliRun.with(singleEnv, dir, "compare", "--baseline", "tag:side=base",
                "--candidate", "tag:side=cand", "--format", "json").out()).get("paths").get(0).get("path").asText();
        execute(sharded.coordinator(), "DROP TABLE shard_parts.path_figures, shard_parts.path_texts");
        execute(sharded.shards().get(0), "DROP SCHEMA shard_reads CASCADE");
        CliRun one = CliRun.with(singleEnv, dir, "history", path, "--format", "json");
        CliRun spread = CliRun.with(shardedEnv, dir, "history", path, "--format", "json");
        assertThat(spread.status()).as(spread.err()).isEqualTo(ExitCode.OK);
        assertThat(spread.out()).isEqualTo(one.out());
        assertThat(JSON.readTree(spread.out()).get("history").size()).as(spread.out()).isGreaterThan(1);
    }

    private static int count(String text, String what) {
        int n = 0;
        for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + what.length())) {
            n++;
        }
        return n;
    }

    static Map<String, String> recipes() throws Exception {
        String text = Files.readString(Path.of("..", "docs", "sql.md"), StandardCharsets.UTF_8);
        Map<String, String> recipes = new LinkedHashMap<>();
        Matcher m = Pattern.compile("(?m)^### ([^\\n]+)$|^```sql\\n(.*?)^```", Pattern.DOTALL).matcher(text);
        String title = null;
        while (m.find()) {
            if (m.group(1) != null) {
                title = m.group(1).strip();
            } else if (title != null && !recipes.containsKey(title)) {
                recipes.put(title, m.group(2));
            }
        }
        assertThat(recipes).hasSizeGreaterThanOrEqualTo(10);
        return recipes;
    }

    static void execute(DatabaseConfig db, String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
                Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
