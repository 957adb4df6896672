package io.tracegraph.json;

import static org.assertj.core.api.Assertions.assertThat;

import io.tracegraph.domain.graph.ExecutionGraph;
import io.tracegraph.domain.graph.GraphBuilder;
import io.tracegraph.domain.graph.GraphOutcome;
import io.tracegraph.domain.health.HealthAnalyzer;
import io.tracegraph.domain.health.HealthIssue;
import io.tracegraph.domain.health.TraceHealth;
import io.tracegraph.domain.trace.DataEdgeEvent;
import io.tracegraph.domain.trace.DeviceInterval;
import io.tracegraph.domain.trace.DeviceMemoryEvent;
import io.tracegraph.domain.trace.EdgeEvent;
import io.tracegraph.domain.trace.MalformedTraceException;
import io.tracegraph.domain.trace.RunOutcome;
import io.tracegraph.domain.trace.TensorStats;
import io.tracegraph.domain.trace.TraceDocument;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Reading candle-graph trace/7..10: every validation rule with its one-line error, the graph and
 * health JSON of the samples under {@code candle/}, and the assertions of candle-graph's own tests
 * that concern reading traces ({@code src/trace/document.rs}, {@code events.rs}) ported.
 */
class CandleTraceReaderTest {
    private static final JacksonTraceReader READER = new JacksonTraceReader(2, JacksonTraceReader.DEFAULT_MAX_LINE_BYTES);
    private static final String CONTRACT = "{\"measurement_scope\":\"unknown\",\"operations\":\"none\","
            + "\"logical_memory\":\"none\",\"physical_memory\":\"none\",\"device_timing\":\"none\"}";

    /** candle-graph's {@code sample_meta()} at a revision, with a contract {@code contract}. */
    static String meta(int revision, String contract) {
        return "{\"kind\":\"meta\",\"schema\":\"candle-graph/trace/" + revision + "\",\"run_id\":\"run-1\","
                + "\"correlation_id\":\"demo/update-1\",\"entrypoint\":\"demo::train::loss\",\"phase\":\"infer\","
                + "\"timestamp\":\"2026-08-04T18:00:00Z\",\"capture_step\":1,\"warmup_steps\":0,\"device\":\"cpu\","
                + "\"measured_region_device_synchronized\":false,\"timing_mode\":\"host\""
                + (contract == null ? "" : ",\"capture_contract\":" + contract) + ",\"tags\":{},\"candle_version\":\"0.8.0\"}";
    }

    /** A valid trace: meta, a measured root of 2500 ns, the given body lines, the terminal. */
    static List<String> trace(int revision, String... body) {
        List<String> lines = new ArrayList<>();
        lines.add(meta(revision, CONTRACT));
        lines.add("{\"kind\":\"span_start\",\"id\":\"root\",\"name\":\"demo::train::loss\",\"start_ns\":0,"
                + "\"span_kind\":\"function\",\"measured\":true}");
        lines.addAll(Arrays.asList(body));
        lines.add("{\"kind\":\"span_end\",\"id\":\"root\",\"duration_ns\":2500}");
        lines.add("{\"kind\":\"terminal\",\"outcome\":\"complete\",\"timestamp_ns\":2500}");
        return lines;
    }

    static TraceDocument read(List<String> lines) {
        return READER.read("t.jsonl", new ByteArrayInputStream((String.join("\n", lines) + "\n")
                .getBytes(StandardCharsets.UTF_8)));
    }

    /** The one-line rejection of reading the lines. */
    static String rejection(List<String> lines) {
        try {
            read(lines);
        } catch (MalformedTraceException e) {
            assertThat(e.getMessage()).isEqualTo(e.problem().render()).doesNotContain("\n");
            return e.problem().render();
        }
        throw new AssertionError("read without a problem: " + lines);
    }

    /** The one-line refusal of building the graph of the lines. */
    static String untrusted(List<String> lines) {
        GraphOutcome outcome = GraphBuilder.build(read(lines));
        assertThat(outcome).isInstanceOf(GraphOutcome.Untrusted.class);
        return ((GraphOutcome.Untrusted) outcome).message();
    }

    static List<String> replaced(List<String> lines, int index, String line) {
        List<String> copy = new ArrayList<>(lines);
        copy.set(index, line);
        return copy;
    }

    private static final String OP = "{\"kind\":\"op\",\"span_id\":\"root\",\"op_name\":\"matmul\",\"inputs\":[\"t0\",\"t1\"],"
            + "\"output\":\"t2\",\"shape\":[32,32],\"dtype\":\"f32\",\"device\":\"cpu\",\"duration_ns\":1200,"
            + "\"timestamp_ns\":10,\"input_dense_bytes\":0}";

