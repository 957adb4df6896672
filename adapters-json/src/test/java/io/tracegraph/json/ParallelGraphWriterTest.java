package io.tracegraph.json;

import static org.assertj.core.api.Assertions.assertThat;

import io.tracegraph.domain.graph.ExecutionGraph;
import io.tracegraph.domain.graph.GradientRecord;
import io.tracegraph.domain.graph.GraphBuilder;
import io.tracegraph.domain.graph.GraphOutcome;
import io.tracegraph.domain.graph.TensorRecord;
import io.tracegraph.domain.memory.CategoryBytes;
import io.tracegraph.domain.memory.LiveAllocation;
import io.tracegraph.domain.memory.MemoryProfile;
import io.tracegraph.domain.memory.MemoryTimeline;
import io.tracegraph.domain.memory.TimelinePoint;
import io.tracegraph.domain.trace.GradientState;
import io.tracegraph.domain.trace.MemoryCategory;
import io.tracegraph.domain.trace.Shape;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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

    @Test
    void writesTensorsAndThePeakBreakdownWithStringsToEscapeAsJacksonDoes() throws IOException {
        ExecutionGraph built = graph("train_tiny.jsonl", resource("train_tiny.jsonl"));
        assertThat(built.memory().timeline()).isInstanceOf(MemoryTimeline.class);
        assertThat(built.tensors()).isNotEmpty();
        assertThat(built.memory().peakBreakdown()).isNotEmpty();
        // Plain elements on both sides of elements the plain writer declines (a quote, a
        // backslash, a control character, non-ASCII), with and without the optional members.
        List<TensorRecord> tensors = new ArrayList<>(built.tensors());
        tensors.add(1, new TensorRecord("s\"q", "t1", Shape.of(2, 3), "f32", "cuda:0", true, 24,
                MemoryCategory.ACTIVATION, null));
        tensors.add(new TensorRecord("s2", "t\\b", Shape.SCALAR, "f32", "cpu", false, 0, MemoryCategory.OTHER,
                "lab\u00e9l"));
        tensors.add(new TensorRecord("s2", "t9", Shape.of(7), "bf16", "cuda:1", false, 14, MemoryCategory.GRADIENT,
                "label"));
        List<LiveAllocation> peak = new ArrayList<>(built.memory().peakBreakdown());
        peak.add(0, new LiveAllocation("t\n1", "s2", null, 8, Shape.SCALAR, "f64", "cpu", MemoryCategory.OTHER));
        peak.add(new LiveAllocation("t2", "s\u00ff", "add", 16, Shape.of(4), "f32", "cuda:0",
                MemoryCategory.ACTIVATION, "st-1"));
        peak.add(new LiveAllocation("t3", "s3", "mul", 32, Shape.of(2, 2, 2), "f32", "cuda:0",
                MemoryCategory.GRADIENT, "st\u00012"));
        peak.add(new LiveAllocation("t4", "s3", "mul", 64, Shape.of(1), "f32", "cuda:0",
                MemoryCategory.PARAMETER, "st-4"));
        MemoryProfile memory = built.memory();
        ExecutionGraph graph = new ExecutionGraph(built.schema(), built.spans(), built.edges(), tensors,
                built.gradients(), built.summary(), new MemoryProfile(memory.summary(), memory.timeline(), peak,
                        memory.byDevice()), built.capture(), built.tensorStats());

        String bytes = new String(parallel(graph, 3), StandardCharsets.UTF_8);

        assertThat(bytes).isEqualTo(new String(sequential(graph), StandardCharsets.UTF_8));
        assertThat(bytes).contains("\"s\\\"q\"", "\"t\\\\b\"", "\"lab\u00e9l\"", "\"t\\n1\"", "\"st\\u00012\"",
                "\"storage_id\": \"st-4\"", "\"label\": \"label\"");
    }

    @Test
    void writesGradientsAsJacksonDoes() throws IOException {
        ExecutionGraph built = graph("train_tiny.jsonl", resource("train_tiny.jsonl"));
        // Norms Jackson spells in every form (exponents, negative zero, the extremes), a norm it
        // quotes (not finite), none, and strings the plain writer declines, between plain ones.
        List<GradientRecord> gradients = new ArrayList<>();
        double[] norms = {1.778568, 0.0, -0.0, 1e-7, 1.0e21, 123456789.125, Double.MIN_VALUE, Double.MAX_VALUE,
            0.1 + 0.2, -3.5, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
        for (double norm : norms) {
            gradients.add(new GradientRecord("vb", "w." + gradients.size(), GradientState.PRESENT, norm));
        }
        gradients.add(new GradientRecord("vb", "none", GradientState.MISSING, null));
        gradients.add(new GradientRecord("v\"b", "k", GradientState.PRESENT, 2.5));
        gradients.add(new GradientRecord("vb", "k\u00e9", GradientState.PRESENT, null));
        gradients.add(new GradientRecord("vb", "last", GradientState.PRESENT, 4.0));
        for (List<GradientRecord> list : List.of(gradients, List.<GradientRecord>of())) {
            ExecutionGraph graph = new ExecutionGraph(built.schema(), built.spans(), built.edges(), built.tensors(),
                    list, built.summary(), built.memory(), built.capture(), built.tensorStats());

            String bytes = new String(parallel(graph, 3), StandardCharsets.UTF_8);

            assertThat(bytes).isEqualTo(new String(sequential(graph), StandardCharsets.UTF_8));
            if (!list.isEmpty()) {
                assertThat(bytes).contains("\"norm\": 1.778568", "\"norm\": 1.0E21", "\"norm\": -0.0",
                        "\"norm\": \"NaN\"", "\"v\\\"b\"", "\"k\u00e9\"", "\"key\": \"none\"");
            }
        }
    }

    @Test
    void writesATimelineThatIsNotColumnWiseAsJacksonDoes() throws IOException {
        ExecutionGraph built = graph("train_tiny.jsonl", resource("train_tiny.jsonl"));
        MemoryProfile memory = built.memory();
        List<TimelinePoint> timeline = new ArrayList<>(memory.timeline());
        timeline.add(new TimelinePoint(5, "cu\u00e9", 1, 1, 2, CategoryBytes.of(Map.of(MemoryCategory.OTHER, 1L))));
        ExecutionGraph graph = new ExecutionGraph(built.schema(), built.spans(), built.edges(), built.tensors(),
                built.gradients(), built.summary(), new MemoryProfile(memory.summary(), timeline,
                        memory.peakBreakdown(), memory.byDevice()), built.capture(), built.tensorStats());

        assertThat(new String(parallel(graph, 2), StandardCharsets.UTF_8))
                .isEqualTo(new String(sequential(graph), StandardCharsets.UTF_8))
                .contains("\"cu\u00e9\"");
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
