package io.tracegraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tracegraph.application.BuildGraph;
import io.tracegraph.application.TraceInput;
import io.tracegraph.application.TraceResult;
import io.tracegraph.domain.graph.ExecutionGraph;
import io.tracegraph.json.JacksonTraceReader;
import io.tracegraph.json.SyntheticTrace;
import io.tracegraph.postgres.Database;
import io.tracegraph.postgres.DatabaseConfig;
import io.tracegraph.postgres.PostgresExtension;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
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
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveOutputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tracegraph import} against a real PostgreSQL with the real migrations: the accepted /
 * rejected split of a nested archive, stored totals equal to {@code build}, idempotence, two
 * importers at once, and a killed importer or a killed connection leaving no partial run.
 */
@ExtendWith(PostgresExtension.class)
class ImportCommandIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final DatabaseConfig db;
    private final Map<String, String> env;

    @TempDir
    Path dir;

    ImportCommandIT(DatabaseConfig db) {
        this.db = db;
        this.env = Map.of("TRACEGRAPH_DB_URL", db.jdbcUrl(), "TRACEGRAPH_DB_USER", db.user(),
                "TRACEGRAPH_DB_PASSWORD", db.password());
    }

    @BeforeEach
    void emptyStore() throws SQLException {
        Database.open(db).close();
        sql("TRUNCATE " + String.join(", ", StoreProbe.WRITTEN_TABLES) + ", import_log");
    }

    @Test
    void importsANestedArchiveWithTheRightSplitAndTotals() throws Exception {
        Path archive = nestedArchive();

        CliRun first = CliRun.with(env, dir, "import", archive.toString(), "--format", "json");

        assertThat(first.status()).as(first.err()).isEqualTo(ExitCode.REJECTED);
        JsonNode summary = JSON.readTree(first.out());
        assertThat(summary.get("traces_seen").asLong()).isEqualTo(7);
        assertThat(summary.get("imported").asLong()).isEqualTo(4);
        assertThat(summary.get("rejected").asLong()).isEqualTo(3);
        List<String> reasons = new ArrayList<>();
        summary.get("rejections").forEach(r -> reasons.add(r.get("source").asText() + " => " + r.get("reason").asText()));
        assertThat(reasons).containsExactly(
                archive + "!day2/untrusted_cycle.jsonl => trace is structurally untrusted: span `s_cyc_a1` "
                        + "participates in a parent cycle; span `s_cyc_b1` participates in a parent cycle",
                archive + "!day2/bad/malformed_wrong_type.jsonl.gz => " + archive
                        + "!day2/bad/malformed_wrong_type.jsonl.gz:64: member `duration_ns`: expected an integer in "
                        + "0..9223372036854775807, found string \"2280\"",
                archive + "!inner.zip!untrusted_open_span.jsonl => trace is structurally untrusted: span `s23` "
                        + "was not closed");

        for (String sample : List.of("synthetic", "train_tiny", "infer_small", "train_quirks")) {
            ExecutionGraph graph = build(sample);
            List<Object> stored = row("SELECT r.total_ms, r.node_count, r.edge_count, m.peak_bytes, "
                    + "(SELECT count(*) FROM nodes n WHERE n.run_key = r.run_key), "
                    + "(SELECT count(*) FROM edges e WHERE e.run_key = r.run_key) "
                    + "FROM runs r JOIN memory_summaries m USING (run_key) WHERE r.run_id = '"
                    + graphRunId(sample) + "'");
            assertThat(stored).as(sample).containsExactly(graph.summary().totalMs(), (long) graph.spans().size(),
                    (long) graph.edges().size(), graph.summary().memory().peakBytes(), (long) graph.spans().size(),
                    (long) graph.edges().size());
        }

        CliRun second = CliRun.with(env, dir, "import", archive.toString(), "--format", "json");

        assertThat(second.status()).as(second.err()).isEqualTo(ExitCode.REJECTED);
        JsonNode again = JSON.readTree(second.out());
        assertThat(again.get("imported").asLong()).isZero();
        assertThat(again.get("duplicates_skipped").asLong()).isEqualTo(4);
        assertThat(again.get("previously_rejected").asLong()).isEqualTo(3);
        assertThat(again.get("rejected").asLong()).isZero();
        List<String> before = new ArrayList<>();
        again.get("rejections").forEach(r -> before.add(r.get("reason").asText()));
        assertThat(before).hasSize(3).allSatisfy(reason -> assertThat(reason).startsWith("rejected before: "));
        assertThat(row("SELECT count(*) FROM runs")).containsExactly(4L);
    }

    @Test
    void aSameRunIdWithOtherContentIsRejectedUnlessReplaced() throws Exception {
        Path original = dir.resolve("a.jsonl");
        SyntheticTrace.training().ops(200).seed(1).runId("same").writeTo(original);
        Path changed = dir.resolve("b.jsonl");
        SyntheticTrace.training().ops(300).seed(2).runId("same").writeTo(changed);
        assertThat(CliRun.with(env, dir, "import", original.toString()).status()).isEqualTo(ExitCode.OK);

        CliRun conflict = CliRun.with(env, dir, "import", changed.toString(), "--format", "json");

        assertThat(conflict.status()).isEqualTo(ExitCode.REJECTED);
        assertThat(conflict.out()).contains("run_id `same` is already stored with different content", "--replace");
        CliRun replaced = CliRun.with(env, dir, "import", changed.toString(), "--replace", "--format", "json");
        assertThat(replaced.status()).as(replaced.err()).isEqualTo(ExitCode.OK);
        assertThat(JSON.readTree(replaced.out()).get("replaced").asLong()).isEqualTo(1);
        assertThat(row("SELECT count(*), max(content_sha256) = (SELECT content_sha256 FROM import_log "
                + "WHERE outcome = 'replaced') FROM runs")).containsExactly(1L, true);
        assertThat(row("SELECT count(DISTINCT run_key) FROM nodes")).containsExactly(1L);
    }

    @Test
    void twoImportersAtOnceStoreEveryRunOnce() throws Exception {
        Path traces = Files.createDirectories(dir.resolve("traces"));
        for (int i = 0; i < 24; i++) {
            SyntheticTrace.training().ops(150 + i).seed(100 + i).writeTo(traces.resolve("t" + i + ".jsonl"));
        }
        Process a = importer(traces.toString(), "--jobs", "2");
        Process b = importer(traces.resolve("t3.jsonl").toString(), traces.toString(), "--jobs", "2");

        assertThat(a.waitFor(180, TimeUnit.SECONDS)).isTrue();
        assertThat(b.waitFor(180, TimeUnit.SECONDS)).isTrue();

        String errA = new String(a.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        String errB = new String(b.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(a.exitValue()).as(errA).isEqualTo(ExitCode.OK);
        assertThat(b.exitValue()).as(errB).isEqualTo(ExitCode.OK);
        JsonNode sa = JSON.readTree(a.getInputStream());
        JsonNode sb = JSON.readTree(b.getInputStream());
        assertThat(sa.get("imported").asLong() + sb.get("imported").asLong()).isEqualTo(24);
        assertThat(sa.get("duplicates_skipped").asLong() + sb.get("duplicates_skipped").asLong()).isEqualTo(25);
        assertThat(row("SELECT count(*), count(DISTINCT run_id), count(DISTINCT content_sha256) FROM runs"))
                .containsExactly(24L, 24L, 24L);
        assertThat(row("SELECT count(*) FROM graph_summaries")).containsExactly(24L);
    }

    @Test
    void aKilledImporterLeavesNoPartialRunAndTheRerunCompletes() throws Exception {
        Path big = dir.resolve("big.jsonl");
        SyntheticTrace.training().ops(150_000).seed(7).writeTo(big);
        Process importer = importer(big.toString());

        waitForCopy();
        importer.destroyForcibly();
        assertThat(importer.waitFor(60, TimeUnit.SECONDS)).isTrue();

        assertNothingStored();
        CliRun rerun = CliRun.with(env, dir, "import", big.toString(), "--format", "json");
        assertThat(rerun.status()).as(rerun.err()).isEqualTo(ExitCode.OK);
        assertThat(row("SELECT count(*) FROM runs")).containsExactly(1L);
    }

    @Test
    void aDroppedConnectionFailsTheImportWithoutAPartialRun() throws Exception {
        Path big = dir.resolve("big.jsonl");
        SyntheticTrace.training().ops(150_000).seed(8).writeTo(big);
        Process importer = importer(big.toString());

        long pid = waitForCopy();
        sql("SELECT pg_terminate_backend(" + pid + ")");
        assertThat(importer.waitFor(120, TimeUnit.SECONDS)).isTrue();

        String err = new String(importer.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(importer.exitValue()).as(err).isEqualTo(ExitCode.FAILURE);
        assertThat(err.lines().filter(l -> l.startsWith("error: "))).hasSize(1);
        assertThat(err).doesNotContain(db.password().isEmpty() ? "\u0000" : db.password());
        assertNothingStored();
        assertThat(CliRun.with(env, dir, "import", big.toString()).status()).isEqualTo(ExitCode.OK);
        assertThat(row("SELECT count(*) FROM runs")).containsExactly(1L);
    }

    private void assertNothingStored() throws SQLException {
        assertThat(row("SELECT (SELECT count(*) FROM runs), (SELECT count(*) FROM nodes), "
                + "(SELECT count(*) FROM edges), (SELECT count(*) FROM memory_timeline)"))
                .containsExactly(0L, 0L, 0L, 0L);
    }

    /** Waits until an importer is copying rows; returns its backend's pid. */
    private long waitForCopy() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            List<Object> copying = row("SELECT coalesce(max(pid), 0) FROM pg_stat_activity "
                    + "WHERE application_name = 'tracegraph' AND query LIKE 'COPY %' AND state = 'active'");
            long pid = ((Number) copying.get(0)).longValue();
            if (pid != 0) {
                return pid;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("the importer never started copying");
    }

    private Process importer(String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(javaBin(), "-jar", System.getProperty("tracegraph.jar"),
                "import", "--format", "json"));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().putAll(env);
        pb.environment().put("TRACEGRAPH_HOME", dir.resolve("home").toString());
        return pb.start();
    }

    private static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private ExecutionGraph build(String sample) {
        TraceResult result = new BuildGraph(new JacksonTraceReader()).build(new TraceInput(sample,
                () -> resource(sample + ".jsonl")));
        return ((TraceResult.Built) result).graph();
    }

    private static String graphRunId(String sample) throws IOException {
        try (InputStream in = resource(sample + ".jsonl")) {
            String firstLine = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().findFirst().orElseThrow();
            return JSON.readTree(firstLine).get("run_id").asText();
        }
    }

    private static InputStream resource(String name) {
        InputStream in = ImportCommandIT.class.getResourceAsStream("/conformance/" + name);
        assertThat(in).as(name).isNotNull();
        return in;
    }

    /** A tar.gz with directories, a gzipped entry and a zip inside, mixing good and bad traces. */
    private Path nestedArchive() throws IOException {
        ByteArrayOutputStream zip = new ByteArrayOutputStream();
        try (ZipArchiveOutputStream z = new ZipArchiveOutputStream(zip)) {
            for (String name : List.of("train_quirks.jsonl", "untrusted_open_span.jsonl")) {
                z.putArchiveEntry(new ZipArchiveEntry(name));
                z.write(bytes(name));
                z.closeArchiveEntry();
            }
        }
        Path archive = dir.resolve("runs.tar.gz");
        try (OutputStream file = Files.newOutputStream(archive);
                TarArchiveOutputStream tar = new TarArchiveOutputStream(new GZIPOutputStream(file))) {
            add(tar, "day1/synthetic.jsonl", bytes("synthetic.jsonl"));
            add(tar, "day1/nested/train_tiny.jsonl.gz", gzip(bytes("train_tiny.jsonl")));
            add(tar, "day2/infer_small.jsonl", bytes("infer_small.jsonl"));
            add(tar, "day2/untrusted_cycle.jsonl", bytes("untrusted_cycle.jsonl"));
            add(tar, "day2/bad/malformed_wrong_type.jsonl.gz", gzip(bytes("malformed_wrong_type.jsonl")));
            add(tar, "inner.zip", zip.toByteArray());
            add(tar, "README.txt", "not a trace".getBytes(StandardCharsets.UTF_8));
        }
        return archive;
    }

    private static void add(TarArchiveOutputStream tar, String name, byte[] content) throws IOException {
        TarArchiveEntry entry = new TarArchiveEntry(name);
        entry.setSize(content.length);
        tar.putArchiveEntry(entry);
        tar.write(content);
        tar.closeArchiveEntry();
    }

    private static byte[] bytes(String sample) throws IOException {
        try (InputStream in = resource(sample)) {
            return in.readAllBytes();
        }
    }

    private static byte[] gzip(byte[] content) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(content);
        }
        return out.toByteArray();
    }

    private void sql(String statement) throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute(statement);
        }
    }

    private List<Object> row(String query) throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(query)) {
            assertThat(rs.next()).as(query).isTrue();
            List<Object> values = new ArrayList<>();
            for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                values.add(rs.getObject(i));
            }
            return values;
        }
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
    }
}
