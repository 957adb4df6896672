package io.tracegraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tracegraph.postgres.DatabaseConfig;
import io.tracegraph.postgres.PostgresExtension;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real PyTorch profiler traces (adapters-json's test resources {@code pytorch/}) through the
 * command line and a real PostgreSQL: a directory of them imports whole, once; two trace files
 * compare; hostile PyTorch traces are refused one line each with nothing stored.
 */
@ExtendWith(PostgresExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PyTorchImportIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    static final List<String> TRACES = List.of("hta-a100-alexnet.json.gz", "hta-backward-thread.json",
            "hta-cpu-only.pt.trace.json.gz", "hta-large-integer.json.gz", "hta-mi250-minitoy-train.json.gz",
            "hta-trace-compare-base.json.gz", "hta-trace-compare-test.json.gz",
            "kineto-tb-plugin-resnet50-workers0.pt.trace.json.gz", "tracelens-h100-bert-small.json.gz",
            "tracelens-mi300-bert-small.json.gz", "tracelens-mi300-torch-compile-triton.json.gz");

    private final StoreProbe store;
    private final Map<String, String> env;

    @TempDir
    static Path dir;

    PyTorchImportIT(DatabaseConfig db) {
        this.store = new StoreProbe(db);
        this.env = store.env();
    }

    @BeforeAll
    void copyTheTraces() throws Exception {
        Path traces = Files.createDirectories(dir.resolve("traces"));
        for (String name : TRACES) {
            try (InputStream in = PyTorchImportIT.class.getResourceAsStream("/pytorch/" + name)) {
                assertThat(in).as(name).isNotNull();
                Files.copy(in, traces.resolve(name));
            }
        }
        store.empty();
    }

    private CliRun run(String... args) {
        return CliRun.with(env, dir, args);
    }

    @Test
    void aDirectoryOfRealTracesImportsWholeAndOnce() throws Exception {
        CliRun first = run("import", dir.resolve("traces").toString(), "--format", "json");
        assertThat(first.status()).as(first.err()).isEqualTo(ExitCode.OK);
        JsonNode summary = JSON.readTree(first.out());
        assertThat(summary.get("imported").asLong()).isEqualTo(TRACES.size());
        assertThat(store.count("SELECT count(*) FROM runs WHERE entrypoint = 'torch.profiler'"))
                .isEqualTo(TRACES.size());
        // Stored nodes are the graph's nodes: the same count as `build` gives.
        JsonNode built = JSON.readTree(run("build", dir.resolve("traces/tracelens-h100-bert-small.json.gz").toString())
                .out());
        assertThat(store.count("SELECT count(*) FROM nodes n JOIN runs r USING (run_key) "
                + "WHERE r.source_name LIKE '%tracelens-h100-bert-small.json.gz'")).isEqualTo(built.get("spans").size());

        CliRun again = run("import", dir.resolve("traces").toString(), "--format", "json");
        assertThat(again.status()).as(again.err()).isEqualTo(ExitCode.OK);
        assertThat(JSON.readTree(again.out()).get("imported").asLong()).isZero();
        assertThat(store.count("SELECT count(*) FROM runs WHERE entrypoint = 'torch.profiler'"))
                .isEqualTo(TRACES.size());
    }

    @Test
    void twoTraceFilesCompareAndEveryTraceCommandReadsOne() {
        String h100 = dir.resolve("traces/tracelens-h100-bert-small.json.gz").toString();
        String mi300 = dir.resolve("traces/tracelens-mi300-bert-small.json.gz").toString();
        CliRun compare = run("compare", h100, mi300, "--format", "json");
        assertThat(compare.status()).as(compare.err()).isEqualTo(ExitCode.OK);
        assertThat(compare.out()).contains("torch.profiler/ProfilerStep");
        assertThat(run("check", h100).status()).isEqualTo(ExitCode.OK);
        assertThat(run("query", h100, "--kind", "slowest", "--format", "json").status()).isEqualTo(ExitCode.OK);
        assertThat(run("report", h100, "-o", dir.resolve("h100.html").toString()).status()).isEqualTo(ExitCode.OK);
        assertThat(run("export", mi300, "--format", "chrome", "-o", dir.resolve("mi300.trace.json").toString())
                .status()).isEqualTo(ExitCode.OK);
    }

    @Test
    void hostilePyTorchTracesAreRefusedOneLineEachAndNothingOfThemIsStored() throws Exception {
        Path bad = Files.createDirectories(dir.resolve("bad"));
        String event = "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"a\", \"pid\": 1, \"tid\": 1, \"ts\": 1, \"dur\": 1}";
        write(bad.resolve("cut.pt.trace.json"), "{\"traceEvents\": [\n" + event + ",\n{\"ph\": \"X\"");
        write(bad.resolve("no-ts.json"), "{\"traceEvents\": [\n" + event.replace("\"ts\": 1, ", "") + "\n]}");
        write(bad.resolve("negative.json"), "[\n" + event.replace("\"dur\": 1", "\"dur\": -1") + "\n]");
        byte[] bomb = gzip(("{\"traceEvents\": [" + " ".repeat(1 << 20)).getBytes(StandardCharsets.UTF_8), 100);
        Files.write(bad.resolve("bomb.pt.trace.json.gz"), bomb);
        long runsBefore = store.count("SELECT count(*) FROM runs");

        CliRun refused = run("import", bad.toString(), "--max-trace-size", "64m", "--format", "json");
        assertThat(refused.status()).as(refused.err()).isEqualTo(ExitCode.REJECTED);
        assertThat(refused.err()).doesNotContain("Exception", "\tat ");
        Map<String, String> reasons = new LinkedHashMap<>();
        JSON.readTree(refused.out()).get("rejections")
                .forEach(r -> reasons.put(Path.of(r.get("source").asText()).getFileName().toString(),
                        r.get("reason").asText()));
        assertThat(reasons).containsOnlyKeys("bomb.pt.trace.json.gz", "cut.pt.trace.json", "negative.json",
                "no-ts.json");
        assertThat(reasons.get("bomb.pt.trace.json.gz")).endsWith("larger than the limit of 67108864 bytes");
        assertThat(reasons.get("cut.pt.trace.json")).endsWith(
                "cut.pt.trace.json:3: invalid JSON: unexpected end of input (the file is cut short)");
        assertThat(reasons.get("no-ts.json")).endsWith("no-ts.json:2: complete event has no `ts`");
        assertThat(reasons.get("negative.json")).endsWith("negative.json:2: member `dur` is negative: -1 µs");
        assertThat(reasons.values()).allMatch(r -> !r.contains("\n"));
        assertThat(store.count("SELECT count(*) FROM runs")).isEqualTo(runsBefore);

        for (String name : List.of("cut.pt.trace.json", "no-ts.json", "negative.json")) {
            CliRun build = run("build", bad.resolve(name).toString());
            assertThat(build.status()).isEqualTo(ExitCode.REJECTED);
            assertThat(build.err().lines()).singleElement().asString().startsWith("error: " + bad.resolve(name));
            assertThat(build.out()).isEmpty();
        }
    }

    private static void write(Path file, String text) throws IOException {
        Files.writeString(file, text);
    }

    /** The bytes gzipped, then {@code copies} more copies of the last part (a bomb: 100 MiB of spaces). */
    private static byte[] gzip(byte[] start, int copies) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream gz = new GZIPOutputStream(bytes)) {
            gz.write(start);
            byte[] spaces = new byte[1 << 20];
            Arrays.fill(spaces, (byte) ' ');
            for (int i = 0; i < copies; i++) {
                gz.write(spaces);
            }
        }
        return bytes.toByteArray();
    }
}