    // ---- the samples ---------------------------------------------------------------------------

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = CandleTraceReaderTest.class.getResourceAsStream("/candle/" + name)) {
            return in.readAllBytes();
        }
    }

    private static String written(GraphJsonWriter.Body body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        GraphJsonWriter.write(out, body);
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aTrace10TrainingCaptureBuildsToItsGraphAndHealthJson() throws IOException {
        TraceDocument doc = READER.read("trace10_train.jsonl", new ByteArrayInputStream(resource("trace10_train.jsonl")));
        GraphOutcome.Built built = (GraphOutcome.Built) GraphBuilder.build(doc);

        ByteArrayOutputStream graph = new ByteArrayOutputStream();
        GraphJsonWriter.writeGraph(built.graph(), graph);
        assertThat(graph.toString(StandardCharsets.UTF_8))
                .isEqualTo(new String(resource("trace10_train.graph.json"), StandardCharsets.UTF_8));
        assertThat(written(g -> GraphJsonWriter.graph(g, built.graph())))
                .as("the sequential writer, byte for byte").isEqualTo(graph.toString(StandardCharsets.UTF_8));
        assertThat(written(g -> GraphJsonWriter.health(g, built.health())))
                .isEqualTo(new String(resource("trace10_train.health.json"), StandardCharsets.UTF_8));
    }

    @Test
    void aFailedCaptureGivesItsPartialGraphWithTheOutcomeAndItsHealth() throws IOException {
        TraceDocument doc = READER.read("trace10_failed.jsonl", new ByteArrayInputStream(resource("trace10_failed.jsonl")));
        GraphOutcome.Untrusted untrusted = (GraphOutcome.Untrusted) GraphBuilder.build(doc);

        assertThat(untrusted.message()).isEqualTo("capture failed: CUDA out of memory");
        ByteArrayOutputStream graph = new ByteArrayOutputStream();
        GraphJsonWriter.writeGraph(untrusted.partialGraph(), graph);
        assertThat(graph.toString(StandardCharsets.UTF_8))
                .isEqualTo(new String(resource("trace10_failed.graph.json"), StandardCharsets.UTF_8));
        assertThat(written(g -> GraphJsonWriter.health(g, untrusted.health())))
                .isEqualTo(new String(resource("trace10_failed.health.json"), StandardCharsets.UTF_8));
    }

    // ---- candle-graph's own reading tests, ported ---------------------------------------------

    @Test
    void fromEventsBuildsTheDocumentAndResolvesDenseBytes() {
        TraceDocument doc = read(trace(7,
                "{\"kind\":\"span_start\",\"id\":\"span-op\",\"parent_id\":\"root\",\"name\":\"matmul\",\"start_ns\":10,"
                        + "\"span_kind\":\"op\",\"measured\":false}",
                OP.replace("\"root\"", "\"span-op\""),
                "{\"kind\":\"memory\",\"timestamp_ns\":1200,\"storage_id\":\"storage-t2\",\"tensor_id\":\"t2\","
                        + "\"span_id\":\"span-op\",\"op_name\":\"matmul\",\"device\":\"cpu\",\"bytes\":4096,"
                        + "\"action\":\"alloc\",\"shape\":[32,32],\"dtype\":\"f32\",\"category\":\"activation\"}",
                "{\"kind\":\"edge\",\"edge_kind\":\"call\",\"from_span\":\"root\",\"to_span\":\"span-op\",\"host_duration_ns\":1200}",
                "{\"kind\":\"gradient\",\"event_id\":\"grad-1\",\"root\":\"vb\",\"key\":\"encoder.weight\",\"state\":\"present\","
                        + "\"norm\":0.42}",
                "{\"kind\":\"span_end\",\"id\":\"span-op\",\"duration_ns\":1200}"));

        assertThat(doc.schema()).isEqualTo("candle-graph/trace/7");
        assertThat(doc.run().entrypoint()).isEqualTo("demo::train::loss");
        assertThat(doc.spans()).hasSize(2).allMatch(s -> s.closed());
        assertThat(doc.ops()).hasSize(1);
        assertThat(doc.ops().get(0).outputDenseBytes()).isEqualTo(32 * 32 * 4);
        assertThat(doc.memory()).hasSize(1);
        assertThat(doc.memory().get(0).storageId()).isEqualTo("storage-t2");
        assertThat(doc.edges()).containsExactly(new EdgeEvent("root", "span-op", 1200));
        assertThat(doc.gradients().get(0).key()).isEqualTo("encoder.weight");
        assertThat(doc.outcome()).isEqualTo(RunOutcome.complete(2500));
        ExecutionGraph graph = ((GraphOutcome.Built) GraphBuilder.build(doc)).graph();
        assertThat(graph.summary().totalMs()).isEqualTo(0.0025);
        assertThat(graph.summary().memory().peakBytes()).isEqualTo(32 * 32 * 4);
    }

    @Test
    void aTensorWithoutLabelRemainsReadable() {
        TraceDocument doc = read(trace(7, "{\"kind\":\"tensor\",\"span_id\":\"root\",\"tensor_id\":\"backend:1\","
                + "\"shape\":[1],\"dtype\":\"f32\",\"device\":\"cpu\"}"));

        assertThat(doc.tensors().get(0).tensorId()).isEqualTo("backend:1");
        assertThat(doc.tensors().get(0).label()).isNull();
        assertThat(doc.tensors().get(0).denseBytes()).isEqualTo(4);
    }

    private static final String STATS = "{\"kind\":\"tensor_stats\",\"span_id\":\"root\",\"label\":\"seam/out_y\","
            + "\"shape\":[2,3],\"dtype\":\"f32\",\"elements\":6,\"non_finite\":0,\"rms\":1.5,\"abs_max\":3.0,\"mean\":-0.25}";

    @Test
    void tensorStatsAreReadInTheCurrentSchema() {
        TraceDocument doc = read(trace(10, STATS));

        assertThat(doc.tensorStats()).containsExactly(new TensorStats("root", "seam/out_y",
                io.tracegraph.domain.trace.Shape.of(2, 3), "f32", 6, 0, 1.5, 3.0, -0.25));
    }

    @Test
    void thePreviousSchemaRemainsReadableWithoutTensorStatsAndRejectsThem() {
        assertThat(read(trace(9)).tensorStats()).isEmpty();
        assertThat(rejection(trace(9, STATS))).isEqualTo("t.jsonl:3: trace schema \"candle-graph/trace/9\" does not "
                + "define tensor_stats records; producers emitting tensor statistics must declare \"candle-graph/trace/10\"");
        assertThat(rejection(trace(8, STATS))).isEqualTo("t.jsonl:3: unknown record kind `tensor_stats` (expected meta, "
                + "span_start, span_end, op, tensor, memory, device_memory, device_interval, gradient, edge or terminal)");
    }

    @ParameterizedTest
    @ValueSource(ints = {7, 8, 9, 10})
    void gradientRejectsTheRemovedParamKeyAlias(int revision) {
        assertThat(rejection(trace(revision, "{\"kind\":\"gradient\",\"event_id\":\"g1\",\"root\":\"vb\","
                + "\"param_key\":\"w\",\"state\":\"present\",\"norm\":1.0}")))
                .isEqualTo("t.jsonl:3: gradient record is missing required member `key`");
    }

    @Test
    void rejectsAnUnknownSchema() {
        assertThat(rejection(replaced(trace(10), 0, meta(10, CONTRACT).replace("candle-graph/trace/10", "not-candle-graph"))))
                .startsWith("t.jsonl:1: unsupported trace schema \"not-candle-graph\"; expected one of ");
    }

    @Test
    void rejectsASpanEndWithoutStart() {
        assertThat(rejection(trace(7, "{\"kind\":\"span_end\",\"id\":\"missing\",\"duration_ns\":0}")))
                .isEqualTo("t.jsonl:3: span_end for unknown span `missing`");
    }

    @Test
    void rejectsRecordsAfterTheTerminalAndInvalidOutcomes() {
        List<String> after = trace(7);
        after.add("{\"kind\":\"gradient\",\"event_id\":\"late\",\"root\":\"vb\",\"key\":\"w\",\"state\":\"present\"}");
        assertThat(rejection(after))
                .isEqualTo("t.jsonl:5: terminal record must be the last record of the trace (the terminal is at line 4)");

        List<String> failed = replaced(trace(7), 3, "{\"kind\":\"terminal\",\"outcome\":\"failed\",\"timestamp_ns\":2500,"
                + "\"reason\":\"  \"}");
        assertThat(rejection(failed)).isEqualTo("t.jsonl:4: member `reason`: a failed terminal record needs a non-empty reason");
    }

    // ---- one test per rule, with its one-line error ----------------------------------------------

    @Test
    void theTerminalIsRequired() {
        List<String> lines = trace(8);
        lines.remove(3);
        assertThat(rejection(lines)).isEqualTo("t.jsonl: trace has no terminal record");
    }

    @Test
    void theTerminalIsTheLastLineNotBeforeAnyOtherRecord() {
        List<String> lines = trace(10);
        lines.add(2, lines.remove(3));
        assertThat(rejection(lines))
                .isEqualTo("t.jsonl:4: terminal record must be the last record of the trace (the terminal is at line 3)");
        List<String> twice = trace(10);
        twice.add(twice.get(3));
        assertThat(rejection(twice))
                .isEqualTo("t.jsonl:5: terminal record must be the last record of the trace (the terminal is at line 4)");
        List<String> blankAfter = trace(10);
        blankAfter.add("");
        assertThat(read(blankAfter).outcome().isDeclared()).as("blank lines may follow").isTrue();
    }

    @Test
    void aCompleteTerminalCarriesNoReasonAndItsTimestampFollowsTheHostEvidence() {
        assertThat(rejection(replaced(trace(7), 3, "{\"kind\":\"terminal\",\"outcome\":\"complete\",\"timestamp_ns\":2500,"
                + "\"reason\":\"x\"}"))).isEqualTo("t.jsonl:4: member `reason`: a complete terminal record cannot carry a failure reason");
        assertThat(rejection(replaced(trace(7), 3, "{\"kind\":\"terminal\",\"outcome\":\"complete\",\"timestamp_ns\":2499}")))
                .isEqualTo("t.jsonl:4: member `timestamp_ns`: terminal timestamp 2499 precedes host evidence ending at 2500");
        assertThat(rejection(replaced(trace(7), 3, "{\"kind\":\"terminal\",\"outcome\":\"aborted\",\"timestamp_ns\":1}")))
                .isEqualTo("t.jsonl:4: member `outcome`: unknown value \"aborted\" (expected one of complete, failed)");
        assertThat(rejection(replaced(trace(7), 3, "{\"kind\":\"terminal\",\"outcome\":\"complete\"}")))
                .isEqualTo("t.jsonl:4: terminal record is missing required member `timestamp_ns`");
    }

    @Test
    void aFailedCaptureNeedsAReason() {
        assertThat(rejection(replaced(trace(9), 3, "{\"kind\":\"terminal\",\"outcome\":\"failed\",\"timestamp_ns\":2500}")))
                .isEqualTo("t.jsonl:4: member `reason`: a failed terminal record needs a non-empty reason");
        TraceDocument failed = read(replaced(trace(9), 3,
                "{\"kind\":\"terminal\",\"outcome\":\"failed\",\"timestamp_ns\":2500,\"reason\":\"killed\"}"));
        assertThat(failed.outcome()).isEqualTo(RunOutcome.failed("killed", 2500));
    }

    @Test
    void theCaptureContractIsRequiredAndTypedTheComparisonIdentityOptional() {
        assertThat(rejection(replaced(trace(7), 0, meta(7, null))))
                .isEqualTo("t.jsonl:1: meta record is missing required member `capture_contract`");
        assertThat(rejection(replaced(trace(7), 0, meta(7, CONTRACT.replace("\"operations\":\"none\"", "\"operations\":\"all\"")))))
                .isEqualTo("t.jsonl:1: member `capture_contract.operations`: unknown value \"all\" (expected one of none, "
                        + "partial, complete)");
        assertThat(rejection(replaced(trace(7), 0, meta(7, CONTRACT.replace("\"measurement_scope\":\"unknown\",", "")))))
                .isEqualTo("t.jsonl:1: meta record is missing required member `capture_contract.measurement_scope`");
        assertThat(rejection(replaced(trace(7), 0, meta(7, "[]"))))
                .isEqualTo("t.jsonl:1: member `capture_contract`: expected an object, found an array");
        assertThat(read(trace(7)).run().comparisonIdentity()).isNull();
    }

    private static String identity(String implementation) {
        return ",\"comparison_identity\":{" + implementation + "\"workload_id\":\"w\",\"model_id\":\"m\",\"config_id\":\"c\","
                + "\"data_id\":\"d\",\"seed_policy\":\"fixed\",\"physical_batch\":8,\"accumulation_steps\":2,"
                + "\"precision\":\"bf16\",\"device_state\":\"warm\",\"pair_id\":\"p1\"}";
    }

    @Test
    void theImplementationIdIsReadFromTrace8On() {
        String withId = identity("\"implementation_id\":\"impl-a\",");
        TraceDocument seven = read(replaced(trace(7), 0, meta(7, CONTRACT).replace(",\"tags\"", withId + ",\"tags\"")));
        TraceDocument eight = read(replaced(trace(8), 0, meta(8, CONTRACT).replace(",\"tags\"", withId + ",\"tags\"")));

        assertThat(seven.run().comparisonIdentity().implementationId()).as("not a trace/7 member").isNull();
        assertThat(eight.run().comparisonIdentity().implementationId()).isEqualTo("impl-a");
        assertThat(eight.run().comparisonIdentity().accumulationSteps()).isEqualTo(2);
        assertThat(eight.run().comparisonIdentity().pairId()).isEqualTo("p1");
        assertThat(rejection(replaced(trace(8), 0, meta(8, CONTRACT).replace(",\"tags\"",
                identity("").replace("\"model_id\":\"m\",", "") + ",\"tags\""))))
                .isEqualTo("t.jsonl:1: meta record is missing required member `comparison_identity.model_id`");
    }

    @Test
    void opsCarryDenseBytesTheInputDenseBytesAndTheShapeAreRequired() {
        assertThat(rejection(trace(7, OP.replace(",\"input_dense_bytes\":0", ""))))
                .isEqualTo("t.jsonl:3: op record is missing required member `input_dense_bytes`");
        assertThat(rejection(trace(7, OP.replace(",\"input_dense_bytes\":0", ",\"input_storage_bytes\":0"))))
                .as("the trace/6 member name is not read").isEqualTo("t.jsonl:3: op record is missing required member `input_dense_bytes`");
        assertThat(rejection(trace(7, OP.replace("\"shape\":[32,32],", ""))))
                .isEqualTo("t.jsonl:3: op record is missing required member `shape`");
        TraceDocument doc = read(trace(7, OP.replace("\"input_dense_bytes\":0", "\"input_dense_bytes\":8192,"
                + "\"output_dense_bytes\":7,\"storage_bytes\":\"ignored in trace/7\"")));
        assertThat(doc.ops().get(0).outputDenseBytes()).isEqualTo(7);
        assertThat(doc.ops().get(0).inputDenseBytes()).isEqualTo(8192);
    }

    @Test
    void tensorsCarryALabelAndDenseBytesAndNeedAShape() {
        TraceDocument doc = read(trace(7, "{\"kind\":\"tensor\",\"span_id\":\"root\",\"tensor_id\":\"t1\",\"label\":\"seam/x\","
                + "\"shape\":[2,2],\"dtype\":\"f32\",\"device\":\"cpu\",\"dense_bytes\":99}"));
        assertThat(doc.tensors().get(0).label()).isEqualTo("seam/x");
        assertThat(doc.tensors().get(0).denseBytes()).isEqualTo(99);
        assertThat(rejection(trace(7, "{\"kind\":\"tensor\",\"span_id\":\"root\",\"tensor_id\":\"t1\",\"dtype\":\"f32\","
                + "\"device\":\"cpu\"}"))).isEqualTo("t.jsonl:3: tensor record is missing required member `shape`");
    }

    private static String memory(String storage, String tensor, String action, long at, long bytes) {
        return "{\"kind\":\"memory\",\"timestamp_ns\":" + at + (storage == null ? "" : ",\"storage_id\":\"" + storage + "\"")
                + ",\"tensor_id\":\"" + tensor + "\",\"span_id\":\"root\",\"device\":\"cpu\",\"bytes\":" + bytes
                + ",\"action\":\"" + action + "\",\"dtype\":\"f32\"}";
    }

    @Test
    void memoryRecordsNeedAStorageIdAndPairByDeviceAndStorage() {
        assertThat(rejection(trace(7, memory(null, "t1", "alloc", 1, 8))))
                .isEqualTo("t.jsonl:3: memory record is missing required member `storage_id`");
        TraceDocument aliased = read(trace(7, memory("s1", "t1", "alloc", 1, 8), memory("s1", "t1.view", "alloc", 2, 8),
                memory("s1", "t1.view", "free", 3, 8)));
        assertThat(HealthAnalyzer.analyze(aliased).structurallyValid()).isTrue();
        assertThat(untrusted(trace(7, memory("s1", "t1", "alloc", 1, 8), memory("s2", "t1", "free", 2, 8))))
                .isEqualTo("trace is structurally untrusted: storage `s2` on `cpu` was freed while not live");
        assertThat(untrusted(trace(7, memory("s1", "t1", "alloc", 1, 8), memory("s1", "t1", "free", 2, 4))))
                .isEqualTo("trace is structurally untrusted: storage `s1` allocated 8 bytes but freed 4");
    }

    @Test
    void deviceMemoryValuesAreOptionalWithACapacityButNotAllAbsent() {
        TraceDocument doc = read(trace(7, "{\"kind\":\"device_memory\",\"timestamp_ns\":5,\"device\":\"cuda:0\","
                + "\"reserved_bytes\":64,\"capacity_bytes\":1024}"));
        assertThat(doc.deviceMemory()).containsExactly(new DeviceMemoryEvent(5, "cuda:0", null, null, 64L, 1024L));
        assertThat(untrusted(trace(7, "{\"kind\":\"device_memory\",\"timestamp_ns\":5,\"device\":\"cuda:0\"}")))
                .isEqualTo("trace is structurally untrusted: device-memory sample for `cuda:0` contains no measurements");
    }

    private static final String INTERVAL = "{\"kind\":\"device_interval\",\"span_id\":\"root\",\"device\":\"cuda:0\","
            + "\"stream_id\":\"7\",\"clock_id\":\"cuda-event\",\"backend\":\"cuda\",\"start_ns\":40,\"duration_ns\":300}";

    @Test
    void deviceIntervalsHaveSevenRequiredMembersAndADuration() {
        assertThat(read(trace(7, INTERVAL)).deviceIntervals())
                .containsExactly(new DeviceInterval("root", "cuda:0", "7", "cuda-event", "cuda", 40, 300));
        for (String member : List.of("span_id", "device", "stream_id", "clock_id", "backend", "start_ns", "duration_ns")) {
            String without = INTERVAL.replaceAll(",?\"" + member + "\":(\"[^\"]*\"|[0-9]+)", "").replace("{,", "{");
            assertThat(rejection(trace(7, without)))
                    .isEqualTo("t.jsonl:3: device_interval record is missing required member `" + member + "`");
        }
        assertThat(untrusted(trace(7, INTERVAL.replace("\"duration_ns\":300", "\"duration_ns\":0"))))
                .isEqualTo("trace is structurally untrusted: device interval for `root` has zero duration");
        assertThat(rejection(trace(6, INTERVAL))).startsWith("t.jsonl:3: unknown record kind `device_interval`");
    }

    @Test
    void edgesAreAUnionOnEdgeKind() {
        TraceDocument doc = read(trace(7,
                "{\"kind\":\"edge\",\"from_tensor\":\"a\",\"to_tensor\":\"b\",\"edge_kind\":\"data\",\"from_span\":7}",
                "{\"kind\":\"tensor\",\"span_id\":\"root\",\"tensor_id\":\"a\",\"shape\":[],\"dtype\":\"f32\",\"device\":\"cpu\"}",
                "{\"kind\":\"tensor\",\"span_id\":\"root\",\"tensor_id\":\"b\",\"shape\":[],\"dtype\":\"f32\",\"device\":\"cpu\"}"));
        assertThat(doc.dataEdges()).containsExactly(new DataEdgeEvent("a", "b"));
        assertThat(doc.edges()).isEmpty();

        assertThat(rejection(trace(7, "{\"kind\":\"edge\",\"edge_kind\":\"flow\",\"from_span\":\"a\",\"to_span\":\"b\"}")))
                .isEqualTo("t.jsonl:3: member `edge_kind`: unknown value \"flow\" (expected one of call, data)");
        assertThat(rejection(trace(7, "{\"kind\":\"edge\",\"from_span\":\"a\",\"to_span\":\"b\",\"host_duration_ns\":1}")))
                .isEqualTo("t.jsonl:3: edge record is missing required member `edge_kind`");
        assertThat(rejection(trace(7, "{\"kind\":\"edge\",\"edge_kind\":\"call\",\"from_span\":\"a\",\"to_span\":\"b\","
                + "\"duration_ns\":1}"))).isEqualTo("t.jsonl:3: edge record is missing required member `host_duration_ns`");
        assertThat(rejection(trace(7, "{\"kind\":\"edge\",\"edge_kind\":\"data\",\"from_tensor\":\"a\"}")))
                .isEqualTo("t.jsonl:3: edge record is missing required member `to_tensor`");
        assertThat(rejection(trace(7, "{\"kind\":\"edge\",\"edge_kind\":\"call\",\"from_span\":5,\"to_span\":\"b\","
                + "\"host_duration_ns\":1}"))).isEqualTo("t.jsonl:3: member `from_span`: expected a string, found integer 5");
        assertThat(rejection(trace(7, "{\"kind\":\"edge\",\"edge_kind\":\"call\",\"edge_kind\":\"data\"}")))
                .isEqualTo("t.jsonl:3: duplicate member `edge_kind`");
    }

    @Test
    void callEdgesFollowTheHierarchyAndDataEdgesKnownTensors() {
        assertThat(untrusted(trace(7, "{\"kind\":\"edge\",\"edge_kind\":\"call\",\"from_span\":\"root\",\"to_span\":\"root\","
                + "\"host_duration_ns\":2500}")))
                .isEqualTo("trace is structurally untrusted: call edge `root` -> `root` does not match the span hierarchy");
        assertThat(untrusted(trace(7, "{\"kind\":\"edge\",\"edge_kind\":\"data\",\"from_tensor\":\"a\",\"to_tensor\":\"b\"}")))
                .isEqualTo("trace is structurally untrusted: data edge `a` -> `b` refers to unknown tensor evidence");
    }

    @Test
    void healthSplitsTrustedDropsChildrenExceedingTheParentAndWarnsOfAFailedRunsOpenSpans() {
        List<String> concurrent = trace(7,
                "{\"kind\":\"span_start\",\"id\":\"a\",\"parent_id\":\"root\",\"name\":\"a\",\"start_ns\":0,\"span_kind\":\"function\"}",
                "{\"kind\":\"span_end\",\"id\":\"a\",\"duration_ns\":2000}",
                "{\"kind\":\"span_start\",\"id\":\"b\",\"parent_id\":\"root\",\"name\":\"b\",\"start_ns\":100,\"span_kind\":\"function\"}",
                "{\"kind\":\"span_end\",\"id\":\"b\",\"duration_ns\":2000}");
        TraceHealth health = HealthAnalyzer.analyze(read(concurrent));
        assertThat(health.trusted()).as("children may overlap: 4000 ns under 2500").isTrue();

        List<String> failed = trace(7,
                "{\"kind\":\"span_start\",\"id\":\"open\",\"parent_id\":\"root\",\"name\":\"x\",\"start_ns\":5,\"span_kind\":\"function\"}");
        failed.set(failed.size() - 1, "{\"kind\":\"terminal\",\"outcome\":\"failed\",\"timestamp_ns\":2500,\"reason\":\"killed\"}");
        TraceHealth failedHealth = HealthAnalyzer.analyze(read(failed));
        assertThat(failedHealth.structurallyValid()).isTrue();
        assertThat(failedHealth.captureComplete()).isFalse();
        assertThat(failedHealth.trusted()).isFalse();
        assertThat(failedHealth.issues()).filteredOn(i -> i.code().equals("open_span")).extracting(HealthIssue::isError)
                .containsExactly(false);
        assertThat(untrusted(failed)).isEqualTo("capture failed: killed");
        List<String> open = new ArrayList<>(failed);
        open.set(open.size() - 1, "{\"kind\":\"terminal\",\"outcome\":\"complete\",\"timestamp_ns\":2500}");
        assertThat(untrusted(open)).isEqualTo("trace is structurally untrusted: span `open` was not closed");
    }

    private static String gradient(String state, String norm) {
        return "{\"kind\":\"gradient\",\"event_id\":\"g1\",\"root\":\"vb\",\"key\":\"w\",\"state\":\"" + state + "\""
                + (norm == null ? "" : ",\"norm\":" + norm) + "}";
    }

    @Test
    void gradientStateAndNormAgreeFromTrace9On() {
        assertThat(untrusted(trace(9, gradient("present", null)))).isEqualTo("trace is structurally untrusted: gradient "
                + "(\"vb\", \"w\") state `present` is inconsistent with norm None");
        assertThat(untrusted(trace(10, gradient("zero", "-0.0")))).isEqualTo("trace is structurally untrusted: gradient "
                + "(\"vb\", \"w\") state `zero` is inconsistent with norm Some(-0.0)");
        assertThat(untrusted(trace(9, gradient("missing", "2")))).endsWith("state `missing` is inconsistent with norm Some(2.0)");
        assertThat(HealthAnalyzer.analyze(read(trace(8, gradient("present", null)))).trusted()).as("trace/8").isTrue();
    }

    @Test
    void theGradientContractIsReadFromTrace9On() {
        String contract = CONTRACT.replace("}", ",\"gradients\":\"complete\",\"gradient_contract\":{\"manifest_sha256\":"
                + "\"sha256:00\",\"expected\":[{\"root\":\"vb\",\"key\":\"w\",\"family\":\"f\"}],\"families\":[{\"family\":\"f\","
                + "\"expectation\":\"active\",\"min_present\":1}]}}");
        TraceDocument nine = read(replaced(trace(9, gradient("present", "1.5")), 0, meta(9, contract)));
        assertThat(nine.run().captureContract().gradientContract().expected()).hasSize(1);
        assertThat(untrusted(replaced(trace(9, gradient("present", "1.5")), 0, meta(9, contract))))
                .isEqualTo("trace is structurally untrusted: gradient manifest SHA-256 does not match its ordered parameter manifest");
        TraceDocument eight = read(replaced(trace(8), 0, meta(8, contract)));
        assertThat(eight.run().captureContract().gradientContract()).as("not a trace/8 member").isNull();
        assertThat(rejection(replaced(trace(9), 0, meta(9, contract.replace("\"active\"", "\"sometimes\"")))))
                .isEqualTo("t.jsonl:1: member `capture_contract.gradient_contract.families.expectation`: unknown value "
                        + "\"sometimes\" (expected one of active, inactive, data_conditional)");
    }

    @Test
    void anExpectedGradientsMembersAreNamedInItsErrors() {
        String contract = CONTRACT.replace("}", ",\"gradients\":\"complete\",\"gradient_contract\":{\"manifest_sha256\":"
                + "\"sha256:00\",\"expected\":[{\"root\":\"vb\",\"key\":\"w\",\"family\":\"f\"},EXPECTED],\"families\":[{\"family\":\"f\","
                + "\"expectation\":\"active\",\"min_present\":1}]}}");
        String path = "`capture_contract.gradient_contract.expected.";
        assertThat(rejection(replaced(trace(9), 0, meta(9, contract.replace("EXPECTED", "{\"root\":\"vb\",\"family\":\"f\"}")))))
                .isEqualTo("t.jsonl:1: meta record is missing required member " + path + "key`");
        assertThat(rejection(replaced(trace(9), 0, meta(9, contract.replace("EXPECTED",
                "{\"root\":\"vb\",\"key\":\"w\",\"family\":\"f\",\"family\":\"g\"}")))))
                .isEqualTo("t.jsonl:1: duplicate member " + path + "family`");
        assertThat(rejection(replaced(trace(9), 0, meta(9, contract.replace("EXPECTED", "{\"root\":1,\"key\":\"w\",\"family\":\"f\"}")))))
                .startsWith("t.jsonl:1: member " + path + "root`");
        assertThat(read(replaced(trace(9), 0, meta(9, contract.replace("EXPECTED", "{\"root\":\"vb\",\"key\":\"x\",\"family\":\"f\","
                + "\"note\":\"ignored\"}")))).run().captureContract().gradientContract().expected()).hasSize(2);
    }

    @Test
    void tensorStatsShapeProductMustBeTheElementCount() {
        assertThat(rejection(trace(10, STATS.replace("\"elements\":6", "\"elements\":5"))))
                .isEqualTo("t.jsonl:3: member `elements`: tensor_stats shape [2, 3] holds 6 elements, not 5");
        assertThat(rejection(trace(10, STATS.replace("\"non_finite\":0", "\"non_finite\":7"))))
                .isEqualTo("t.jsonl:3: member `non_finite`: tensor_stats counts 7 non-finite elements of 6");
        assertThat(rejection(trace(10, STATS.replace("\"rms\":1.5", "\"rms\":-1.5"))))
                .isEqualTo("t.jsonl:3: member `rms`: tensor_stats rms must be finite and not negative, found -1.5");
        assertThat(rejection(trace(10, STATS.replace("\"label\":\"seam/out_y\"", "\"label\":\" \""))))
                .isEqualTo("t.jsonl:3: member `label`: tensor_stats label must not be empty");
        assertThat(rejection(trace(10, STATS.replace(",\"mean\":-0.25", ""))))
                .isEqualTo("t.jsonl:3: tensor_stats record is missing required member `mean`");
        assertThat(untrusted(trace(10, STATS.replace("\"span_id\":\"root\"", "\"span_id\":\"ghost\""))))
                .isEqualTo("trace is structurally untrusted: tensor stats evidence refers to missing span `ghost`");
    }

    @Test
    void aRequiredSemanticLabelNamingZeroOrTwoSpansIsAnErrorInTrace10AndAWarningBefore() {
        String labels = CONTRACT.replace("}", ",\"required_semantic_labels\":[\"step\"]}");
        String step = "{\"kind\":\"span_start\",\"id\":\"s%d\",\"parent_id\":\"root\",\"name\":\"step\",\"start_ns\":0,"
                + "\"span_kind\":\"function\"}";
        String end = "{\"kind\":\"span_end\",\"id\":\"s%d\",\"duration_ns\":1}";
        assertThat(untrusted(replaced(trace(10), 0, meta(10, labels)))).isEqualTo("trace is structurally untrusted: "
                + "required semantic label `step` must occur exactly once; observed 0");
        List<String> two = replaced(trace(10, String.format(step, 1), String.format(end, 1), String.format(step, 2),
                String.format(end, 2)), 0, meta(10, labels));
        assertThat(untrusted(two)).isEqualTo("trace is structurally untrusted: "
                + "required semantic label `step` must occur exactly once; observed 2");
        TraceHealth nine = HealthAnalyzer.analyze(read(replaced(trace(9), 0, meta(9, labels))));
        assertThat(nine.trusted()).isTrue();
        assertThat(nine.gaps()).contains("required semantic label `step` must occur exactly once; observed 0");
    }

    @Test
    void theRunProvenanceIsValidatedInTrace10() {
        assertThat(untrusted(replaced(trace(10), 0, meta(10, CONTRACT).replace("\"capture_step\":1", "\"capture_step\":0"))))
                .isEqualTo("trace is structurally untrusted: capture_step must be one-based and greater than zero");
        assertThat(untrusted(replaced(trace(10), 0, meta(10, CONTRACT).replace("\"warmup_steps\":0", "\"warmup_steps\":1"))))
                .isEqualTo("trace is structurally untrusted: warmup_steps (1) must be fewer than the one-based capture_step (1)");
        assertThat(untrusted(replaced(trace(10), 0, meta(10, CONTRACT).replace("\"run_id\":\"run-1\"", "\"run_id\":\"\""))))
                .isEqualTo("trace is structurally untrusted: run provenance run_id must not be empty");
        assertThat(HealthAnalyzer.analyze(read(replaced(trace(9), 0,
                meta(9, CONTRACT).replace("\"capture_step\":1", "\"capture_step\":0")))).trusted()).as("trace/9").isTrue();
    }

    @Test
    void aNewerRevisionIsRefusedAtTheMetaLineBeforeItsRecordsAreDecoded() {
        List<String> lines = replaced(trace(10, "{\"kind\":\"hologram\"}"), 0,
                meta(10, CONTRACT).replace("candle-graph/trace/10", "candle-graph/trace/11"));
        lines.add(0, "");

        assertThat(rejection(lines)).isEqualTo("t.jsonl:2: unsupported trace schema \"candle-graph/trace/11\"; expected "
                + "one of \"candle-graph/trace/6\", \"candle-graph/trace/7\", \"candle-graph/trace/8\", "
                + "\"candle-graph/trace/9\", \"candle-graph/trace/10\"");
    }

    @Test
    void trace6RulesStayAsTheyWereForTheRecordsOfLaterRevisions() {
        List<String> lines = new ArrayList<>(List.of(meta(6, null),
                "{\"kind\":\"span_start\",\"id\":\"root\",\"name\":\"x\",\"start_ns\":0,\"span_kind\":\"function\",\"measured\":true}",
                "{\"kind\":\"span_end\",\"id\":\"root\",\"duration_ns\":5}",
                "{\"kind\":\"terminal\",\"outcome\":\"complete\",\"timestamp_ns\":5}"));
        assertThat(rejection(lines)).isEqualTo("t.jsonl:4: unknown record kind `terminal` (expected meta, span_start, "
                + "span_end, op, tensor, memory, device_memory, gradient or edge)");
        lines.set(3, "{\"kind\":\"edge\",\"edge_kind\":\"call\",\"from_span\":\"root\",\"to_span\":\"root\",\"host_duration_ns\":5}");
        assertThat(rejection(lines)).isEqualTo("t.jsonl:4: edge record is missing required member `duration_ns`");
        lines.remove(3);
        TraceDocument doc = read(lines);
        assertThat(doc.outcome()).isSameAs(RunOutcome.IMPLIED_COMPLETE);
        assertThat(doc.run().captureContract()).as("ignored in trace/6").isNull();
    }

    // ---- the whole-document form -----------------------------------------------------------------

    private static TraceDocument readDocument(String json) {
        return READER.read("t.json", new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)));
    }

    private static final String RUN = "\"run\":" + meta(10, CONTRACT).replaceFirst("\"kind\":\"meta\",\"schema\":\"[^\"]*\",", "");

    @Test
    void theWholeDocumentFormOfTrace10IsReadWithItsSchemaAnywhere() {
        String json = "{" + RUN + ",\n\"spans\":[{\"id\":\"root\",\"name\":\"r\",\"kind\":\"function\",\"measured\":true,"
                + "\"start_ns\":0,\"closed\":true,\"duration_ns\":2500}],\n\"ops\":[" + OP.replace("\"kind\":\"op\",", "")
                + "],\n\"tensor_stats\":[" + STATS.replace("\"kind\":\"tensor_stats\",", "") + "],\n\"device_intervals\":["
                + INTERVAL.replace("\"kind\":\"device_interval\",", "") + "],\n\"memory\":[" + memory("s1", "t2", "alloc", 5, 8)
                        .replace("\"kind\":\"memory\",", "") + "],\n\"edges\":[{\"edge_kind\":\"data\",\"from_tensor\":\"t0\","
                + "\"to_tensor\":\"t2\"}],\n\"terminal\":{\"outcome\":\"complete\",\"timestamp_ns\":2500},\n"
                + "\"schema\":\"candle-graph/trace/10\"}";

        TraceDocument doc = readDocument(json);

        assertThat(doc.schema()).isEqualTo("candle-graph/trace/10");
        assertThat(doc.outcome()).isEqualTo(RunOutcome.complete(2500));
        assertThat(doc.tensorStats()).hasSize(1);
        assertThat(doc.deviceIntervals()).hasSize(1);
        assertThat(doc.memory().get(0).storageId()).isEqualTo("s1");
        assertThat(doc.dataEdges()).containsExactly(new DataEdgeEvent("t0", "t2"));
        assertThat(doc.ops().get(0).outputDenseBytes()).isEqualTo(4096);
        assertThat(GraphBuilder.build(doc)).isInstanceOf(GraphOutcome.Built.class);
    }

    @Test
    void theWholeDocumentFormNeedsItsTerminalFromTrace7On() {
        String head = "{\"schema\":\"candle-graph/trace/7\"," + RUN;

        assertThat(catchProblem(head + "}")).isEqualTo("t.json: trace has no terminal record");
        assertThat(catchProblem(head + ",\n\"terminal\":{\"outcome\":\"failed\",\"timestamp_ns\":3}}"))
                .isEqualTo("t.json:2: member `reason`: a failed terminal record needs a non-empty reason");
        assertThat(readDocument(head + ",\"terminal\":{\"outcome\":\"failed\",\"timestamp_ns\":3,\"reason\":\"oom\"}}")
                .outcome()).isEqualTo(RunOutcome.failed("oom", 3));
    }

    private static String catchProblem(String json) {
        try {
            readDocument(json);
            return "";
        } catch (MalformedTraceException e) {
            return e.problem().render();
        }
    }
}
