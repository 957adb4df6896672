package io.tracegraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tracegraph.domain.graph.GraphBuilder;
import io.tracegraph.domain.graph.GraphOutcome;
import io.tracegraph.domain.run.RunToStore;
import io.tracegraph.domain.trace.TraceDocument;
import io.tracegraph.json.JacksonTraceReader;
import io.tracegraph.json.SyntheticTrace;
import io.tracegraph.postgres.Database;
import io.tracegraph.postgres.DatabaseConfig;
import io.tracegraph.postgres.PostgresExtension;
import io.tracegraph.postgres.V4RunWriter;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.PGConnection;

/**
 * A store of the old layout (schema version 4, filled by that release's writer) upgraded in place to
 * the packed layout of version 5: every table it had reads, byte for byte, as it did before (now
 * views over the packs); a fresh import of the same traces stores exactly those rows; and every
 * query command prints, byte for byte, the same on the upgraded store as on the fresh one.
 */
@ExtendWith(PostgresExtension.class)
class StoreUpgradeIT {
    /** What SQL users read of a run, in a fixed order: the V1-V4 tables and views. */
    private static final Map<String, String> CONTENTS = new LinkedHashMap<>();

    static {
        CONTENTS.put("runs", "run_key");
        CONTENTS.put("nodes", "run_key, node_idx");
        CONTENTS.put("edges", "run_key, edge_idx");
        CONTENTS.put("path_stats", "run_key, path_rank");
        CONTENTS.put("path_columns", "run_key");
        CONTENTS.put("tensors", "run_key, tensor_idx");
        CONTENTS.put("gradients", "run_key, gradient_idx");
        CONTENTS.put("graph_summaries", "run_key");
        CONTENTS.put("memory_summaries", "run_key");
        CONTENTS.put("memory_devices", "run_key, device");
        CONTENTS.put("memory_timeline", "run_key, point_idx");
        CONTENTS.put("memory_peak_breakdown", "run_key, rank");
        CONTENTS.put("health_issues", "run_key, issue_idx");
        CONTENTS.put("run_paths", "run_key, path_hash");
        CONTENTS.put("run_overview", "run_key");
        CONTENTS.put("run_gradient_states", "run_key, root, key");
        // V6: the capture facts.
        CONTENTS.put("node_device_times", "run_key, node_idx, device");
        CONTENTS.put("path_device_times", "run_key, path_rank");
        CONTENTS.put("tensor_stats", "run_key, stat_idx");
        CONTENTS.put("run_identities", "run_key");
        CONTENTS.put("run_capture_contracts", "run_key");
        CONTENTS.put("run_bundles", "run_key");
        CONTENTS.put("run_bundle_files", "run_key, file_idx");
    }

    private static final Instant IMPORTED = Instant.parse("2026-06-01T08:00:00Z");

    private final DatabaseConfig old;

    @TempDir
    Path dir;

    StoreUpgradeIT(DatabaseConfig old) {
        this.old = old;
    }

    @Test
    @Timeout(300)
    void anOldStoreUpgradedInPlaceReadsAsBeforeAndAnswersAsAFreshImport() throws Exception {
        List<Path> traces = corpus();

        // The old layout, filled by the old writer, each run imported a second after the one before.
        Flyway.configure().dataSource(old.jdbcUrl(), old.user(), old.password()).locations("classpath:db/migration")
                .target("4").load().migrate();
        V4RunWriter writer = new V4RunWriter(old);
        for (int i = 0; i < traces.size(); i++) {
            writer.store(runToStore(traces.get(i)), IMPORTED.plusSeconds(i));
        }
        // What the old layout had: its tables' columns (later versions add columns), then their rows.
        Map<String, String> oldColumns = columns(old);
        Map<String, String> before = contents(old, oldColumns);
        assertThat(before.get("nodes")).as("the old store holds nodes").isNotEmpty();

        List<String> notices = new ArrayList<>();
        Database.open(old, notices::add).close();
        assertThat(notices).containsExactly("upgrading the store from schema version 4 to "
                + newestMigration() + " (once; a big store takes a minute or more)");
        assertThat(contents(old, oldColumns)).as("every table of the old layout, read after the upgrade")
                .containsExactlyEntriesOf(before);

        DatabaseConfig fresh = createDatabase();
        try {
            for (Path trace : traces) {
                CliRun imported = cli(fresh, "import", trace.toString(), "--format", "json");
                assertThat(imported.status()).as(imported.err()).isEqualTo(ExitCode.OK);
            }
            execute(fresh, "UPDATE runs SET imported_at = timestamptz '" + IMPORTED + "' + (run_key - 1) * interval "
                    + "'1 second'");
            assertThat(contents(fresh, oldColumns)).as("a fresh import of the same traces")
                    .containsExactlyEntriesOf(before);
            assertThat(contents(fresh, Map.of())).as("every table and view, every column, fresh and upgraded")
                    .containsExactlyEntriesOf(contents(old, Map.of()));

            for (List<String> command : commands()) {
                CliRun upgraded = cli(old, command.toArray(new String[0]));
                CliRun imported = cli(fresh, command.toArray(new String[0]));
                assertThat(upgraded.status()).as(command + ": " + upgraded.err()).isEqualTo(ExitCode.OK);
                assertThat(upgraded.out()).as(String.join(" ", command)).isEqualTo(imported.out());
                assertThat(upgraded.err()).as(String.join(" ", command)).isEqualTo(imported.err());
            }
            for (List<String> report : reports()) {
                Path a = dir.resolve("upgraded.out");
                Path b = dir.resolve("fresh.out");
                assertThat(cli(old, with(report, a)).status()).as(report.toString()).isEqualTo(ExitCode.OK);
                assertThat(cli(fresh, with(report, b)).status()).as(report.toString()).isEqualTo(ExitCode.OK);
                assertThat(Files.readAllBytes(a)).as(String.join(" ", report)).isEqualTo(Files.readAllBytes(b));
            }
        } finally {
            dropDatabase(fresh);
        }
    }

