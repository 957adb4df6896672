package io.tracegraph.json;

import static org.assertj.core.api.Assertions.assertThat;

import io.tracegraph.domain.graph.DeviceTime;
import io.tracegraph.domain.graph.ExecutionGraph;
import io.tracegraph.domain.graph.GraphBuilder;
import io.tracegraph.domain.graph.GraphNode;
import io.tracegraph.domain.graph.GraphOutcome;
import io.tracegraph.domain.graph.TensorRecord;
import io.tracegraph.domain.memory.LiveAllocation;
import io.tracegraph.domain.trace.RunOutcome;
import io.tracegraph.domain.trace.TraceDocument;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Twins: one workload written as trace/6 and as each of trace/7..10 (by {@link SyntheticTrace})
 * builds to the same span tree, ids, host self and total times, op bytes, memory and call/data
 * edges; the newer forms add only what they carry on top (outcome, device time, statistics).
 */
class TraceTwinsTest {
    private static final JacksonTraceReader READER = new JacksonTraceReader(2, JacksonTraceReader.DEFAULT_MAX_LINE_BYTES);

    static Stream<Arguments> workloads() {
        return Stream.of(
                Arguments.of("train 400 cuda s1", (Supplier<SyntheticTrace>) () -> SyntheticTrace.training().ops(400).seed(1)),
                Arguments.of("train 1500 cuda s2", (Supplier<SyntheticTrace>) () -> SyntheticTrace.training().ops(1_500).seed(2)),
                Arguments.of("train 900 cpu s7 grown", (Supplier<SyntheticTrace>) () -> SyntheticTrace.training().ops(900)
                        .seed(7).device("cpu").growMemory("backward", 3).slowSpan("Mlp::forward", 1.5)),
                Arguments.of("infer 600 cuda s3", (Supplier<SyntheticTrace>) () -> SyntheticTrace.inference().ops(600).seed(3)),
                Arguments.of("infer 300 cpu s4", (Supplier<SyntheticTrace>) () -> SyntheticTrace.inference().ops(300).seed(4)
                        .device("cpu")),
                Arguments.of("deep 40 s5", (Supplier<SyntheticTrace>) () -> SyntheticTrace.deepChain(40).seed(5)),
                Arguments.of("wide 25 s6", (Supplier<SyntheticTrace>) () -> SyntheticTrace.wide(25).seed(6)));
    }

