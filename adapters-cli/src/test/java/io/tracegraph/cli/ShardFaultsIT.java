package io.tracegraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tracegraph.json.SyntheticTrace;
import io.tracegraph.postgres.DatabaseConfig;
import io.tracegraph.postgres.PostgresExtension;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sharded store (docs/scaling.md) whose shards fail: two embedded shard servers of this class's
 * own, stopped and started again on the same data and port. A shard stopped in the middle of an
 * import leaves no visible run, the import exits 3 naming the shard and the next one completes; rows
 * on a shard that no catalogue row owns are invisible and swept by the next import; a shard that is
 * down fails the queries that need it with one line naming it, while runs of the other shard still
 * answer; concurrent importers store every run once.
 */
@ExtendWith(PostgresExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ShardFaultsIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final DatabaseConfig coordinator;
    private final Map<String, String> env;
    private final List<Shard> shards = new ArrayList<>();

    @TempDir
    static Path dir;

    ShardFaultsIT(DatabaseConfig coordinator) {
        this.coordinator = coordinator;
        this.env = Map.of("TRACEGRAPH_DB_URL", coordinator.jdbcUrl(), "TRACEGRAPH_DB_USER", coordinator.user(),
                "TRACEGRAPH_DB_PASSWORD", coordinator.password(), "COLUMNS", "200");
    }

    /** A shard server of this class: its data directory and port stay across a stop and a start. */
    private static final class Shard {
        private final Path data;
        private int port;
        private EmbeddedPostgres server;

        Shard(Path data) {
            this.data = data;
        }

        synchronized void start() throws IOException {
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder().setDataDirectory(data)
                    .setCleanDataDirectory(false).setServerConfig("listen_addresses", "127.0.0.1");
            if (port != 0) {
                builder.setPort(port);
            }
            server = builder.start();
            port = server.getPort();
        }

        synchronized void stop() throws IOException {
            if (server != null) {
                server.close();
                server = null;
            }
        }

        DatabaseConfig config() {
            return new DatabaseConfig("jdbc:postgresql://127.0.0.1:" + port + "/postgres", "postgres", "");
        }

        String url() {
            return config().jdbcUrl() + "?user=postgres";
        }
    }

    @BeforeAll
    void startTheShardsAndLayTheStoreOut() throws Exception {
        for (int i = 1; i <= 2; i++) {
            Shard shard = new Shard(Files.createDirectories(dir.resolve("shard-" + i)));
            shard.start();
            shards.add(shard);
        }
        // The first command with TRACEGRAPH_SHARD_URLS lays the empty store out over the shards.
        CliRun status = CliRun.with(withShards(), dir, "db", "status");
        assertThat(status.status()).as(status.err()).isEqualTo(ExitCode.OK);
        assertThat(status.out()).contains("2 shard(s)");
        Path traces = Files.createDirectories(dir.resolve("first"));
        for (int i = 0; i < 6; i++) {
            SyntheticTrace.training().ops(100).seed(40 + i).runId("first-" + i).writeTo(traces.resolve(i + ".jsonl"));
        }
        CliRun imported = CliRun.with(env, dir, "import", traces.toString(), "--format", "json");
        assertThat(imported.status()).as(imported.err()).isEqualTo(ExitCode.OK);
        assertThat(shardOf("first-0")).isPositive();
    }

    @AfterAll
    void stopTheShards() throws IOException {
        for (Shard shard : shards) {
            shard.stop();
        }
    }

    private Map<String, String> withShards() {
        Map<String, String> e = new java.util.HashMap<>(env);
        e.put("TRACEGRAPH_SHARD_URLS", shards.get(0).url() + "," + shards.get(1).url());
        return e;
    }

    @Test
    @Order(1)
    @Timeout(120)
    void aShardStoppedMidImportLeavesNoVisibleRunAndTheNextImportCompletes() throws Exception {
        long runsBefore = count(coordinator, "SELECT count(*) FROM public.runs");
        long nodesBefore = sqlCount("SELECT count(*) AS n FROM nodes");
        Path big = dir.resolve("big.jsonl");
        SyntheticTrace.training().ops(40_000).seed(99).runId("big").writeTo(big);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<CliRun> importing = pool.submit(() -> CliRun.with(env, dir, "import", big.toString()));
            // The shard that receives the run's rows is stopped while it does.
            int writing = 0;
            while (writing == 0 && !importing.isDone()) {
                for (int i = 0; i < shards.size() && writing == 0; i++) {
                    if (count(shards.get(i).config(), "SELECT count(*) FROM pg_stat_activity WHERE "
                            + "datname = 'postgres' AND state <> 'idle' AND pid <> pg_backend_pid() "
                            + "AND backend_type = 'client backend' AND query ILIKE 'COPY%'") > 0) {
                        writing = i + 1;
                    }
                }
                Thread.sleep(5);
            }
            assertThat(writing).as("a shard was seen receiving the run's rows").isPositive();
            shards.get(writing - 1).stop();
            CliRun failed = importing.get(60, TimeUnit.SECONDS);
            assertThat(failed.status()).as(failed.out() + failed.err()).isEqualTo(ExitCode.FAILURE);
            assertThat(failed.err().strip()).as(failed.err()).doesNotContain("\n")
                    .contains("shard_" + writing).contains("big");

            // Nothing of it is visible, and the other shard's runs still answer.
            assertThat(count(coordinator, "SELECT count(*) FROM public.runs")).isEqualTo(runsBefore);
            String other = runOn(3 - writing);
            CliRun show = CliRun.with(env, dir, "show", other, "--format", "json");
            assertThat(show.status()).as(show.err()).isEqualTo(ExitCode.OK);

            shards.get(writing - 1).start();
            CliRun again = CliRun.with(env, dir, "import", big.toString(), "--format", "json");
            assertThat(again.status()).as(again.err()).isEqualTo(ExitCode.OK);
            assertThat(JSON.readTree(again.out()).get("imported").asLong()).isEqualTo(1);
            assertThat(count(coordinator, "SELECT count(*) FROM public.runs")).isEqualTo(runsBefore + 1);
            assertThat(sqlCount("SELECT count(*) AS n FROM nodes")).isGreaterThan(nodesBefore + 40_000);
            CliRun query = CliRun.with(env, dir, "query", "big", "--kind", "slowest", "--format", "json");
            assertThat(query.status()).as(query.err()).isEqualTo(ExitCode.OK);
        } finally {
            pool.shutdownNow();
            for (Shard shard : shards) {
                if (shard.server == null) {
                    shard.start();
                }
            }
        }
    }

    @Test
    @Order(2)
    void rowsThatNoCatalogueRowOwnsAreInvisibleAndTheNextImportSweepsThem() throws Exception {
        // What a crash between a shard's commit and the catalogue's leaves: a run's rows, no runs row.
        long key = count(coordinator, "SELECT run_key FROM public.runs WHERE run_id = 'first-1'");
        int shard = shardOf("first-1");
        long stored = count(shards.get(shard - 1).config(), "SELECT count(*) FROM public.node_packs WHERE run_key = "
                + key);
        assertThat(stored).isPositive();
        long nodesBefore = sqlCount("SELECT count(*) AS n FROM nodes");
        long itsNodes = sqlCount("SELECT count(*) AS n FROM nodes WHERE run_key = " + key);
        assertThat(itsNodes).isPositive();
        execute(coordinator, "DELETE FROM public.runs WHERE run_key = " + key);

        assertThat(sqlCount("SELECT count(*) AS n FROM nodes")).isEqualTo(nodesBefore - itsNodes);
        assertThat(sqlCount("SELECT count(*) AS n FROM nodes WHERE run_key = " + key)).isZero();
        CliRun runs = CliRun.with(env, dir, "runs", "--format", "json");
        assertThat(runs.out()).doesNotContain("first-1");

        Path next = dir.resolve("next.jsonl");
        SyntheticTrace.inference().ops(50).seed(7).runId("next").writeTo(next);
        CliRun imported = CliRun.with(env, dir, "import", next.toString());
        assertThat(imported.status()).as(imported.err()).isEqualTo(ExitCode.OK);
        for (Shard s : shards) {
            for (String table : List.of("node_packs", "path_packs", "run_strings")) {
                assertThat(count(s.config(), "SELECT count(*) FROM public." + table + " WHERE run_key = " + key))
                        .as(table).isZero();
            }
        }
    }

    @Test
    @Order(3)
    void aShardDownFailsWhatNeedsItNamingItAndTheOtherShardsRunsStillAnswer() throws Exception {
        String onOne = runOn(1);
        String onTwo = runOn(2);
        shards.get(1).stop();
        try {
            for (List<String> command : List.of(List.of("show", onTwo), List.of("query", onTwo, "--kind", "slowest"),
                    List.of("compare", onOne, onTwo), List.of("sql", "SELECT count(*) FROM nodes"))) {
                CliRun failed = CliRun.with(env, dir, command.toArray(String[]::new));
                assertThat(failed.status()).as(command + ": " + failed.out() + failed.err())
                        .isEqualTo(ExitCode.FAILURE);
                assertThat(failed.err().strip()).as(command.toString()).doesNotContain("\n").contains("shard_2");
            }
            for (List<String> command : List.of(List.of("show", onOne), List.of("query", onOne, "--kind", "slowest"),
                    List.of("query", onOne, "--kind", "memory"), List.of("sql", "SELECT count(*) FROM nodes "
                            + "WHERE run_key = " + count(coordinator, "SELECT run_key FROM public.runs WHERE run_id = '"
                            + onOne + "'")))) {
                // (A run_key the planner knows prunes the other shard's partitions; one from a subquery does not.)
                CliRun answered = CliRun.with(env, dir, command.toArray(String[]::new));
                assertThat(answered.status()).as(command + ": " + answered.err()).isEqualTo(ExitCode.OK);
            }
        } finally {
            shards.get(1).start();
        }
        CliRun back = CliRun.with(env, dir, "show", onTwo);
        assertThat(back.status()).as(back.err()).isEqualTo(ExitCode.OK);
    }

    @Test
    @Order(4)
    @Timeout(180)
    void concurrentImportersStoreEveryRunOnce() throws Exception {
        Path a = Files.createDirectories(dir.resolve("a"));
        Path b = Files.createDirectories(dir.resolve("b"));
        for (int i = 0; i < 8; i++) {
            Path trace = a.resolve("c-" + i + ".jsonl");
            SyntheticTrace.training().ops(80 + i).seed(300 + i).runId("concurrent-" + i).writeTo(trace);
            Files.copy(trace, b.resolve("c-" + i + ".jsonl"));
        }
        long before = count(coordinator, "SELECT count(*) FROM public.runs");
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<CompletableFuture<CliRun>> importers = new ArrayList<>();
            for (Path source : List.of(a, b)) {
                importers.add(CompletableFuture.supplyAsync(() -> CliRun.with(env, dir, "import", source.toString(),
                        "--format", "json"), pool));
            }
            long imported = 0;
            for (CompletableFuture<CliRun> importer : importers) {
                CliRun run = importer.get(150, TimeUnit.SECONDS);
                assertThat(run.status()).as(run.err()).isEqualTo(ExitCode.OK);
                imported += JSON.readTree(run.out()).get("imported").asLong();
            }
            assertThat(imported).isEqualTo(8);
        } finally {
            pool.shutdownNow();
        }
        assertThat(count(coordinator, "SELECT count(*) FROM public.runs")).isEqualTo(before + 8);
        long onShards = 0;
        for (Shard shard : shards) {
            onShards += count(shard.config(), "SELECT count(*) FROM public.run_strings");
        }
        // Every catalogued run's rows once, on one shard.
        assertThat(onShards).isEqualTo(count(coordinator, "SELECT count(*) FROM public.runs"));
        assertThat(sqlCount("SELECT count(DISTINCT run_key) AS n FROM run_strings")).isEqualTo(onShards);
    }

    /** The shard (1 or 2) that holds run {@code runId}. */
    private int shardOf(String runId) throws SQLException {
        return (int) count(coordinator, "SELECT h.shard FROM sharding.shards h JOIN public.runs r ON "
                + "satisfies_hash_partition('shard_parts.run_strings'::regclass, h.modulus, h.remainder, r.run_key) "
                + "WHERE r.run_id = '" + runId + "'");
    }

    /** A stored run on shard {@code shard}. */
    private String runOn(int shard) throws SQLException {
        try (Connection c = connect(coordinator); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT r.run_id FROM sharding.shards h JOIN public.runs r ON "
                        + "satisfies_hash_partition('shard_parts.run_strings'::regclass, h.modulus, h.remainder, "
                        + "r.run_key) WHERE h.shard = " + shard + " ORDER BY r.run_key LIMIT 1")) {
            assertThat(rs.next()).as("a run on shard " + shard).isTrue();
            return rs.getString(1);
        }
    }

    private long sqlCount(String sql) throws Exception {
        CliRun run = CliRun.with(env, dir, "sql", sql, "--format", "json");
        assertThat(run.status()).as(run.err()).isEqualTo(ExitCode.OK);
        JsonNode rows = JSON.readTree(run.out()).get("rows");
        return rows.get(0).get("n").asLong();
    }

    private static long count(DatabaseConfig db, String sql) throws SQLException {
        try (Connection c = connect(db); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    private static void execute(DatabaseConfig db, String sql) throws SQLException {
        try (Connection c = connect(db); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static Connection connect(DatabaseConfig db) throws SQLException {
        return DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
    }
}
