package io.tracegraph.domain.graph;

import static io.tracegraph.domain.Traces.alloc;
import static io.tracegraph.domain.Traces.free;
import static io.tracegraph.domain.Traces.op;
import static io.tracegraph.domain.Traces.span;
import static io.tracegraph.domain.Traces.trace;
import static org.assertj.core.api.Assertions.assertThat;

import io.tracegraph.domain.Traces;
import io.tracegraph.domain.trace.RunOutcome;
import io.tracegraph.domain.trace.TraceDocument;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The graph of traces with a terminal record: device time, recorded data edges, failed captures. */
class CaptureGraphTest {

    private static Traces.TraceBuilder tree() {
        return trace().complete(100)
                .span(span("root").duration(100))
                .span(span("m").parent("root").start(1).duration(90).measured())
                .span(span("a").parent("m").start(2).duration(40))
                .span(span("b").parent("a").start(3).duration(10))
                .span(span("c").parent("m").start(50).duration(30));
    }

    private static ExecutionGraph built(TraceDocument doc) {
        GraphOutcome outcome = GraphBuilder.build(doc);
        assertThat(outcome).as("%s", outcome.health().issues()).isInstanceOf(GraphOutcome.Built.class);
        return ((GraphOutcome.Built) outcome).graph();
    }

    @Test
    void deviceSelfTimeSumsTheNodesOwnIntervalsEvenWhereTheyOverlapAndTotalAddsTheChildrensTotals() {
        ExecutionGraph graph = built(tree()
                .interval("a", "cuda:0", 0, 10)
                .interval("a", "cuda:0", 5, 15)
                .interval("a", "cuda:0", 40, 5)
                .interval("b", "cuda:0", 100, 7)
                .interval("b", "cuda:1", 0, 4)
                .build());

        assertThat(graph.node("a").orElseThrow().deviceTimes()).containsExactly(
                new DeviceTime("cuda:0", 30, 37), new DeviceTime("cuda:1", 0, 4));
        assertThat(graph.node("b").orElseThrow().deviceTimes()).containsExactly(
                new DeviceTime("cuda:0", 7, 7), new DeviceTime("cuda:1", 4, 4));
        assertThat(graph.node("m").orElseThrow().deviceTimes()).containsExactly(
                new DeviceTime("cuda:0", 0, 37), new DeviceTime("cuda:1", 0, 4));
        assertThat(graph.node("root").orElseThrow().deviceTimes()).containsExactly(
                new DeviceTime("cuda:0", 0, 37), new DeviceTime("cuda:1", 0, 4));
        assertThat(graph.node("c").orElseThrow().deviceTimes()).as("no device work: none").isEmpty();
    }

    @Test
    void intervalsOfOpNodeIdsGoToThatOpUnlessASpanHasTheIdAndIdsNamingNoOpGoNowhere() {
        // Without a terminal record (as PyTorch traces), where device intervals name op nodes.
        ExecutionGraph graph = built(tree().outcome(RunOutcome.IMPLIED_COMPLETE)
                .span(span("a/op/1").parent("a").start(20).duration(5))
                .op(op("a", "matmul").at(4).duration(2))
                .op(op("c", "relu").at(51).duration(2))
                .op(op("a", "add").at(8).duration(2))
                .op(op("a", "mul").at(12).duration(2))
                .op(op("a/op/1", "exp").at(21).duration(1))
                .interval("a/op/0", "cuda:0", 0, 3)
                .interval("a/op/2", "cuda:0", 10, 5)
                .interval("a/op/2", "cuda:1", 10, 6)
                .interval("a/op/1", "cuda:0", 20, 7)
                .interval("a/op/1/op/0", "cuda:1", 30, 11)
                .interval("c/op/0", "cuda:1", 40, 13)
                .interval("a/op/02", "cuda:0", 50, 100)
                .interval("a/op/3", "cuda:0", 50, 100)
                .interval("a/op/", "cuda:0", 50, 100)
                .interval("zz/op/0", "cuda:0", 50, 100)
                .interval("c/op/4294967296", "cuda:0", 50, 100)
                .build());

        assertThat(graph.node("a/op/0").orElseThrow().deviceTimes())
                .as("span a's first op").containsExactly(new DeviceTime("cuda:0", 3, 3));
        assertThat(graph.node("a/op/2").orElseThrow().deviceTimes())
                .as("span a's third op, on two devices").containsExactly(
                        new DeviceTime("cuda:0", 5, 5), new DeviceTime("cuda:1", 6, 6));
        assertThat(graph.spans().stream()
                .filter(n -> n.id().equals("a/op/1") && n.kind() != GraphNodeKind.OP))
                .as("the span that has the id of a's second op takes its intervals").singleElement()
                .satisfies(n -> assertThat(n.deviceTimes()).containsExactly(
                        new DeviceTime("cuda:0", 7, 7), new DeviceTime("cuda:1", 0, 11)));
        assertThat(graph.spans().stream().filter(n -> n.id().equals("a/op/1") && n.kind() == GraphNodeKind.OP))
                .as("so a's second op gets none").singleElement()
                .satisfies(n -> assertThat(n.deviceTimes()).isEmpty());
        assertThat(graph.node("a/op/1/op/0").orElseThrow().deviceTimes())
                .containsExactly(new DeviceTime("cuda:1", 11, 11));
        assertThat(graph.node("c/op/0").orElseThrow().deviceTimes()).containsExactly(new DeviceTime("cuda:1", 13, 13));
        assertThat(graph.node("root").orElseThrow().deviceTimes())
                .as("ids that name no op node (a leading zero, no such op, no such span, no k) count nowhere")
                .containsExactly(new DeviceTime("cuda:0", 0, 15), new DeviceTime("cuda:1", 0, 30));
    }

