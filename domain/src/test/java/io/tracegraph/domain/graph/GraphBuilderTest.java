package io.tracegraph.domain.graph;

import static io.tracegraph.domain.Traces.alloc;
import static io.tracegraph.domain.Traces.edge;
import static io.tracegraph.domain.Traces.free;
import static io.tracegraph.domain.Traces.gradient;
import static io.tracegraph.domain.Traces.op;
import static io.tracegraph.domain.Traces.span;
import static io.tracegraph.domain.Traces.tensor;
import static io.tracegraph.domain.Traces.trace;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.within;

import io.tracegraph.domain.Traces;
import io.tracegraph.domain.health.HealthAnalyzer;
import io.tracegraph.domain.health.HealthIssue;
import io.tracegraph.domain.memory.CategoryBytes;
import io.tracegraph.domain.memory.DeviceMemory;
import io.tracegraph.domain.memory.LiveAllocation;
import io.tracegraph.domain.memory.MemorySummary;
import io.tracegraph.domain.memory.TimelinePoint;
import io.tracegraph.domain.trace.ExecutionPhase;
import io.tracegraph.domain.trace.GradientState;
import io.tracegraph.domain.trace.MemoryCategory;
import io.tracegraph.domain.trace.OpEvent;
import io.tracegraph.domain.trace.Shape;
import io.tracegraph.domain.trace.SpanKind;
import io.tracegraph.domain.trace.SpanRecord;
import io.tracegraph.domain.trace.TraceDocument;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class GraphBuilderTest {

    private static ExecutionGraph graphOf(TraceDocument doc) {
        GraphOutcome outcome = GraphBuilder.build(doc);
        if (outcome instanceof GraphOutcome.Untrusted untrusted) {
            fail("expected a graph but the trace was refused: " + untrusted.message());
        }
        return ((GraphOutcome.Built) outcome).graph();
    }

    private static GraphNode node(ExecutionGraph graph, String id) {
        return graph.node(id).orElseThrow(() -> new AssertionError("no node " + id));
    }

    private static GraphEdge call(String from, String to, long durationNs, String label) {
        return new GraphEdge(from, to, GraphEdgeKind.CALL, durationNs, label);
    }

    private static GraphEdge data(String from, String to, long durationNs, String label) {
        return new GraphEdge(from, to, GraphEdgeKind.DATA, durationNs, label);
    }

    /** A measured root spanning 0..1000; add children with {@code parent("root")}. */
    private static Traces.TraceBuilder rooted() {
        return trace().span(span("root").duration(1000).measured());
    }

    /** The seed's five tests, ported one to one. */
    @Nested
    class SeedTests {
        @Test
        void reconstructsSpanTreeAndSelfTimes() {
            ExecutionGraph graph = graphOf(Traces.syntheticTrace());

            assertThat(graph.schema()).isEqualTo(ExecutionGraph.SCHEMA).isEqualTo("candle-graph/graph/3");
            assertThat(graph.summary().entrypoint()).isEqualTo("demo::train::loss");
            assertThat(graph.summary().totalMs()).isCloseTo(10.0, within(Math.ulp(10.0)));

            GraphNode root = node(graph, "root");
            assertThat(root.parentId()).isNull();
            assertThat(root.totalTimeNs()).isEqualTo(10_000_000);
            assertThat(root.selfTimeNs()).isEqualTo(4_000_000);

            GraphNode encoder = node(graph, "encoder");
            assertThat(encoder.parentId()).isEqualTo("root");
            assertThat(encoder.bytes()).isEqualTo(8 * 64 * 4);

            GraphNode matmul = node(graph, "encoder/op/0");
            assertThat(matmul.kind()).isEqualTo(GraphNodeKind.OP);
            assertThat(matmul.storageBytes()).isEqualTo(8L * 64 * 4);
        }

        @Test
        void summarisesMemoryAndRanksHeaviestSpans() {
            ExecutionGraph graph = graphOf(Traces.syntheticTrace());

            assertThat(graph.summary().memory().peakBytes()).isGreaterThanOrEqualTo(8 * 64 * 4);
            assertThat(graph.summary().memory().allocCount()).isEqualTo(2);
            assertThat(graph.summary().heaviestSpans()).isNotEmpty();
            assertThat(graph.summary().heaviestSpans().get(0).id()).isEqualTo("encoder");
        }

        @Test
        void buildsCallAndDataEdges() {
            ExecutionGraph graph = graphOf(Traces.syntheticTrace());

            assertThat(graph.edges())
                    .as("expected root -> encoder call edge")
                    .anyMatch(e -> e.from().equals("root") && e.to().equals("encoder")
                            && e.kind() == GraphEdgeKind.CALL);
        }

        @Test
        void recordsGradientsAndSlowestSpans() {
            ExecutionGraph graph = graphOf(Traces.syntheticTrace());

            assertThat(graph.gradients()).hasSize(1);
            assertThat(graph.summary().slowestSpans().get(0).id()).isEqualTo("root");
        }

        @Test
        void attachesOpsToDeclaredSpan() {
            TraceDocument doc = trace()
                    .phase(ExecutionPhase.TRAIN)
                    .entrypoint("outer")
                    .span(span("a").start(0).duration(200).measured())
                    .span(span("b").parent("a").start(10).duration(100))
                    .op(op("b", "add").duration(50).at(50))
                    .build();

            ExecutionGraph graph = graphOf(doc);

            GraphNode op = node(graph, "b/op/0");
            assertThat(op.parentId()).isEqualTo("b");
        }
    }

    /** Spec 5.3: the seed's trace as JSONL, every figure of the expected graph (with D2 residuals). */
    @Nested
    class WorkedExample {
        private final ExecutionGraph graph = graphOf(Traces.syntheticTraceAsImported());

        @Test
        void listsSpanNodesInIdOrderThenOpNodesWithEveryFigure() {
            assertThat(graph.spans()).containsExactly(
                    new GraphNode("encoder", "root", "Encoder::forward", GraphNodeKind.FUNCTION, 1_000_000,
                            3_000_000, 5_000_000, null, null, null, 2048, 2048, 2048, null),
                    new GraphNode("head", "root", "Head::forward", GraphNodeKind.FUNCTION, 6_000_000, 200_000,
                            1_000_000, null, null, null, 320, 320, 320, null),
                    new GraphNode("root", null, "loss", GraphNodeKind.ROOT, 0, 4_000_000, 10_000_000, null, null,
                            null, 0, 2048, 2368, null),
                    new GraphNode("encoder/op/0", "encoder", "matmul", GraphNodeKind.OP, 2_000_000, 2_000_000,
                            2_000_000, Shape.of(8, 64), "f32", "cpu", 2048, 2048, 2048, 2048L),
                    new GraphNode("head/op/0", "head", "linear", GraphNodeKind.OP, 800_000, 800_000, 800_000,
                            Shape.of(8, 10), "f32", "cpu", 320, 320, 320, 320L));
        }

        @Test
        void listsEdgesSortedWithTheTraceEdgeReplacingNothingAndDataEdgesBetweenTensors() {
            assertThat(graph.edges()).containsExactly(
                    call("encoder", "encoder/op/0", 2_000_000, "matmul"),
                    call("encoder", "head", 800_000, null),
                    data("h0", "logits", 800_000, "linear"),
                    call("head", "head/op/0", 800_000, "linear"),
                    call("root", "encoder", 5_000_000, null),
                    call("root", "head", 1_000_000, null),
                    data("w", "h0", 2_000_000, "matmul"),
                    data("x", "h0", 2_000_000, "matmul"));
        }

        @Test
        void summarisesTimesSpansAndMemory() {
            GraphSummary summary = graph.summary();

            assertThat(summary.entrypoint()).isEqualTo("demo::train::loss");
            assertThat(summary.totalMs()).isEqualTo(10.0);
            assertThat(summary.slowestSpans()).containsExactly(
                    new SlowSpan("root", "loss", 4_000_000),
                    new SlowSpan("encoder", "Encoder::forward", 3_000_000),
                    new SlowSpan("head", "Head::forward", 200_000));
            assertThat(summary.heaviestSpans()).containsExactly(
                    new HeavySpan("encoder", "Encoder::forward", 2048, 2048),
                    new HeavySpan("head", "Head::forward", 320, 320),
                    new HeavySpan("root", "loss", 0, 2048));
            MemorySummary expectedMemory = new MemorySummary(2, 0, 2368, 2368, 2_800_000, "cpu",
                    CategoryBytes.of(Map.of(MemoryCategory.ACTIVATION, 2368L)), 0);
            assertThat(summary.memory()).isEqualTo(expectedMemory);
            assertThat(graph.memory().summary()).isEqualTo(expectedMemory);
        }

        @Test
        void profilesMemoryWithTimelineBreakdownAndDevices() {
            assertThat(graph.memory().timeline()).containsExactly(
                    new TimelinePoint(2_000_000, "cpu", 2048, 2048, 0,
                            CategoryBytes.of(Map.of(MemoryCategory.ACTIVATION, 2048L))),
                    new TimelinePoint(2_800_000, "cpu", 2368, 2368, 0,
                            CategoryBytes.of(Map.of(MemoryCategory.ACTIVATION, 2368L))));
            assertThat(graph.memory().peakBreakdown()).containsExactly(
                    new LiveAllocation("h0", "encoder", "matmul", 2048, Shape.of(8, 64), "f32", "cpu",
                            MemoryCategory.ACTIVATION),
                    new LiveAllocation("logits", "head", "linear", 320, Shape.of(8, 10), "f32", "cpu",
                            MemoryCategory.ACTIVATION));
            assertThat(graph.memory().byDevice()).containsExactly(new DeviceMemory("cpu", 0, 2368, 2_800_000, 2, 0));
        }

        @Test
        void carriesGradientsWithoutEventIdsAndNoTensors() {
            assertThat(graph.gradients())
                    .containsExactly(new GradientRecord("vb", "encoder.weight", GradientState.PRESENT, 0.5));
            assertThat(graph.tensors()).isEmpty();
        }

        @Test
        void isTrustedWithWarningsOnly() {
            GraphOutcome outcome = GraphBuilder.build(Traces.syntheticTraceAsImported());

            assertThat(outcome.health().trusted()).isTrue();
            assertThat(outcome.health().issues()).extracting(HealthIssue::code).containsExactly(
                    "retained_allocations", "tensors_absent", "device_memory_absent", "backward_absent",
                    "optimizer_absent");
        }
    }

    @Nested
    class Edges {
        @Test
        void traceEdgeReplacesInferredParentChildEdgeAndKeepsItsDuration() {
            TraceDocument doc = rooted()
                    .span(span("a").parent("root").duration(500))
                    .edge(edge("root", "a", 7))
                    .build();

            assertThat(graphOf(doc).edges()).containsExactly(call("root", "a", 7, null));
        }

        @Test
        void keepsDuplicateTraceEdgesInRecordOrder() {
            TraceDocument doc = rooted()
                    .span(span("a").parent("root").duration(100))
                    .span(span("b").parent("root").start(100).duration(100))
                    .edge(edge("a", "b", 5))
                    .edge(edge("root", "a", 1))
                    .edge(edge("a", "b", 9))
                    .edge(edge("a", "b", 5))
                    .edge(edge("root", "a", 2))
                    .build();

            assertThat(graphOf(doc).edges()).containsExactly(
                    call("a", "b", 5, null),
                    call("a", "b", 9, null),
                    call("a", "b", 5, null),
                    call("root", "a", 1, null),
                    call("root", "a", 2, null),
                    call("root", "b", 100, null));
        }

        @Test
        void keepsOnlyTheFirstDataEdgeOfAnInputOutputPair() {
            TraceDocument doc = rooted()
                    .span(span("a").parent("root").duration(100))
                    .op(op("a", "add").inputs("x", "x").output("y").duration(10))
                    .op(op("a", "mul").inputs("x", "y").output("y").duration(20))
                    .build();

            assertThat(graphOf(doc).edges()).containsExactly(
                    call("a", "a/op/0", 10, "add"),
                    call("a", "a/op/1", 20, "mul"),
                    call("root", "a", 100, null),
                    data("x", "y", 10, "add"),
                    data("y", "y", 20, "mul"));
        }

        @Test
        void givesOpsWithoutOutputNeitherDataNorCallEdges() {
            TraceDocument doc = rooted()
                    .span(span("a").parent("root").duration(100))
                    .op(op("a", "print").inputs("x", "y").duration(10))
                    .build();

            ExecutionGraph graph = graphOf(doc);

            assertThat(graph.edges()).containsExactly(call("root", "a", 100, null));
            assertThat(node(graph, "a/op/0").parentId()).isEqualTo("a");
        }

        @Test
        void givesOpKindSpansNoInferredEdgeAndLeavesThemOutOfSlowestAndHeaviest() {
            TraceDocument doc = rooted()
                    .span(span("k").parent("root").kind(SpanKind.OP).duration(900))
                    .span(span("f").parent("root").duration(10))
                    .op(op("k", "gemm").duration(100).storage(4096))
                    .build();

            ExecutionGraph graph = graphOf(doc);

            GraphNode k = node(graph, "k");
            assertThat(k.kind()).isEqualTo(GraphNodeKind.OP);
            assertThat(k.selfTimeNs()).isEqualTo(800);
            assertThat(k.bytes()).isEqualTo(4096);
            assertThat(graph.edges()).containsExactly(call("root", "f", 10, null));
            assertThat(graph.summary().slowestSpans()).extracting(SlowSpan::id).containsExactly("root", "f");
            assertThat(graph.summary().heaviestSpans()).extracting(HeavySpan::id).containsExactly("root", "f");
            assertThat(node(graph, "root").selfTimeNs()).as("the op span's time still counts as child time")
                    .isEqualTo(1000 - 900 - 10);
            assertThat(GraphQueries.slowestOps(graph)).extracting(GraphNode::id).containsExactly("k", "k/op/0");
        }

        @Test
        void sortsEdgesByFromToAndKindInCodePointOrder() {
            String fullwidthA = "\uFF21";
            String grinning = new String(Character.toChars(0x1F600));
            assertThat(grinning.compareTo(fullwidthA)).as("UTF-16 order disagrees").isNegative();
            TraceDocument doc = trace()
                    .span(span("r").duration(1000).measured())
                    .span(span(grinning).parent("r").duration(10))
                    .span(span(fullwidthA).parent("r").duration(20))
                    .op(op("r", "copy").inputs("r").output("r/op/0").duration(3))
                    .edge(edge(grinning, fullwidthA, 1))
                    .edge(edge(fullwidthA, grinning, 2))
                    .build();

            assertThat(graphOf(doc).edges()).containsExactly(
                    call("r", "r/op/0", 3, "copy"),
                    data("r", "r/op/0", 3, "copy"),
                    call("r", fullwidthA, 20, null),
                    call("r", grinning, 10, null),
                    call(fullwidthA, grinning, 2, null),
                    call(grinning, fullwidthA, 1, null));
        }

        /**
         * Ids around the edges of the packed sort keys: prefixes of each other, U+0000 inside
         * (which the keys' zero padding must not confuse with the end), U+00FF and U+0100, sixteen
         * and seventeen characters, surrogates; enough trace edges (duplicates among them) for the
         * sort to run on two threads. The edges come out in code point order, duplicates in record order.
         */
        @Test
        void sortsEdgesBetweenIdsAtTheEdgesOfThePackedKeysInCodePointOrder() {
            String[] pieces = {"a", "b", "\0", "\u00FF", "\u0100", "\uFF21", new String(Character.toChars(0x1F600))};
            java.util.Random random = new java.util.Random(12);
            List<String> ids = new ArrayList<>(List.of("a", "a\0", "a\0b", "a\0\0", "aaaaaaaaaaaaaaaa",
                    "aaaaaaaaaaaaaaaaa", "aaaaaaaaaaaaaaa\0", "aaaaaaaaaaaaaaaa\0", "\u00FF\u00FF\u00FF\u00FF\u00FF\u00FF\u00FF\u00FF",
                    "\u00FF\u00FF\u00FF\u00FF\u00FF\u00FF\u00FF\u00FFa"));
            while (ids.size() < 400) {
                StringBuilder id = new StringBuilder();
                int length = 1 + random.nextInt(20);
                for (int i = 0; i < length; i++) {
                    id.append(random.nextInt(4) == 0 ? pieces[random.nextInt(pieces.length)] : pieces[random.nextInt(2)]);
                }
                if (!ids.contains(id.toString())) {
                    ids.add(id.toString());
                }
            }
            Traces.TraceBuilder builder = trace().span(span("r").duration(1_000_000).measured());
            for (String id : ids) {
                builder.span(span(id).parent("r").duration(10));
            }
            for (int i = 0; i < 40_000; i++) {
                builder.edge(edge(ids.get(random.nextInt(ids.size())), ids.get(random.nextInt(ids.size())), i));
            }
            List<GraphEdge> edges = graphOf(builder.build()).edges();

            assertThat(edges).hasSize(40_000 + ids.size());
            java.util.Comparator<GraphEdge> codePoints = java.util.Comparator
                    .comparing(GraphEdge::from, io.tracegraph.domain.trace.CodePointOrder.COMPARATOR)
                    .thenComparing(GraphEdge::to, io.tracegraph.domain.trace.CodePointOrder.COMPARATOR)
                    .thenComparing(GraphEdge::kind);
            List<GraphEdge> sorted = new ArrayList<>(edges);
            sorted.sort(codePoints);
            assertThat(edges).as("in code point order").isEqualTo(sorted);
            for (int i = 1; i < edges.size(); i++) {
                GraphEdge before = edges.get(i - 1);
                GraphEdge after = edges.get(i);
                if (codePoints.compare(before, after) == 0 && !"r".equals(before.from())) {
                    assertThat(before.durationNs()).as("duplicates in record order").isLessThan(after.durationNs());
                }
            }
        }

        @Test
        void dropsOpCallEdgeWhenASpanWithThatIdAlreadyGotTheInferredEdge() {
            TraceDocument doc = rooted()
                    .span(span("root/op/0").parent("root").start(0).duration(40))
                    .op(op("root", "mm").output("t").duration(5))
                    .build();

            assertThat(graphOf(doc).edges()).containsExactly(call("root", "root/op/0", 40, null));
        }

        @Test
        void keepsAnOpCallEdgeNextToATraceEdgeOfTheSamePair() {
            TraceDocument doc = rooted()
                    .span(span("a").parent("root").duration(100))
                    .span(span("root/op/0").parent("a").duration(50))
                    .op(op("root", "mm").output("t").duration(5))
                    .edge(edge("root", "root/op/0", 9))
                    .build();

            assertThat(graphOf(doc).edges()).containsExactly(
                    call("a", "root/op/0", 50, null),
                    call("root", "a", 100, null),
                    call("root", "root/op/0", 9, null),
                    call("root", "root/op/0", 5, "mm"));
        }
    }

    @Nested
    class Times {
        @Test
        void derivesZeroDurationSpanTimesFromOpsAndChildSpansRecursively() {
            TraceDocument doc = rooted()
                    .span(span("z").parent("root").start(10))
                    .span(span("z1").parent("z").start(10))
                    .span(span("z2").parent("z1").start(10))
                    .op(op("z", "a").duration(5))
                    .op(op("z1", "b").duration(3))
                    .op(op("z1", "c").duration(4))
                    .build();

            ExecutionGraph graph = graphOf(doc);

            assertThat(List.of("z", "z1", "z2")).extracting(id -> node(graph, id))
                    .extracting(GraphNode::totalTimeNs, GraphNode::selfTimeNs)
                    .containsExactly(tuple(12L, 0L), tuple(7L, 0L), tuple(0L, 0L));
            assertThat(node(graph, "root").selfTimeNs()).isEqualTo(1000 - 12);
            assertThat(graph.edges()).contains(call("root", "z", 12, null), call("z", "z1", 7, null));
        }

        @Test
        void floorsSelfTimeAtZeroWhenChildrenOutlastTheSpan() {
            TraceDocument doc = rooted()
                    .span(span("a").parent("root").duration(10))
                    .op(op("a", "x").duration(8))
                    .op(op("a", "y").duration(7))
                    .build();

            GraphNode a = node(graphOf(doc), "a");

            assertThat(a.totalTimeNs()).isEqualTo(10);
            assertThat(a.selfTimeNs()).isZero();
        }

        @Test
        void takesTotalMsFromTheRawMeasuredDurationNotTheEffectiveOne() {
            TraceDocument doc = trace()
                    .span(span("r").duration(100))
                    .span(span("m").parent("r").start(5).measured())
                    .op(op("m", "work").duration(40))
                    .build();

            ExecutionGraph graph = graphOf(doc);

            assertThat(graph.summary().totalMs()).isEqualTo(0.0);
            assertThat(node(graph, "m").totalTimeNs()).isEqualTo(40);
        }

        @Test
        void convertsTheMeasuredDurationToMilliseconds() {
            TraceDocument doc = trace().span(span("r").duration(1_234_567).measured()).build();

            assertThat(graphOf(doc).summary().totalMs()).isEqualTo(1.234567);
        }
    }

    @Nested
    class Rankings {
        @Test
        void ranksOnlyTheMeasuredSubtreeLeavingOutANonMeasuredRoot() {
            TraceDocument doc = trace()
                    .span(span("r").duration(1000))
                    .span(span("m").parent("r").duration(300).measured())
                    .span(span("g").parent("m").duration(100))
                    .span(span("s").parent("r").start(300).duration(200))
                    .build();

            GraphSummary summary = graphOf(doc).summary();

            assertThat(summary.slowestSpans()).containsExactly(new SlowSpan("m", "m", 200), new SlowSpan("g", "g", 100));
            assertThat(summary.heaviestSpans()).extracting(HeavySpan::id).containsExactly("m", "g");
            assertThat(summary.totalMs()).isEqualTo(0.0003);
        }

        @Test
        void keepsTheTopEightAndBreaksTiesByNodeOrder() {
            Traces.TraceBuilder builder = rooted();
            for (String id : List.of("k", "b", "x", "a", "m", "c", "z", "d", "y", "e")) {
                builder.span(span(id).parent("root").duration(10));
            }
            builder.op(op("y", "w").storage(64));

            GraphSummary summary = graphOf(builder.build()).summary();

            assertThat(summary.slowestSpans()).extracting(SlowSpan::id)
                    .containsExactly("root", "k", "b", "x", "a", "m", "c", "z");
            assertThat(summary.heaviestSpans()).extracting(HeavySpan::id)
                    .containsExactly("y", "root", "k", "b", "x", "a", "m", "c");
        }

        @Test
        void ranksHeaviestSpansByDirectBytesNotByPeak() {
            TraceDocument doc = rooted()
                    .span(span("p").parent("root").duration(100))
                    .span(span("pc").parent("p").duration(50))
                    .span(span("q").parent("root").start(100).duration(100))
                    .op(op("p", "small").storage(10))
                    .op(op("pc", "big").storage(5000))
                    .op(op("q", "medium").storage(700))
                    .build();

            assertThat(graphOf(doc).summary().heaviestSpans()).containsExactly(
                    new HeavySpan("pc", "pc", 5000, 5000),
                    new HeavySpan("q", "q", 700, 700),
                    new HeavySpan("p", "p", 10, 5000),
                    new HeavySpan("root", "root", 0, 5000));
        }
    }

    @Nested
    class Nodes {
        @Test
        void makesTheParentlessSpanTheRootWhateverItsKind() {
            TraceDocument doc = trace()
                    .span(span("r").kind(SpanKind.MODULE).duration(100).measured())
                    .span(span("m").parent("r").kind(SpanKind.MODULE).duration(10))
                    .span(span("f").parent("r").kind(SpanKind.FUNCTION).duration(10))
                    .build();

            assertThat(graphOf(doc).spans()).extracting(GraphNode::id, GraphNode::kind).containsExactly(
                    tuple("r", GraphNodeKind.ROOT), tuple("m", GraphNodeKind.MODULE), tuple("f", GraphNodeKind.FUNCTION));
        }

        @Test
        void numbersOpNodesPerSpanAndCopiesOpFacts() {
            TraceDocument doc = rooted()
                    .span(span("a").parent("root").start(10).duration(100))
                    .op(op("a", "x").shape(2, 3).dtype("bf16").device("cuda:0").duration(4).at(77).storage(12))
                    .op(op("root", "y").duration(1))
                    .op(op("a", "z").duration(2).storage(0))
                    .build();

            ExecutionGraph graph = graphOf(doc);

            assertThat(graph.spans()).extracting(GraphNode::id)
                    .containsExactly("root", "a", "a/op/0", "root/op/0", "a/op/1");
            assertThat(node(graph, "a/op/0")).isEqualTo(new GraphNode("a/op/0", "a", "x", GraphNodeKind.OP, 77, 4, 4,
                    Shape.of(2, 3), "bf16", "cuda:0", 12, 12, 0, 12L));
            assertThat(node(graph, "a/op/1")).isEqualTo(new GraphNode("a/op/1", "a", "z", GraphNodeKind.OP, 0, 2, 2,
                    null, "f32", "cpu", 0, 0, 0, 0L));
            assertThat(node(graph, "a").bytes()).isEqualTo(12);
        }

        @Test
        void derivesMissingOpStorageForInMemoryDocumentsButLeavesPeakAtZero() {
            TraceDocument doc = rooted()
                    .op(op("root", "derived").shape(2, 3).dtype("F64 "))
                    .op(op("root", "unknown").shape(2, 3).dtype("q4"))
                    .build();

            ExecutionGraph graph = graphOf(doc);

            assertThat(node(graph, "root/op/0")).extracting(GraphNode::bytes, GraphNode::peakBytes,
                    GraphNode::storageBytes).containsExactly(48L, 0L, 48L);
            assertThat(node(graph, "root/op/1")).extracting(GraphNode::bytes, GraphNode::peakBytes,
                    GraphNode::storageBytes).containsExactly(0L, 0L, null);
            assertThat(node(graph, "root").bytes()).isEqualTo(48);
        }

        @Test
        void takesSpanPeakFromTheLargestPeakAllocationOnlyForSpansWithOpBytes() {
            TraceDocument doc = rooted()
                    .span(span("a").parent("root").duration(100))
                    .span(span("b").parent("root").start(100).duration(100))
                    .op(op("a", "mm").storage(10))
                    .memory(alloc("a1", "a", 500).at(1))
                    .memory(alloc("a2", "a", 300).at(2))
                    .memory(alloc("b1", "b", 900).at(3))
                    .build();

            ExecutionGraph graph = graphOf(doc);

            assertThat(graph.memory().peakBreakdown()).extracting(LiveAllocation::tensorId)
                    .containsExactly("b1", "a1", "a2");
            assertThat(List.of("a", "b", "root")).extracting(id -> node(graph, id))
                    .extracting(GraphNode::bytes, GraphNode::peakBytes)
                    .containsExactly(tuple(10L, 500L), tuple(0L, 0L), tuple(0L, 500L));
        }

        @Test
        void reportsResidualBytesOfRetainedAllocationsPerSubtreeAndPerProducingOp() {
            TraceDocument doc = rooted()
                    .span(span("enc").parent("root").duration(100))
                    .span(span("dec").parent("root").start(100).duration(100))
                    .op(op("enc", "cache").output("kv"))
                    .op(op("enc", "cache_again").output("kv"))
                    .op(op("enc", "scratch").output("tmp"))
                    .op(op("enc", "noop"))
                    .op(op("dec", "proj").output("y"))
                    .memory(alloc("kv", "enc", 64).at(1))
                    .memory(alloc("kv", "enc", 64).at(2).on("cuda:0"))
                    .memory(alloc("tmp", "enc", 16).at(3))
                    .memory(free("tmp", "enc", 16).at(4))
                    .memory(alloc("y", "enc", 32).at(5))
                    .memory(alloc("w", "root", 8).at(6))
                    .build();

            ExecutionGraph graph = graphOf(doc);

            assertThat(graph.spans()).extracting(GraphNode::id, GraphNode::residualBytes).containsExactly(
                    tuple("root", 168L),
                    tuple("enc", 160L),
                    tuple("dec", 0L),
                    tuple("enc/op/0", 128L),
                    tuple("enc/op/1", 128L),
                    tuple("enc/op/2", 0L),
                    tuple("enc/op/3", 0L),
                    tuple("dec/op/0", 0L));
        }

        @Test
        void sharesMetricsBetweenASpanAndAnOpNodeWithTheSameIdLikeTheOriginal() {
            // The original keys per-node memory metrics and children totals by node id, so a span
            // whose id equals an op node id ("root/op/0") shares them with that op node.
            TraceDocument doc = rooted()
                    .span(span("root/op/0").parent("root").duration(40))
                    .span(span("c").parent("root/op/0").duration(10))
                    .op(op("root", "mm").output("t").duration(5).storage(100))
                    .build();

            ExecutionGraph graph = graphOf(doc);

            assertThat(graph.spans()).containsExactly(
                    new GraphNode("root", null, "root", GraphNodeKind.ROOT, 0, 955, 1000, null, null, null, 100, 100,
                            0, null),
                    new GraphNode("root/op/0", "root", "root/op/0", GraphNodeKind.FUNCTION, 0, 30, 40, null, null,
                            null, 100, 100, 0, 100L),
                    new GraphNode("c", "root/op/0", "c", GraphNodeKind.FUNCTION, 0, 10, 10, null, null, null, 0, 0, 0,
                            null),
                    new GraphNode("root/op/0", "root", "mm", GraphNodeKind.OP, 0, 0, 5, null, "f32", "cpu", 100, 100,
                            0, 100L));
            assertThat(graph.summary().heaviestSpans()).containsExactly(
                    new HeavySpan("root", "root", 100, 100),
                    new HeavySpan("root/op/0", "root/op/0", 100, 100),
                    new HeavySpan("c", "c", 0, 0));
        }

        @Test
        void addsTheOwnOpsOfASpanNamedLikeAnOpNodeToTheSharedEntryInDocumentOrder() {
            // Original: the op node id's entry is *set* to the op's bytes, the span's entry is *added*
            // to, in document order, so only ops of the span that come after the op node count.
            TraceDocument doc = rooted()
                    .span(span("root/op/0").parent("root").duration(40))
                    .op(op("root/op/0", "before").storage(7))
                    .op(op("root", "mm").storage(100))
                    .op(op("root/op/0", "after").storage(30))
                    .build();

            ExecutionGraph graph = graphOf(doc);

            assertThat(graph.spans()).extracting(GraphNode::id, GraphNode::kind, GraphNode::bytes,
                    GraphNode::peakBytes, GraphNode::storageBytes).containsExactly(
                            tuple("root", GraphNodeKind.ROOT, 100L, 130L, null),
                            tuple("root/op/0", GraphNodeKind.FUNCTION, 130L, 130L, 100L),
                            tuple("root/op/0/op/0", GraphNodeKind.OP, 7L, 7L, 7L),
                            tuple("root/op/0", GraphNodeKind.OP, 130L, 130L, 100L),
                            tuple("root/op/0/op/1", GraphNodeKind.OP, 30L, 30L, 30L));
        }

        @Test
        void copiesTensorsAndGradients() {
            TraceDocument doc = rooted()
                    .tensor(tensor("root", "w").shape(4).requiresGrad().category(MemoryCategory.PARAMETER))
                    .tensor(tensor("root", "s").storage(99))
                    .gradient(gradient("w", GradientState.NON_FINITE, null))
                    .gradient(gradient("b", GradientState.ZERO, 0.0))
                    .build();

            ExecutionGraph graph = graphOf(doc);

            assertThat(graph.tensors()).containsExactly(
                    new TensorRecord("root", "w", Shape.of(4), "f32", "cpu", true, 0, MemoryCategory.PARAMETER),
                    new TensorRecord("root", "s", Shape.SCALAR, "f32", "cpu", false, 99, MemoryCategory.OTHER));
            assertThat(graph.gradients()).containsExactly(
                    new GradientRecord("vb", "w", GradientState.NON_FINITE, null),
                    new GradientRecord("vb", "b", GradientState.ZERO, 0.0));
        }
    }

    @Nested
    class Refusal {
        @Test
        void refusesAnUntrustedTraceWithEveryErrorMessageJoined() {
            TraceDocument doc = rooted()
                    .span(span("a").parent("root").start(10).open())
                    .span(span("b").parent("ghost").start(10).duration(5))
                    .build();

            GraphOutcome outcome = GraphBuilder.build(doc);

            assertThat(outcome).isInstanceOf(GraphOutcome.Untrusted.class);
            assertThat(((GraphOutcome.Untrusted) outcome).message()).isEqualTo("trace is structurally untrusted: "
                    + "span `a` was not closed; span `b` refers to missing parent `ghost`");
            assertThat(outcome.health()).isEqualTo(HealthAnalyzer.analyze(doc));
        }

        @Test
        void rejectsATrustedHealthAsUntrustedOutcome() {
            TraceDocument doc = rooted().build();

            assertThatThrownBy(() -> new GraphOutcome.Untrusted(HealthAnalyzer.analyze(doc)))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Nested
    class Scale {
        @Test
        void buildsAHundredThousandDeepChainOfZeroDurationSpans() {
            int depth = 100_000;
            List<SpanRecord> chain = new ArrayList<>(depth);
            for (int i = 0; i < depth; i++) {
                chain.add(new SpanRecord("s" + i, i == 0 ? null : "s" + (i - 1), "s" + i, SpanKind.FUNCTION, i == 0,
                        0, true, 0, null));
            }
            Traces.TraceBuilder builder = trace();
            chain.forEach(builder::span);
            String leaf = "s" + (depth - 1);
            TraceDocument doc = builder
                    .op(op(leaf, "mm").output("t").duration(7).storage(64))
                    .memory(alloc("t", leaf, 64).at(1))
                    .build();

            ExecutionGraph graph = graphOf(doc);

            assertThat(graph.spans()).hasSize(depth + 1);
            assertThat(graph.edges()).hasSize(depth);
            for (String id : List.of("s0", "s50000", leaf)) {
                assertThat(node(graph, id)).extracting(GraphNode::totalTimeNs, GraphNode::selfTimeNs,
                        GraphNode::peakBytes, GraphNode::residualBytes).containsExactly(7L, 0L, 64L, 64L);
            }
            assertThat(graph.summary().slowestSpans()).hasSize(8);
        }

        @Test
        void buildsASpanWithTwoHundredThousandOps() {
            int width = 200_000;
            Traces.TraceBuilder builder = trace()
                    .span(span("root").duration(1_000_000).measured())
                    .span(span("wide").parent("root").duration(500_000));
            for (int i = 0; i < width; i++) {
                builder.op(new OpEvent("wide", "op", List.of("in"), "o" + i, Shape.SCALAR, "f32", "cpu", 1, i, 4L, 0));
            }
            TraceDocument doc = builder.build();

            ExecutionGraph graph = graphOf(doc);

            assertThat(graph.spans()).hasSize(width + 2);
            assertThat(graph.edges()).hasSize(2 * width + 1);
            assertThat(node(graph, "wide")).extracting(GraphNode::selfTimeNs, GraphNode::bytes)
                    .containsExactly(500_000L - width, 4L * width);
            assertThat(node(graph, "wide/op/" + (width - 1)).startNs()).isEqualTo(width - 1);
        }

        /**
         * A million direct children: built whole, with the root's times right. How the time grows
         * with the number of children (n·log n) is measured by {@code bench/build-scaling}
         * ({@code WideTreeBenchmark}), not here: a unit test asserts no wall-clock figures. The
         * timeout only stops a build that would never end (a quadratic step at this size).
         */
        @Test
        @Timeout(120)
        void buildsASpanWithAMillionChildren() {
            ExecutionGraph graph = graphOf(wideTree(1_000_000));

            assertThat(graph.spans()).hasSize(1_000_001);
            assertThat(graph.edges()).hasSize(1_000_000);
            assertThat(node(graph, "root")).extracting(GraphNode::totalTimeNs, GraphNode::selfTimeNs)
                    .containsExactly(2_000_000L, 1_000_000L);
            assertThat(graph.summary().slowestSpans()).hasSize(8);
        }

        /** A measured root of {@code 2 * children} ns with {@code children} closed 1 ns spans. */
        private TraceDocument wideTree(int children) {
            Traces.TraceBuilder builder = trace().span(new SpanRecord("root", null, "wide::run", SpanKind.FUNCTION,
                    true, 0, true, 2L * children, null));
            for (int i = 0; i < children; i++) {
                String id = "c" + (10_000_000 + i);
                builder.span(new SpanRecord(id, "root", "child", SpanKind.FUNCTION, false, 2L * i, true, 1, null));
            }
            return builder.build();
        }
    }
}
