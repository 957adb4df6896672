package io.tracegraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tracegraph.json.SyntheticTrace;
import io.tracegraph.postgres.DatabaseConfig;
import io.tracegraph.postgres.PostgresExtension;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;
import org.apache.commons.compress.archivers.zip.UnixStat;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveOutputStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile inputs through {@code tracegraph import} into a real PostgreSQL: the whole corpus of
 * malformed and untrusted traces (each rejected with its one-line reason, nothing of it stored),
 * and a batch mixing good traces with archive bombs, a corrupt archive, entries named
 * {@code ../..} or absolute, links, and 10,000 tiny entries (the good ones stored once each,
 * nothing written anywhere).
 */
@ExtendWith(PostgresExtension.class)
class HostileImportIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final StoreProbe store;

    @TempDir
    Path dir;

    HostileImportIT(DatabaseConfig db) {
        this.store = new StoreProbe(db);
    }

    @BeforeEach
    void emptyStore() throws SQLException {
        store.empty();
    }

    @Test
    @Timeout(300)
    void theWholeHostileCorpusIsRejectedOneLineEachAndNothingIsStored() throws Exception {
        Path corpus = dir.resolve("corpus");
        List<HostileCorpus.Case> cases = new ArrayList<>(HostileCorpus.malformed(corpus.resolve("bad-traces")));
        cases.addAll(HostileCorpus.untrusted(corpus.resolve("untrusted-traces")));
        Path longLine = Files.createDirectories(corpus.resolve("long-line")).resolve("long-line.jsonl");
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(longLine), 1 << 20)) {
            HostileTracesTest.writeLongLineTrace(out);
        }

        CliRun first = importing(corpus.toString());

        assertThat(first.status()).as(first.err()).isEqualTo(ExitCode.REJECTED);
        assertThat(first.err()).doesNotContain("Exception", "\tat ");
        JsonNode summary = JSON.readTree(first.out());
        assertThat(summary.get("traces_seen").asLong()).isEqualTo(cases.size() + 1);
        assertThat(summary.get("imported").asLong()).isZero();
        Map<String, String> reasons = reasons(summary);
        assertThat(reasons).hasSize(cases.size() + 1);
        assertThat(reasons.values()).allSatisfy(reason -> assertThat(reason).isNotBlank().doesNotContain("\n"));
        for (HostileCorpus.Case bad : cases) {
            String reason = reasons.get(bad.file().toString());
            assertThat(reason).as(bad.name()).isNotNull();
            if (reason.startsWith("rejected before: ")) {
                continue; // the same bytes as another case of the corpus, rejected a moment earlier
            }
            if (bad.name().endsWith(".gz") && bad.message().contains("corrupt or truncated gzip data")) {
                // The walker decompresses archives' and files' gzip layers itself, in its own words.
                assertThat(reason).as(bad.name()).contains("corrupt or truncated gzip data: ");
            } else {
                assertThat(bad.matches(reason)).as("%s: %s", bad.name(), reason).isTrue();
            }
        }
        assertThat(reasons.get(longLine.toString())).isEqualTo(longLine + ":2: line is longer than 67108864 bytes");
        store.assertNoRunData();
        assertThat(store.count("SELECT count(*) FROM import_log WHERE outcome IN ('rejected', 'previously_rejected')"))
                .isEqualTo(cases.size() + 1);

        CliRun again = importing(corpus.toString());

        assertThat(again.status()).as(again.err()).isEqualTo(ExitCode.REJECTED);
        JsonNode second = JSON.readTree(again.out());
        assertThat(second.get("imported").asLong()).isZero();
        assertThat(reasons(second)).hasSize(cases.size() + 1);
        store.assertNoRunData();
    }

    @Test
    @Timeout(300)
    void aHostileBatchStoresItsGoodTracesOnceAndRefusesTheRestOneLineEach() throws Exception {
        Path batch = Files.createDirectories(dir.resolve("batch"));
        String tag = UUID.randomUUID().toString().substring(0, 8);
        Path parentEscape = dir.resolve("escape-" + tag + ".jsonl");
        Path absolute = Path.of("/tmp/tracegraph-absolute-" + tag + ".jsonl");
        Path zipEscape = batch.resolve("zip-escape-" + tag + ".jsonl");
        Path zipAbsolute = Path.of("/tracegraph-absolute-" + tag + ".jsonl");

        Path good1 = write(batch.resolve("good-1.jsonl"), good(1));
        Path gzipBomb = write(batch.resolve("bomb.jsonl.gz"), gzip(newlines(100 << 20)));
        Path zipBomb = write(batch.resolve("zip-bomb.zip"), zip(Map.of("bomb.jsonl", newlines(100 << 20))));
        byte[] tgz = gzip(tar(new Entry("good-2.jsonl", good(2)), new Entry("filler.bin", noise(2 << 20)),
                new Entry("good-3.jsonl", good(3))));
        Path cut = write(batch.resolve("cut.tar.gz"), Arrays.copyOf(tgz, tgz.length * 3 / 5));
        Path evilTar = write(batch.resolve("evil.tar"), tar(
                new Entry("../../" + parentEscape.getFileName(), good(4)),
                new Entry(absolute.toString(), good(5)),
                link("passwd.jsonl", TarConstants.LF_SYMLINK, "/etc/passwd"),
                link("hard.jsonl", TarConstants.LF_LINK, "../../" + parentEscape.getFileName()),
                link("tty.jsonl", TarConstants.LF_CHR, "")));
        Map<String, byte[]> zipEntries = new LinkedHashMap<>();
        zipEntries.put("../" + zipEscape.getFileName(), good(6));
        zipEntries.put(zipAbsolute.toString(), good(7));
        zipEntries.put("shadow.jsonl -> /etc/shadow", "/etc/shadow".getBytes(StandardCharsets.UTF_8));
        Path evilZip = write(batch.resolve("evil.zip"), zip(zipEntries));
        Path links = Files.createDirectories(batch.resolve("links"));
        Files.createSymbolicLink(links.resolve("passwd.jsonl"), Path.of("/etc/passwd"));
        Files.createSymbolicLink(links.resolve("root.tar"), Path.of("/"));
        write(links.resolve("good-8.jsonl"), good(8));
        Entry[] tiny = new Entry[10_000];
        for (int i = 0; i < tiny.length; i++) {
            tiny[i] = new Entry(String.format("tiny/run-%05d.jsonl", i), tinyTrace());
        }
        Path tinyTar = write(batch.resolve("tiny.tar.gz"), gzip(tar(tiny)));
        Path good9 = write(batch.resolve("good-9.jsonl"), good(9));
        List<Path> before = tree(dir);

        long start = System.nanoTime();
        CliRun run = importing(good1.toString(), gzipBomb.toString(), zipBomb.toString(), cut.toString(),
                evilTar.toString(), evilZip.toString(), links.toString(), tinyTar.toString(), good9.toString(),
                "--max-trace-size", "64m");
        long seconds = (System.nanoTime() - start) / 1_000_000_000L;

        assertThat(run.status()).as(run.err()).isEqualTo(ExitCode.REJECTED);
        assertThat(run.err()).doesNotContain("Exception", "\tat ");
        JsonNode summary = JSON.readTree(run.out());
        Map<String, String> reasons = reasons(summary);
        assertThat(reasons.keySet()).containsExactly(gzipBomb.toString(), zipBomb + "!bomb.jsonl", cut.toString(),
                links.resolve("passwd.jsonl").toString());
        assertThat(reasons.get(gzipBomb.toString())).isEqualTo(gzipBomb + ": larger than the limit of 67108864 bytes");
        assertThat(reasons.get(zipBomb + "!bomb.jsonl"))
                .isEqualTo(zipBomb + "!bomb.jsonl: larger than the limit of 67108864 bytes");
        assertThat(reasons.get(cut.toString())).startsWith("truncated");
        assertThat(reasons.get(links.resolve("passwd.jsonl").toString())).startsWith(links.resolve("passwd.jsonl") + ":1: ");
        assertThat(summary.get("imported").asLong()).isEqualTo(9);
        assertThat(summary.get("duplicates_skipped").asLong()).isEqualTo(9_999);
        assertThat(seconds).as("seconds for the batch").isLessThan(120);

        List<String> sources = store.rows("SELECT source_name FROM runs").stream().map(r -> (String) r.get(0))
                .collect(Collectors.toList());
        // The 10,000 tiny entries have the same content: whichever job got there first stored it.
        assertThat(sources).filteredOn(source -> source.startsWith(tinyTar + "!tiny/run-")).hasSize(1);
        assertThat(sources).filteredOn(source -> !source.startsWith(tinyTar + "!"))
                .containsExactlyInAnyOrder(good1.toString(), cut + "!good-2.jsonl",
                        evilTar + "!../../" + parentEscape.getFileName(), evilTar + "!" + absolute,
                        evilZip + "!../" + zipEscape.getFileName(), evilZip + "!" + zipAbsolute,
                        links.resolve("good-8.jsonl").toString(), good9.toString());
        assertThat(store.count("SELECT count(*) FROM runs WHERE node_count <> (SELECT count(*) FROM nodes n "
                + "WHERE n.run_key = runs.run_key)")).isZero();
        assertThat(tree(dir)).as("nothing written beside the inputs").isEqualTo(before);
        for (Path outside : List.of(parentEscape, dir.getParent().resolve(parentEscape.getFileName()), absolute,
                zipEscape, zipAbsolute)) {
            assertThat(outside).doesNotExist();
        }
    }

    // ---- inputs ------------------------------------------------------------------------------------

    private CliRun importing(String... paths) {
        List<String> args = new ArrayList<>(List.of("import", "--format", "json"));
        args.addAll(List.of(paths));
        return CliRun.with(store.env(), dir.resolve("no-home"), args.toArray(new String[0]));
    }

    private static Map<String, String> reasons(JsonNode summary) {
        Map<String, String> reasons = new LinkedHashMap<>();
        summary.get("rejections").forEach(r -> reasons.put(r.get("source").asText(), r.get("reason").asText()));
        return reasons;
    }

    private static byte[] good(int seed) throws IOException {
        StringWriter out = new StringWriter();
        SyntheticTrace.inference().ops(40).seed(seed).runId("good-" + seed).writeTo(out);
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] tinyTrace() {
        return ("{\"kind\":\"meta\",\"schema\":\"candle-graph/trace/6\",\"run_id\":\"tiny\",\"correlation_id\":\"c\","
                + "\"entrypoint\":\"tiny\",\"phase\":\"infer\",\"timestamp\":\"2026-08-04T18:00:00Z\",\"capture_step\":0,"
                + "\"warmup_steps\":0,\"device\":\"cpu\",\"timing_mode\":\"host\",\"tags\":{}}\n"
                + "{\"kind\":\"span_start\",\"id\":\"root\",\"name\":\"tiny\",\"start_ns\":0,\"span_kind\":\"function\","
                + "\"measured\":true}\n{\"kind\":\"span_end\",\"id\":\"root\",\"duration_ns\":1}\n")
                .getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] newlines(int n) {
        byte[] b = new byte[n];
        Arrays.fill(b, (byte) '\n');
        return b;
    }

    private static byte[] noise(int n) {
        byte[] b = new byte[n];
        new java.util.SplittableRandom(n).nextBytes(b);
        return b;
    }

    private static Path write(Path file, byte[] content) throws IOException {
        return Files.write(file, content);
    }

    private static byte[] gzip(byte[] content) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out, 1 << 16)) {
            gz.write(content);
        }
        return out.toByteArray();
    }

    /** A tar entry: a file with content, or a link or device ({@code content} null). */
    private record Entry(TarArchiveEntry header, byte[] content) {
        Entry(String name, byte[] content) {
            this(new TarArchiveEntry(name, true), content);
        }
    }

    private static Entry link(String name, byte type, String target) {
        TarArchiveEntry header = new TarArchiveEntry(name, type);
        header.setLinkName(target);
        return new Entry(header, null);
    }

    private static byte[] tar(Entry... entries) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(out)) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            for (Entry e : entries) {
                if (e.content() != null) {
                    e.header().setSize(e.content().length);
                }
                tar.putArchiveEntry(e.header());
                if (e.content() != null) {
                    tar.write(e.content());
                }
                tar.closeArchiveEntry();
            }
        }
        return out.toByteArray();
    }

    /** A zip; an entry named {@code NAME -> TARGET} is a Unix symbolic link to TARGET. */
    private static byte[] zip(Map<String, byte[]> entries) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZipArchiveOutputStream zip = new ZipArchiveOutputStream(out)) {
            for (Map.Entry<String, byte[]> e : entries.entrySet()) {
                String name = e.getKey();
                ZipArchiveEntry entry;
                if (name.contains(" -> ")) {
                    entry = new ZipArchiveEntry(name.substring(0, name.indexOf(" -> ")));
                    entry.setUnixMode(UnixStat.LINK_FLAG | 0777);
                } else {
                    entry = new ZipArchiveEntry(name);
                }
                zip.putArchiveEntry(entry);
                zip.write(e.getValue());
                zip.closeArchiveEntry();
            }
        }
        return out.toByteArray();
    }

    private static List<Path> tree(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.sorted().collect(Collectors.toList());
        }
    }
}
