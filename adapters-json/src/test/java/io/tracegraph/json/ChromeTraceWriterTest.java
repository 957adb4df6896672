package io.tracegraph.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tracegraph.domain.graph.ExecutionGraph;
import io.tracegraph.domain.graph.GraphBuilder;
import io.tracegraph.domain.graph.GraphNode;
import io.tracegraph.domain.graph.GraphNodeKind;
import io.tracegraph.domain.graph.GraphOutcome;
import io.tracegraph.domain.graph.GraphSummary;
import io.tracegraph.domain.memory.MemoryProfile;
import io.tracegraph.domain.memory.MemorySummary;
import io.tracegraph.domain.memory.TimelinePoint;
import io.tracegraph.domain.trace.Shape;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ChromeTraceWriterTest {

    @Test
    void exportsEverySpanAndOpAsACompleteEventWithExactMicroseconds() throws IOException {
        ExecutionGraph graph = build(SyntheticTrace.training().ops(2_000).seed(3));
        ChromeTraceEvents trace = export(graph);

        assertThat(trace.assertWellFormed()).isEqualTo(graph.spans().size());
        Map<String, GraphNode> byId = new HashMap<>();
        graph.spans().forEach(n -> byId.put(n.id(), n));
        for (JsonNode e : trace.events("X")) {
            GraphNode node = byId.get(e.get("args").get("id").asText());
            assertThat(ChromeTraceEvents.nanos(e.get("ts"))).isEqualTo(node.startNs());
            assertThat(ChromeTraceEvents.nanos(e.get("dur"))).isEqualTo(node.totalTimeNs());
            assertThat(e.get("name").asText()).isEqualTo(node.name());
            assertThat(e.get("cat").asText()).isEqualTo(node.device() == null ? "span" : "op");
            assertThat(e.get("args").get("self_time_ns").asLong()).isEqualTo(node.selfTimeNs());
            assertThat(e.get("args").get("bytes").asLong()).isEqualTo(node.bytes());
        }
        assertThat(trace.root().get("otherData").get("entrypoint").asText()).isEqualTo(graph.summary().entrypoint());
    }

    @Test
    void putsSpansOnOneTrackAndOpsOnOneTrackPerDevice() throws IOException {
        ChromeTraceEvents trace = export(build(SyntheticTrace.inference().ops(600).seed(5).device("cuda:1")));
        assertThat(trace.threadNames().values()).containsExactly("spans", "ops cuda:1");
        assertThat(trace.events("M").get(0).get("args").get("name").asText()).isEqualTo("run-under-test");
    }

    @Test
    void roundTripKeepsTheSpanTree() throws IOException {
        for (ExecutionGraph graph : List.of(build(SyntheticTrace.training().ops(1_500).seed(11)),
                build(SyntheticTrace.deepChain(3_000)), build(SyntheticTrace.wide(2_000)), conformance("train_quirks"),
                conformance("infer_quirks"))) {
            ChromeTraceEvents trace = export(graph);
            trace.assertWellFormed();
            Map<String, List<String>> reread = new HashMap<>();
            for (JsonNode e : trace.events("X")) {
                JsonNode args = e.get("args");
                reread.put(args.get("id").asText(), List.of(args.path("parent_id").asText(""), e.get("name").asText(),
                        args.get("kind").asText()));
            }
            Map<String, List<String>> expected = new HashMap<>();
            for (GraphNode n : graph.spans()) {
                expected.put(n.id(), List.of(n.parentId() == null ? "" : n.parentId(), n.name(),
                        GraphJsonWriter.wire(n.kind())));
            }
            assertThat(reread).isEqualTo(expected);
        }
    }

    @Test
    void nestedSyntheticSpansStayOnOneLane() throws IOException {
        ChromeTraceEvents trace = export(build(SyntheticTrace.training().ops(1_000).seed(2)));
        assertThat(trace.threadNames().values()).containsExactly("spans", "ops cuda:0");
        ChromeTraceEvents deep = export(build(SyntheticTrace.deepChain(20_000)));
        deep.assertWellFormed();
        assertThat(deep.threadNames().values()).containsExactly("spans", "ops cuda:0");
    }

    @Test
    void splitsOverlappingEventsIntoLanesThatNest() throws IOException {
        List<GraphNode> nodes = new ArrayList<>();
        nodes.add(span("root", null, 0, 100));
        nodes.add(span("a", "root", 10, 50));
        nodes.add(span("b", "root", 40, 50));   // overlaps a: [10, 60] and [40, 90]
        nodes.add(span("c", "b", 45, 10));
        nodes.add(op("a/op/0", "a", 0, 10));
        nodes.add(op("a/op/1", "a", 5, 10));    // overlaps the first op
        nodes.add(op("b/op/0", "b", 12, 8));
        ChromeTraceEvents trace = export(graph(nodes, MemoryProfile.EMPTY));

        assertThat(trace.assertWellFormed()).isEqualTo(7);
        assertThat(trace.threadNames().values()).containsExactly("spans", "spans (2)", "ops cpu", "ops cpu (2)");
        Map<String, Integer> tid = new HashMap<>();
        trace.events("X").forEach(e -> tid.put(e.get("args").get("id").asText(), e.get("tid").asInt()));
        assertThat(tid.get("root")).isEqualTo(tid.get("a")).isEqualTo(1);
        assertThat(tid.get("b")).isEqualTo(tid.get("c")).isEqualTo(2);
        assertThat(tid.get("a/op/0")).isEqualTo(tid.get("b/op/0")).isEqualTo(3);
        assertThat(tid.get("a/op/1")).isEqualTo(4);
    }

    /** How long this takes for many more ops is OverlapExportBenchmark's question (bench/build-scaling). */
    @Test
    void eventsThatAllOverlapStayNested() throws IOException {
        List<GraphNode> nodes = new ArrayList<>();
        nodes.add(span("root", null, 0, 10_000_000));
        for (int i = 0; i < 6_000; i++) {
            nodes.add(op("root/op/" + i, "root", i * 10L, 100_000));
        }
        ChromeTraceEvents trace = export(graph(nodes, MemoryProfile.EMPTY));

        assertThat(trace.assertWellFormed()).isEqualTo(6_001);
        assertThat(trace.threadNames().values()).contains("ops cpu", "ops cpu (2)");
    }

    @Test
    void writesTheMemoryTimelineAsCounterTracksPerDevice() throws IOException {
        ExecutionGraph graph = build(SyntheticTrace.training().ops(800).seed(4));
        ChromeTraceEvents trace = export(graph);
        List<JsonNode> live = trace.events("C").stream()
                .filter(c -> c.get("name").asText().equals("memory cuda:0")).toList();
        List<TimelinePoint> timeline = graph.memory().timeline();
        assertThat(live).hasSize(timeline.size()).isNotEmpty();
        for (int i = 0; i < live.size(); i++) {
            assertThat(ChromeTraceEvents.nanos(live.get(i).get("ts"))).isEqualTo(timeline.get(i).timestampNs());
            assertThat(live.get(i).get("args").get("live_bytes").asLong()).isEqualTo(timeline.get(i).liveBytes());
        }
        JsonNode atPeak = trace.events("C").stream()
                .filter(c -> c.get("name").asText().equals("memory by category cuda:0"))
                .filter(c -> ChromeTraceEvents.nanos(c.get("ts")) == graph.summary().memory().peakTimestampNs())
                .reduce((a, b) -> b).orElseThrow();
        assertThat(atPeak.get("args").get("parameter").asLong()).isPositive();
    }

    @Test
    void keepsUntrustedTextAsPlainJsonStrings() throws IOException {
        List<GraphNode> nodes = List.of(span("r", null, 0, 10), span("x", "r", 1, 2));
        List<GraphNode> named = List.of(nodes.get(0), new GraphNode("x", "r", "</script>\"\u2028\uD83D\uDE00",
                GraphNodeKind.FUNCTION, 1, 2, 2, null, null, null, 0, 0, 0, null));
        ChromeTraceEvents trace = export(graph(named, MemoryProfile.EMPTY));
        assertThat(trace.events("X").get(1).get("name").asText()).isEqualTo("</script>\"\u2028\uD83D\uDE00");
    }

    private static GraphNode span(String id, String parent, long start, long total) {
        return new GraphNode(id, parent, id, parent == null ? GraphNodeKind.ROOT : GraphNodeKind.FUNCTION, start, 0,
                total, null, null, null, 0, 0, 0, null);
    }

    private static GraphNode op(String id, String span, long start, long total) {
        return new GraphNode(id, span, "matmul", GraphNodeKind.OP, start, total, total, Shape.of(2, 2), "f32", "cpu",
                16, 16, 0, 16L);
    }

    private static ExecutionGraph graph(List<GraphNode> nodes, MemoryProfile memory) {
        return new ExecutionGraph(ExecutionGraph.SCHEMA, nodes, List.of(), List.of(), List.of(),
                new GraphSummary("test", 0.0, List.of(), List.of(), MemorySummary.EMPTY), memory);
    }

    private static ChromeTraceEvents export(ExecutionGraph graph) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ChromeTraceWriter.write(graph, "run-under-test", out);
        return ChromeTraceEvents.parse(out.toByteArray());
    }

    static ExecutionGraph build(SyntheticTrace trace) throws IOException {
        StringWriter text = new StringWriter();
        trace.writeTo(text);
        return built(new ByteArrayInputStream(text.toString().getBytes(StandardCharsets.UTF_8)));
    }

    private static ExecutionGraph conformance(String name) throws IOException {
        Path file = Path.of("src/test/resources/conformance", name + ".jsonl");
        try (InputStream in = Files.newInputStream(file)) {
            return built(in);
        }
    }

    private static ExecutionGraph built(InputStream in) {
        GraphOutcome outcome = GraphBuilder.build(new JacksonTraceReader().read("trace.jsonl", in));
        assertThat(outcome).isInstanceOf(GraphOutcome.Built.class);
        return ((GraphOutcome.Built) outcome).graph();
    }
}