    /** Small traces of every shape the store packs: training and inference, sets of one model, a deep chain. */
    private List<Path> corpus() throws IOException {
        List<Path> traces = new ArrayList<>();
        for (String example : List.of("train_small.jsonl", "infer_small.jsonl")) {
            Path copy = dir.resolve(example);
            Files.copy(Path.of("..", "examples", example), copy);
            traces.add(copy);
        }
        for (int i = 0; i < 3; i++) {
            traces.add(write("base-" + i, SyntheticTrace.training().ops(400).seed(7).timingSeed(100 + i)
                    .runId("base-" + i).tag("commit", "base")));
            traces.add(write("cand-" + i, SyntheticTrace.training().ops(400).seed(7).timingSeed(200 + i)
                    .runId("cand-" + i).tag("commit", "cand").slowSpan("Mlp::forward", 2.0)
                    .growMemory("Mlp::forward", 2)));
        }
        traces.add(write("infer-cpu", SyntheticTrace.inference().ops(150).seed(3).device("cpu \"quoted\" ü")
                .runId("infer-cpu")));
        // Paths beyond 1,000 characters are stored abbreviated.
        traces.add(write("deep", SyntheticTrace.deepChain(1_200).runId("deep")));
        return traces;
    }

    private Path write(String name, SyntheticTrace trace) throws IOException {
        Path file = dir.resolve(name + ".jsonl");
        trace.writeTo(file);
        return file;
    }

    /** Every query command, on the runs of the corpus. */
    private static List<List<String>> commands() {
        List<List<String>> commands = new ArrayList<>();
        commands.add(List.of("runs", "--format", "json"));
        commands.add(List.of("runs", "--tag", "commit=cand", "--format", "csv"));
        commands.add(List.of("runs", "--entrypoint", "tinygpt::train::update", "--limit", "3", "--format", "json"));
        for (String run : List.of("train-s1", "infer-s2", "base-0", "cand-2", "infer-cpu", "deep")) {
            commands.add(List.of("show", run, "--format", "json"));
            for (String kind : List.of("slowest", "heaviest", "memory", "efficiency", "spans", "edges", "tensors",
                    "gradients", "health")) {
                commands.add(List.of("query", run, "--kind", kind, "--format", "json"));
            }
        }
        commands.add(List.of("query", "cand-1", "--kind", "slowest", "--format", "csv"));
        commands.add(List.of("compare", "base-0", "cand-0", "--format", "json"));
        commands.add(List.of("compare", "latest~1", "latest", "--format", "json"));
        commands.add(List.of("compare", "--baseline", "tag:commit=base", "--candidate", "tag:commit=cand", "--format",
                "json"));
        commands.add(List.of("history", "tinygpt::train::update/update/Model::forward/cross_entropy", "--format",
                "json"));
        commands.add(List.of("history", "tinygpt::train::update/update/Model::forward", "--entrypoint",
                "tinygpt::train::update", "--format", "csv"));
        commands.add(List.of("sql", "SELECT run_id, total_ms, node_count FROM runs ORDER BY run_key", "--format",
                "json"));
        commands.add(List.of("sql", "SELECT p.path, count(*) AS runs, sum(p.self_time_ns) AS self_time_ns FROM runs r "
                + "CROSS JOIN LATERAL run_path_stats(r.run_key) p GROUP BY p.path ORDER BY 3 DESC, 1 LIMIT 20",
                "--format", "json"));
        commands.add(List.of("sql", "SELECT status, path, delta_self_time_ns FROM compare_runs("
                + "(SELECT run_key FROM runs WHERE run_id = 'base-0'), (SELECT run_key FROM runs WHERE run_id = "
                + "'cand-0')) ORDER BY abs(delta_self_time_ns) DESC, path LIMIT 20", "--format", "json"));
        return commands;
    }