    private static String text(SyntheticTrace trace) {
        StringWriter out = new StringWriter();
        try {
            trace.writeTo(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    private static GraphOutcome.Built build(String name, String text) {
        TraceDocument doc = READER.read(name, new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
        GraphOutcome outcome = GraphBuilder.build(doc);
        assertThat(outcome).as("%s: %s", name, outcome.health().errors()).isInstanceOf(GraphOutcome.Built.class);
        return (GraphOutcome.Built) outcome;
    }

    /** The node without what only the newer forms carry. */
    private static GraphNode hostOnly(GraphNode n) {
        return new GraphNode(n.id(), n.parentId(), n.name(), n.kind(), n.startNs(), n.selfTimeNs(), n.totalTimeNs(),
                n.shape(), n.dtype(), n.device(), n.bytes(), n.peakBytes(), n.residualBytes(), n.storageBytes());
    }

    private static LiveAllocation withoutStorage(LiveAllocation a) {
        return new LiveAllocation(a.tensorId(), a.spanId(), a.opName(), a.bytes(), a.shape(), a.dtype(), a.device(),
                a.category());
    }

    private static TensorRecord withoutLabel(TensorRecord t) {
        return new TensorRecord(t.spanId(), t.tensorId(), t.shape(), t.dtype(), t.device(), t.requiresGrad(),
                t.storageBytes(), t.category());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("workloads")
    void everyTwinBuildsToTheGraphOfItsTrace6Original(String name, Supplier<SyntheticTrace> workload) {
        String originalText = text(workload.get().hierarchyEdges());
        assertThat(originalText).startsWith("{\"kind\":\"meta\",\"schema\":\"candle-graph/trace/6\"");
        ExecutionGraph original = build(name + " trace/6", originalText).graph();
        assertThat(original.capture()).isNull();

        for (int revision = 7; revision <= 10; revision++) {
            String twinText = text(workload.get().schema(revision));
            assertThat(twinText).startsWith("{\"kind\":\"meta\",\"schema\":\"candle-graph/trace/" + revision + "\"")
                    .contains("{\"kind\":\"terminal\",\"outcome\":\"complete\"");
            GraphOutcome.Built built = build(name + " trace/" + revision, twinText);
            ExecutionGraph twin = built.graph();
            String as = name + " trace/" + revision;

            assertThat(twin.spans()).as(as).hasSameSizeAs(original.spans());
            assertThat(twin.spans().stream().map(TraceTwinsTest::hostOnly).toList()).as(as + " nodes")
                    .isEqualTo(original.spans());
            assertThat(twin.edges()).as(as + " call and data edges").isEqualTo(original.edges());
            assertThat(twin.memory().summary()).as(as + " memory summary").isEqualTo(original.memory().summary());
            assertThat(twin.memory().timeline()).as(as + " timeline").isEqualTo(original.memory().timeline());
            assertThat(twin.memory().byDevice()).as(as + " devices").isEqualTo(original.memory().byDevice());
            assertThat(twin.memory().peakBreakdown().stream().map(TraceTwinsTest::withoutStorage).toList())
                    .as(as + " peak breakdown").isEqualTo(original.memory().peakBreakdown());
            assertThat(twin.memory().peakBreakdown()).allSatisfy(a -> assertThat(a.storageId()).isEqualTo("st" + a.tensorId().substring(1)));
            assertThat(twin.tensors().stream().map(TraceTwinsTest::withoutLabel).toList()).as(as + " tensors")
                    .isEqualTo(original.tensors());
            assertThat(twin.gradients()).as(as + " gradients").isEqualTo(original.gradients());
            assertThat(twin.summary().totalMs()).isEqualTo(original.summary().totalMs());
            assertThat(twin.summary().slowestSpans()).isEqualTo(original.summary().slowestSpans());
            assertThat(twin.summary().heaviestSpans()).isEqualTo(original.summary().heaviestSpans());

            assertThat(built.health().trusted()).isTrue();
            assertThat(twin.outcome().status()).isEqualTo(RunOutcome.Status.COMPLETE);
            assertThat(twin.capture().traceSchema()).isEqualTo("candle-graph/trace/" + revision);
            assertThat(twin.capture().contract()).isNotNull();
            assertThat(twin.capture().identity().implementationId() != null).isEqualTo(revision >= 8);
            boolean cuda = twinText.contains("\"device\":\"cuda:0\"");
            List<DeviceTime> rootTimes = twin.spans().stream().filter(n -> n.parentId() == null).findFirst()
                    .orElseThrow().deviceTimes();
            assertThat(rootTimes.isEmpty()).as(as + " device time at the root").isEqualTo(!cuda);
            if (cuda) {
                long self = twin.spans().stream().flatMap(n -> n.deviceTimes().stream())
                        .mapToLong(DeviceTime::selfTimeNs).sum();
                assertThat(rootTimes.get(0).totalTimeNs()).as(as + " the root's total is every node's self").isEqualTo(self);
                assertThat(twin.summary().slowestDeviceSpans()).isNotEmpty();
            }
            boolean statsWritten = twinText.contains("\"kind\":\"tensor_stats\"");
            assertThat(twin.tensorStats().isEmpty()).isEqualTo(!statsWritten);
            assertThat(statsWritten).isEqualTo(revision == 10 && !name.startsWith("deep") && !name.startsWith("wide"));
        }
    }
}
