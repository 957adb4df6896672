package io.tracegraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The commands read a trace in the form its content shows, the name deciding only where it cannot. */
class InputDiscoveryTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String DOCUMENT = "{\"schema\":\"candle-graph/trace/6\",\"run\":{\"run_id\":\"r\","
            + "\"correlation_id\":\"c\",\"entrypoint\":\"e\",\"phase\":\"train\",\"timestamp\":\"t\","
            + "\"capture_step\":1,\"warmup_steps\":0,\"device\":\"cpu\",\"timing_mode\":\"host\",\"tags\":{}},"
            + "\"spans\":[{\"id\":\"root\",\"name\":\"step\",\"kind\":\"function\",\"measured\":true,"
            + "\"start_ns\":0,\"closed\":true,\"duration_ns\":10}]}";

    @TempDir
    Path dir;

    @Test
    void buildsJsonlWhateverTheFileIsCalled() throws IOException {
        Path jsonl = dir.resolve("train_tiny.jsonl");
        try (InputStream in = InputDiscoveryTest.class.getResourceAsStream("/conformance/train_tiny.jsonl")) {
            Files.copy(in, jsonl);
        }
        String expected;
        try (InputStream in = InputDiscoveryTest.class.getResourceAsStream("/conformance/train_tiny.graph.json")) {
            expected = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        for (String name : new String[] {"train_tiny.jsonl", "train_tiny.json", "train_tiny.trace"}) {
            Path file = dir.resolve(name);
            if (!Files.exists(file)) {
                Files.copy(jsonl, file);
            }

            CliRun run = CliRun.of("build", file.toString());

            assertThat(run.err()).as(name).isEmpty();
            assertThat(run.status()).as(name).isEqualTo(ExitCode.OK);
            assertThat(JSON.readTree(run.out())).as(name).isEqualTo(JSON.readTree(expected));
        }
    }

    @Test
    void readsTheWholeDocumentFormWhateverTheFileIsCalled() throws IOException {
        Path json = Files.writeString(dir.resolve("doc.json"), DOCUMENT);
        Path jsonl = Files.writeString(dir.resolve("doc.jsonl"), DOCUMENT);

        CliRun asJson = CliRun.of("build", json.toString());
        CliRun asJsonl = CliRun.of("build", jsonl.toString());

        assertThat(asJson.err()).isEmpty();
        assertThat(asJson.status()).isEqualTo(ExitCode.OK);
        assertThat(asJsonl.err()).isEmpty();
        assertThat(asJsonl.status()).isEqualTo(ExitCode.OK);
        assertThat(asJsonl.out()).isEqualTo(asJson.out());
        assertThat(JSON.readTree(asJson.out()).get("spans")).hasSize(1);
    }

    @Test
    void leavesContentThatTellsNothingToTheReaderTheNameChooses() throws IOException {
        Path json = Files.writeString(dir.resolve("empty.json"), "[]");
        Path jsonl = Files.writeString(dir.resolve("empty.jsonl"), "[]");

        CliRun asJson = CliRun.of("build", json.toString());
        CliRun asJsonl = CliRun.of("build", jsonl.toString());

        assertThat(asJson.status()).isEqualTo(ExitCode.REJECTED);
        assertThat(asJson.err()).startsWith("error: " + json + ":1:").contains("whole trace document");
        assertThat(asJsonl.status()).isEqualTo(ExitCode.REJECTED);
        assertThat(asJsonl.err()).startsWith("error: " + jsonl + ":1:").doesNotContain("document");
    }
}
