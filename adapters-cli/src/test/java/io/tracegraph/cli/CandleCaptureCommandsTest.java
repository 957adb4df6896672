package io.tracegraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** build and check of candle-graph trace/10 captures, complete and failed (docs/decisions.md). */
class CandleCaptureCommandsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    private static Path sample(String name) throws IOException {
        Path target = dir.resolve(name);
        try (InputStream in = CandleCaptureCommandsTest.class.getResourceAsStream("/candle/" + name)) {
            Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
        }
        return target;
    }

    @Test
    void buildPrintsTheGraphOfACompleteTrace10CaptureWithItsCaptureFacts() throws IOException {
        CliRun run = CliRun.of("build", sample("trace10_train.jsonl").toString());

        assertThat(run.status()).isEqualTo(ExitCode.OK);
        assertThat(run.err()).isEmpty();
        JsonNode graph = JSON.readTree(run.out());
        assertThat(graph).isEqualTo(JSON.readTree(sample("trace10_train.graph.json").toFile()));
        assertThat(graph.get("capture").get("outcome").asText()).isEqualTo("complete");
    }

    @Test
    void buildOfAFailedCapturePrintsItsPartialGraphAndExitsWithOne() throws IOException {
        Path trace = sample("trace10_failed.jsonl");

        CliRun run = CliRun.of("build", trace.toString());

        assertThat(run.status()).isEqualTo(ExitCode.REJECTED);
        assertThat(run.err()).isEqualTo("error: capture failed: CUDA out of memory\n");
        JsonNode graph = JSON.readTree(run.out());
        assertThat(graph).isEqualTo(JSON.readTree(sample("trace10_failed.graph.json").toFile()));
        assertThat(graph.get("capture").get("outcome").asText()).isEqualTo("failed");
        assertThat(graph.get("capture").get("reason").asText()).isEqualTo("CUDA out of memory");
    }

    @Test
    void checkOfAFailedCaptureReportsItNotCaptureCompleteAndExitsWithOne() throws IOException {
        CliRun run = CliRun.of("check", sample("trace10_failed.jsonl").toString());

        assertThat(run.status()).isEqualTo(ExitCode.REJECTED);
        assertThat(run.err()).isEqualTo("error: capture failed: CUDA out of memory\n");
        JsonNode health = JSON.readTree(run.out());
        assertThat(health.get("trusted").asBoolean()).isFalse();
        assertThat(health.get("structurally_valid").asBoolean()).isTrue();
        assertThat(health.get("capture_complete").asBoolean()).isFalse();
    }
}