    @Test
    void theSumOfDeviceSelfTimeOverTheGraphIsTheDeviceTimeOfTheTrace() {
        ExecutionGraph graph = built(tree()
                .interval("a", "cuda:0", 0, 10)
                .interval("b", "cuda:0", 20, 5)
                .interval("c", "cuda:0", 40, 8)
                .interval("m", "cuda:0", 60, 2)
                .build());

        long selfSum = graph.spans().stream().flatMap(n -> n.deviceTimes().stream()).mapToLong(DeviceTime::selfTimeNs).sum();
        assertThat(selfSum).isEqualTo(25);
        assertThat(graph.node("root").orElseThrow().deviceTimes()).containsExactly(new DeviceTime("cuda:0", 0, 25));
    }

    @Test
    void spanTimesSummedBeforeTheFirstIntervalOfAnOpNodeAreKept() {
        // Op nodes get rows only at the first interval that names one: what spans had then stays.
        ExecutionGraph graph = built(tree().outcome(RunOutcome.IMPLIED_COMPLETE)
                .op(op("b", "matmul").at(4).duration(2))
                .op(op("b", "add").at(8).duration(2))
                .interval("b", "cuda:0", 0, 4)
                .interval("a", "cuda:1", 1, 3)
                .interval("b/op/1", "cuda:0", 10, 6)
                .interval("b", "cuda:0", 20, 1)
                .build());

        assertThat(graph.node("b/op/1").orElseThrow().deviceTimes()).containsExactly(new DeviceTime("cuda:0", 6, 6));
        assertThat(graph.node("b/op/0").orElseThrow().deviceTimes()).isEmpty();
        assertThat(graph.node("b").orElseThrow().deviceTimes()).containsExactly(new DeviceTime("cuda:0", 5, 11));
        assertThat(graph.node("a").orElseThrow().deviceTimes())
                .containsExactly(new DeviceTime("cuda:0", 0, 11), new DeviceTime("cuda:1", 3, 3));
    }

    @Test
    void intervalsNamingAnOpNodeCountForThatOpAndItsSpan() {
        // candle-graph's rules want span ids; a document without terminal (another reader's) may name op nodes.
        ExecutionGraph graph = built(tree().outcome(RunOutcome.IMPLIED_COMPLETE)
                .op(op("b", "matmul").at(4).duration(2))
                .interval("b/op/0", "cuda:0", 10, 6)
                .build());

        assertThat(graph.node("b/op/0").orElseThrow().deviceTimes()).containsExactly(new DeviceTime("cuda:0", 6, 6));
        assertThat(graph.node("b").orElseThrow().deviceTimes()).containsExactly(new DeviceTime("cuda:0", 0, 6));
    }

    @Test
    void summaryRanksMeasuredSpansByDeviceSelfTimeTopEightStableLikeGraph4() {
        Traces.TraceBuilder trace = tree().interval("root", "cuda:0", 0, 1000);
        for (int i = 0; i < 10; i++) {
            trace.span(span("x" + i).parent("c").start(51).duration(1));
            trace.interval("x" + i, "cuda:0", 0, i == 3 ? 50 : 10);
        }
        trace.interval("b", "cuda:1", 0, 10);
        ExecutionGraph graph = built(trace.build());

        assertThat(graph.summary().slowestDeviceSpans()).hasSize(8);
        assertThat(graph.summary().slowestDeviceSpans().get(0)).isEqualTo(new DeviceSpanCost("x3", "x3", "cuda:0", 50));
        assertThat(graph.summary().slowestDeviceSpans()).extracting(DeviceSpanCost::id)
                .as("root is not under the measured span; ties keep node order (span id order here)")
                .doesNotContain("root").containsSubsequence("b", "x0", "x1");
    }