    /** The commands that write a file: the reports and the Chrome export. */
    private static List<List<String>> reports() {
        return List.of(List.of("report", "base-1"), List.of("report", "deep"), List.of("report", "--compare",
                "base-0", "cand-0"), List.of("report", "--compare", "tag:commit=base", "tag:commit=cand"),
                List.of("export", "cand-1", "--format", "chrome"));
    }

    private static String[] with(List<String> command, Path output) {
        List<String> args = new ArrayList<>(command);
        args.add("-o");
        args.add(output.toString());
        return args.toArray(new String[0]);
    }

    /** The trace as the import would store it (read, checked and built the same way). */
    private static RunToStore runToStore(Path trace) throws Exception {
        byte[] bytes = Files.readAllBytes(trace);
        String name = trace.toString();
        TraceDocument doc = new JacksonTraceReader().read(name, new ByteArrayInputStream(bytes));
        GraphOutcome.Built built = (GraphOutcome.Built) GraphBuilder.build(doc);
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        return new RunToStore(name, sha, bytes.length, doc.schema(), doc.run(), built.health(), built.graph());
    }

    /**
     * What each of {@link #CONTENTS} holds, as COPY writes it out (text format), in key order: the
     * {@code columns} given for a table (as {@link #columns} found them), else all of them.
     */
    private static Map<String, String> contents(DatabaseConfig db, Map<String, String> columns)
            throws SQLException, IOException {
        Map<String, String> contents = new LinkedHashMap<>();
        try (Connection c = connect(db)) {
            for (Map.Entry<String, String> table : CONTENTS.entrySet()) {
                if (!columns.isEmpty() && !columns.containsKey(table.getKey())) {
                    continue;
                }
                StringWriter out = new StringWriter();
                c.unwrap(PGConnection.class).getCopyAPI().copyOut("COPY (SELECT "
                        + columns.getOrDefault(table.getKey(), "*") + " FROM " + table.getKey() + " ORDER BY "
                        + table.getValue() + ") TO STDOUT", out);
                contents.put(table.getKey(), out.toString());
            }
        }
        return contents;
    }

    /** The columns of each of {@link #CONTENTS} that {@code db} has, in their order, comma-separated. */
    private static Map<String, String> columns(DatabaseConfig db) throws SQLException {
        Map<String, String> columns = new LinkedHashMap<>();
        try (Connection c = connect(db)) {
            for (String table : CONTENTS.keySet()) {
                List<String> names = new ArrayList<>();
                try (Statement s = c.createStatement(); java.sql.ResultSet rs = s.executeQuery("SELECT column_name "
                        + "FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = '"
                        + table + "' ORDER BY ordinal_position")) {
                    while (rs.next()) {
                        names.add("\"" + rs.getString(1) + "\"");
                    }
                }
                if (!names.isEmpty()) {
                    columns.put(table, String.join(", ", names));
                }
            }
        }
        return columns;
    }

    private static int newestMigration() throws IOException {
        try (var files = Files.list(Path.of("..", "db", "src", "main", "resources", "db", "migration"))) {
            return files.map(f -> f.getFileName().toString()).filter(n -> n.matches("V\\d+__.*\\.sql"))
                    .mapToInt(n -> Integer.parseInt(n.substring(1, n.indexOf("__")))).max().orElseThrow();
        }
    }

    private CliRun cli(DatabaseConfig db, String... args) {
        return CliRun.with(Map.of("TRACEGRAPH_DB_URL", db.jdbcUrl(), "TRACEGRAPH_DB_USER", db.user(),
                "TRACEGRAPH_DB_PASSWORD", db.password()), dir, args);
    }

    private DatabaseConfig createDatabase() throws SQLException {
        DatabaseConfig admin = PostgresExtension.server();
        String name = "tg_upgrade_fresh_" + UUID.randomUUID().toString().substring(0, 8);
        execute(admin, "CREATE DATABASE " + name);
        String url = old.jdbcUrl().replaceFirst("/[^/?]+(\\?|$)", "/" + name + "$1");
        return new DatabaseConfig(url, old.user(), old.password());
    }

    private static void dropDatabase(DatabaseConfig db) throws SQLException {
        String name = db.jdbcUrl().replaceFirst(".*/([^/?]+)(\\?.*)?$", "$1");
        execute(PostgresExtension.server(), "DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
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
