package io.tracegraph.json;

import static org.assertj.core.api.Assertions.assertThat;

import io.tracegraph.domain.graph.ExecutionGraph;
import io.tracegraph.domain.graph.GraphBuilder;
import io.tracegraph.domain.graph.GraphOutcome;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The parallel graph writer writes exactly the bytes of the one-threaded one. */
class ParallelGraphWriterTest {
    @ParameterizedTest
    @ValueSource(strings = {"synthetic", "train_tiny", "infer_small", "train_quirks", "infer_quirks", "bom"})
    void writesTheSameBytesAsTheExpectedSampleGraph(String sample) throws IOException {
        ExecutionGraph graph = graph(sample + ".jsonl", resource(sample + ".jsonl"));

        byte[] parallel = parallel(graph, 3);

        assertThat(new String(parallel, StandardCharsets.UTF_8))
                .isEqualTo(new String(sequential(graph), StandardCharsets.UTF_8));
    }

    @Test
    void writesTheSameBytesForAGraphOfManyChunks() throws IOException {
        StringWriter trace = new StringWriter();
        SyntheticTrace.training().ops(30_000).seed(5).writeTo(trace);
        ExecutionGraph graph = graph("big.jsonl",
                new ByteArrayInputStream(trace.toString().getBytes(StandardCharsets.UTF_8)));
        assertThat(graph.edges().size()).isGreaterThan(3 * 8192);

        assertThat(parallel(graph, 2)).isEqualTo(sequential(graph));
        assertThat(parallel(graph, 5)).isEqualTo(sequential(graph));
    }

    @Test
    void writesTheSameBytesForATrace10GraphWithDeviceTimeAndCaptureFacts() throws IOException {
        StringWriter trace = new StringWriter();
        SyntheticTrace.training().ops(12_000).seed(8).schema(10).writeTo(trace);
        ExecutionGraph graph = graph("big10.jsonl",
                new ByteArrayInputStream(trace.toString().getBytes(StandardCharsets.UTF_8)));
        assertThat(graph.spans().stream().filter(n -> !n.deviceTimes().isEmpty()).count()).isGreaterThan(1000);
        assertThat(graph.capture()).isNotNull();

        String bytes = new String(parallel(graph, 3), StandardCharsets.UTF_8);
        assertThat(bytes).isEqualTo(new String(sequential(graph), StandardCharsets.UTF_8));
        assertThat(bytes).contains("\"device_times\": [", "\"slowest_device_spans\": [", "\"capture\": {",
                "\"tensor_stats\": [");
    }

    private static byte[] parallel(ExecutionGraph graph, int threads) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ParallelGraphWriter.write(graph, out, threads);
        return out.toByteArray();
    }

    private static byte[] sequential(ExecutionGraph graph) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        GraphJsonWriter.writeGraphSequentially(graph, out);
        return out.toByteArray();
    }

    private static ExecutionGraph graph(String name, InputStream in) {
        GraphOutcome outcome = GraphBuilder.build(new JacksonTraceReader().read(name, in));
        return ((GraphOutcome.Built) outcome).graph();
    }

    private static InputStream resource(String name) {
        return ParallelGraphWriterTest.class.getResourceAsStream("/conformance/" + name);
    }
}