    @Test
    void aTraceWithoutIntervalsHasNoDeviceTimeAnywhere() {
        ExecutionGraph graph = built(tree().build());

        assertThat(graph.spans()).allSatisfy(n -> assertThat(n.deviceTimes()).isSameAs(List.of()));
        assertThat(graph.summary().slowestDeviceSpans()).isEmpty();
    }

    @Test
    void recordedDataEdgesYieldToTheEqualEdgeOfAnOpAndOthersJoinWithoutDuration() {
        ExecutionGraph graph = built(tree()
                .op(op("b", "matmul").inputs("x", "w").output("h").at(4).duration(2))
                .tensor(Traces.tensor("b", "y"))
                .dataEdge("x", "h")
                .dataEdge("h", "y")
                .dataEdge("h", "y")
                .build());

        assertThat(graph.edges()).filteredOn(e -> e.kind() == GraphEdgeKind.DATA).containsExactly(
                new GraphEdge("h", "y", GraphEdgeKind.DATA, 0, null),
                new GraphEdge("w", "h", GraphEdgeKind.DATA, 2, "matmul"),
                new GraphEdge("x", "h", GraphEdgeKind.DATA, 2, "matmul"));
    }

    @Test
    void aCompleteCaptureCarriesItsCaptureFactsAndATrace6GraphNone() {
        ExecutionGraph graph = built(tree().build());
        assertThat(graph.capture()).isNotNull();
        assertThat(graph.capture().traceSchema()).isEqualTo("candle-graph/trace/10");
        assertThat(graph.outcome()).isEqualTo(RunOutcome.complete(100));

        ExecutionGraph old = built(trace().span(span("root").duration(10).measured()).build());
        assertThat(old.capture()).isNull();
        assertThat(old.outcome()).isEqualTo(RunOutcome.IMPLIED_COMPLETE);
    }

    @Test
    void aFailedCaptureIsUntrustedButGivesThePartialGraphOfWhatItCaptured() {
        TraceDocument doc = trace().failed("out of memory", 70)
                .span(span("root").open())
                .span(span("m").parent("root").start(1).open().measured())
                .span(span("a").parent("m").start(2).duration(40))
                .op(op("a", "matmul").at(3).duration(30))
                .build();

        GraphOutcome outcome = GraphBuilder.build(doc);

        assertThat(outcome).isInstanceOf(GraphOutcome.Untrusted.class);
        GraphOutcome.Untrusted untrusted = (GraphOutcome.Untrusted) outcome;
        assertThat(untrusted.isFailedCapture()).isTrue();
        assertThat(untrusted.message()).isEqualTo("capture failed: out of memory");
        assertThat(untrusted.health().structurallyValid()).isTrue();
        assertThat(untrusted.health().captureComplete()).isFalse();
        ExecutionGraph partial = untrusted.partialGraph();
        assertThat(partial.outcome()).isEqualTo(RunOutcome.failed("out of memory", 70));
        assertThat(partial.node("m").orElseThrow().totalTimeNs()).as("open span: effective duration").isEqualTo(40);
        assertThat(partial.node("root").orElseThrow().totalTimeNs()).isEqualTo(40);
        assertThat(partial.summary().totalMs()).as("the open measured span has no raw duration").isEqualTo(0.0);
        assertThat(partial.summary().slowestSpans()).extracting(SlowSpan::id).containsExactly("a", "m");
    }

    @Test
    void aFailedCaptureWithStructuralErrorsGivesNoGraph() {
        TraceDocument doc = trace().failed("boom", 70)
                .span(span("root").open())
                .span(span("orphan").parent("nowhere").duration(1))
                .build();

        GraphOutcome.Untrusted untrusted = (GraphOutcome.Untrusted) GraphBuilder.build(doc);

        assertThat(untrusted.isFailedCapture()).isFalse();
        assertThat(untrusted.message()).isEqualTo(
                "trace is structurally untrusted: span `orphan` refers to missing parent `nowhere`");
    }

    @Test
    void aliasedTensorsOfOneStorageCountItsBytesOnce() {
        ExecutionGraph graph = built(tree()
                .memory(alloc("base", "a", 64).at(3).storage("s1"))
                .memory(alloc("view", "a", 64).at(4).storage("s1"))
                .memory(alloc("other", "a", 8).at(5).storage("s2"))
                .memory(free("view", "a", 64).at(6).storage("s1"))
                .build());

        assertThat(graph.memory().summary().peakBytes()).isEqualTo(72);
        assertThat(graph.memory().summary().allocCount()).isEqualTo(2);
        assertThat(graph.memory().summary().totalAllocBytes()).isEqualTo(72);
        assertThat(graph.memory().peakBreakdown()).extracting(a -> a.storageId()).containsExactly("s1", "s2");
        assertThat(graph.memory().timeline()).extracting(p -> p.liveBytes()).containsExactly(64L, 64L, 72L, 8L);
    }
}
