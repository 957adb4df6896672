package io.tracegraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tracegraph.json.SyntheticTrace;
import io.tracegraph.postgres.DatabaseConfig;
import io.tracegraph.postgres.PostgresExtension;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Four importer processes on overlapping archives while readers run {@code sql}, {@code compare}
 * and {@code runs} over and over: every run is stored exactly once, nobody deadlocks or fails, and
 * no reader ever sees a run without all of its rows.
 */
@ExtendWith(PostgresExtension.class)
class ConcurrentImportIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int TRACES = 16;
    /** Runs whose rows are not all there: must stay 0 whatever a reader's snapshot catches. */
    private static final String PARTIAL_RUNS = "SELECT count(*) AS partial FROM runs r WHERE "
            + "r.node_count <> (SELECT count(*) FROM nodes n WHERE n.run_key = r.run_key) "
            + "OR r.edge_count <> (SELECT count(*) FROM edges e WHERE e.run_key = r.run_key) "
            + "OR NOT EXISTS (SELECT 1 FROM graph_summaries g WHERE g.run_key = r.run_key) "
            + "OR NOT EXISTS (SELECT 1 FROM memory_summaries m WHERE m.run_key = r.run_key)";

    private final StoreProbe store;

    @TempDir
    Path dir;

    ConcurrentImportIT(DatabaseConfig db) {
        this.store = new StoreProbe(db);
    }

    @Test
    @Timeout(300)
    void fourImportersAndReadersAtOnceStoreEveryRunOnceAndReadersSeeOnlyWholeRuns() throws Exception {
        store.empty();
        List<byte[]> traces = new ArrayList<>();
        for (int i = 0; i < TRACES; i++) {
            StringWriter out = new StringWriter();
            (i % 2 == 0 ? SyntheticTrace.training() : SyntheticTrace.inference()).ops(200 + 10 * i).seed(500 + i)
                    .runId("concurrent-" + i).tag("commit", i < TRACES / 2 ? "a" : "b").writeTo(out);
            traces.add(out.toString().getBytes(StandardCharsets.UTF_8));
        }
        // Archive k holds traces 4k .. 4k+7 (mod 16): every trace is in two archives.
        List<Path> archives = new ArrayList<>();
        for (int k = 0; k < 4; k++) {
            List<Integer> members = new ArrayList<>();
            for (int j = 0; j < 8; j++) {
                members.add((4 * k + j) % TRACES);
            }
            archives.add(k % 2 == 0 ? tarGz(dir.resolve("batch-" + k + ".tar.gz"), members, traces)
                    : zip(dir.resolve("batch-" + k + ".zip"), members, traces));
        }

        List<Process> importers = new ArrayList<>();
        for (Path archive : archives) {
            importers.add(importer(archive));
        }
        AtomicBoolean importing = new AtomicBoolean(true);
        ConcurrentLinkedQueue<String> readerFailures = new ConcurrentLinkedQueue<>();
        AtomicInteger reads = new AtomicInteger();
        AtomicInteger comparisons = new AtomicInteger();
        ExecutorService readers = Executors.newFixedThreadPool(2);
        List<Future<?>> running = List.of(
                readers.submit(() -> readUntil(importing, () -> {
                    CliRun sql = CliRun.with(store.env(), dir, "sql", PARTIAL_RUNS, "--format", "json");
                    if (sql.status() != ExitCode.OK || JSON.readTree(sql.out()).get("rows").get(0).get("partial")
                            .asLong() != 0) {
                        readerFailures.add("sql: " + sql.status() + " " + sql.out() + sql.err());
                    }
                    CliRun runs = CliRun.with(store.env(), dir, "runs", "--format", "json");
                    if (runs.status() != ExitCode.OK) {
                        readerFailures.add("runs: " + runs.status() + " " + runs.err());
                    }
                    reads.incrementAndGet();
                })),
                readers.submit(() -> readUntil(importing, () -> {
                    CliRun compare = CliRun.with(store.env(), dir, "compare", "latest~1", "latest", "--format", "json");
                    if (compare.status() == ExitCode.OK) {
                        JSON.readTree(compare.out());
                        comparisons.incrementAndGet();
                    } else if (compare.status() != ExitCode.REJECTED || !compare.err().contains("not stored")
                            && !compare.err().contains("no runs are stored")) {
                        // Exit 1 is fine only while fewer than two runs are stored.
                        readerFailures.add("compare: " + compare.status() + " " + compare.err());
                    }
                })));

        List<JsonNode> summaries = new ArrayList<>();
        try {
            for (Process importer : importers) {
                assertThat(importer.waitFor(240, TimeUnit.SECONDS)).as("importer finished (no deadlock)").isTrue();
                String err = new String(importer.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(importer.exitValue()).as(err).isEqualTo(ExitCode.OK);
                summaries.add(JSON.readTree(importer.getInputStream()));
            }
        } finally {
            importing.set(false);
            importers.forEach(Process::destroyForcibly);
            readers.shutdown();
        }
        for (Future<?> reader : running) {
            reader.get(60, TimeUnit.SECONDS);
        }

        assertThat(readerFailures).isEmpty();
        assertThat(reads.get()).as("sql/runs rounds during the imports").isPositive();
        assertThat(summaries.stream().mapToLong(s -> s.get("imported").asLong()).sum()).isEqualTo(TRACES);
        assertThat(summaries.stream().mapToLong(s -> s.get("duplicates_skipped").asLong()).sum()).isEqualTo(TRACES);
        assertThat(store.row("SELECT count(*), count(DISTINCT run_id), count(DISTINCT content_sha256) FROM runs"))
                .containsExactly((long) TRACES, (long) TRACES, (long) TRACES);
        assertThat(store.count(PARTIAL_RUNS)).isZero();
        CliRun compare = CliRun.with(store.env(), dir, "compare", "--baseline", "tag:commit=a", "--candidate",
                "tag:commit=b", "--format", "json");
        assertThat(compare.status()).as(compare.err()).isEqualTo(ExitCode.OK);
    }

    private interface Read {
        void run() throws Exception;
    }

    private static Void readUntil(AtomicBoolean importing, Read read) throws Exception {
        do {
            read.run();
        } while (importing.get());
        return null;
    }

    private Process importer(Path archive) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", System.getProperty("tracegraph.jar"), "import", "--format", "json", "--jobs", "2",
                archive.toString());
        pb.environment().putAll(store.env());
        pb.environment().put("TRACEGRAPH_HOME", dir.resolve("home").toString());
        return pb.start();
    }

    private static Path tarGz(Path file, List<Integer> members, List<byte[]> traces) throws IOException {
        try (OutputStream out = Files.newOutputStream(file);
                TarArchiveOutputStream tar = new TarArchiveOutputStream(new GZIPOutputStream(out))) {
            for (int i : members) {
                TarArchiveEntry entry = new TarArchiveEntry("traces/t" + i + ".jsonl");
                entry.setSize(traces.get(i).length);
                tar.putArchiveEntry(entry);
                tar.write(traces.get(i));
                tar.closeArchiveEntry();
            }
        }
        return file;
    }

    private static Path zip(Path file, List<Integer> members, List<byte[]> traces) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipArchiveOutputStream zip = new ZipArchiveOutputStream(bytes)) {
            for (int i : members) {
                zip.putArchiveEntry(new ZipArchiveEntry("t" + i + ".jsonl"));
                zip.write(traces.get(i));
                zip.closeArchiveEntry();
            }
        }
        return Files.write(file, bytes.toByteArray());
    }
}
