package io.tracegraph.domain.graph;

import static io.tracegraph.domain.Traces.op;
import static io.tracegraph.domain.Traces.span;
import static io.tracegraph.domain.Traces.trace;
import static org.assertj.core.api.Assertions.assertThat;

import io.tracegraph.domain.Traces;
import io.tracegraph.domain.compare.PathStats;
import io.tracegraph.domain.compare.RunComparison;
import io.tracegraph.domain.compare.RunFacts;
import io.tracegraph.domain.trace.RunOutcome;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A graph, and the facts of a run, on device time: what every `--time device` question is asked of. */
class DeviceTimeViewTest {

    private static Traces.TraceBuilder tree() {
        return trace().complete(100).outcome(RunOutcome.IMPLIED_COMPLETE)
                .span(span("root").duration(100))
                .span(span("m").parent("root").start(1).duration(90).measured())
                .span(span("a").parent("m").start(2).duration(40))
                .span(span("b").parent("a").start(3).duration(10))
                .span(span("c").parent("m").start(50).duration(30))
                .op(op("a", "matmul").at(4).duration(2))
                .op(op("c", "relu").at(51).duration(2));
    }

    private static ExecutionGraph built(Traces.TraceBuilder trace) {
        GraphOutcome outcome = GraphBuilder.build(trace.build());
        assertThat(outcome).as("%s", outcome.health().issues()).isInstanceOf(GraphOutcome.Built.class);
        return ((GraphOutcome.Built) outcome).graph();
    }

    @Test
    void keepsTheNodesWithDeviceTimeWithTheirDeviceTimeSummedOverDevicesAsTheirTimes() {
        ExecutionGraph graph = built(tree()
                .interval("a/op/0", "cuda:0", 0, 30)
                .interval("a/op/0", "cuda:1", 0, 5)
                .interval("b", "cuda:0", 50, 7));

        ExecutionGraph device = graph.onDeviceTime();

        assertThat(graph.hasDeviceTime()).isTrue();
        assertThat(device.spans()).extracting(GraphNode::id).containsExactly("root", "m", "a", "b", "a/op/0");
        GraphNode a = device.node("a").orElseThrow();
        assertThat(a.selfTimeNs()).isZero();
        assertThat(a.totalTimeNs()).isEqualTo(42);
        assertThat(a.startNs()).as("host start kept: siblings keep their order").isEqualTo(2);
        assertThat(device.node("a/op/0").orElseThrow().selfTimeNs()).isEqualTo(35);
        assertThat(device.summary().totalMs()).isEqualTo(42 / 1e6);
        assertThat(device.summary().slowestSpans()).extracting(SlowSpan::id).startsWith("b");
        assertThat(device.summary().slowestSpans().get(0).selfTimeNs()).isEqualTo(7);
        assertThat(device.memory()).isSameAs(graph.memory());
        assertThat(device.hasDeviceTime()).isTrue();
    }

    @Test
    void aGraphWithoutDeviceTimeHasNoNodesOnDeviceTime() {
        ExecutionGraph graph = built(tree());

        assertThat(graph.hasDeviceTime()).isFalse();
        assertThat(graph.onDeviceTime().spans()).isEmpty();
        assertThat(graph.onDeviceTime().summary().totalMs()).isZero();
        assertThat(DeviceTimeSummary.of(graph.spans())).isEqualTo(DeviceTimeSummary.NONE);
    }

    @Test
    void theSummaryGivesEachDevicesTimeAndTheNodesSpansAndOpsWithTheMostDeviceSelfTime() {
        ExecutionGraph graph = built(tree()
                .interval("a/op/0", "cuda:0", 0, 30)
                .interval("a/op/0", "cuda:1", 0, 5)
                .interval("b", "cuda:0", 50, 7)
                .interval("root", "cuda:1", 0, 1));

        DeviceTimeSummary summary = DeviceTimeSummary.of(graph.spans());

        assertThat(summary.devices()).containsExactly(new DeviceTime("cuda:0", 0, 37), new DeviceTime("cuda:1", 1, 6));
        assertThat(summary.totalTimeNs()).isEqualTo(43);
        assertThat(summary.slowest()).containsExactly(new DeviceSpanCost("a/op/0", "matmul", "cuda:0", 30),
                new DeviceSpanCost("b", "b", "cuda:0", 7), new DeviceSpanCost("a/op/0", "matmul", "cuda:1", 5),
                new DeviceSpanCost("root", "root", "cuda:1", 1));
    }

    @Test
    void theFactsOfARunOnDeviceTimeHoldItsPathsWithDeviceTimeAndTheRootsDeviceTimeAsTheTotal() {
        ExecutionGraph graph = built(tree()
                .interval("a/op/0", "cuda:0", 0, 3_000_000)
                .interval("b", "cuda:1", 50, 1_000_000));
        RunFacts host = new RunFacts("r", graph.summary().totalMs(), 0, PathStats.ofGraph(graph.spans()));

        RunFacts device = host.on(TimeBasis.DEVICE);

        assertThat(host.hasDeviceTime()).isTrue();
        assertThat(host.on(TimeBasis.HOST)).isSameAs(host);
        assertThat(device.totalMs()).isEqualTo(4.0);
        assertThat(device.paths()).extracting(PathStats::path)
                .containsExactly("root", "root/m", "root/m/a", "root/m/a/b", "root/m/a/matmul");
        PathStats matmul = device.paths().get(4);
        assertThat(matmul.selfTimeNs()).isEqualTo(3_000_000);
        assertThat(matmul.totalTimeNs()).isEqualTo(3_000_000);
        assertThat(device.paths().get(0).totalTimeNs()).isEqualTo(4_000_000);
        assertThat(device.paths()).isEqualTo(PathStats.ofGraph(graph.onDeviceTime().spans()))
                .as("the facts of the graph on device time, path by path");
        assertThat(new RunFacts("cpu", 1, 0, PathStats.ofGraph(built(tree()).spans())).hasDeviceTime()).isFalse();
    }

    @Test
    void twoRunsOnDeviceTimeRankThePathsWhoseDeviceSelfTimeChangedMost() {
        RunFacts base = facts("base", built(tree().interval("a/op/0", "cuda:0", 0, 30).interval("b", "cuda:0", 0, 7)));
        RunFacts cand = facts("cand", built(tree().interval("a/op/0", "cuda:0", 0, 50).interval("b", "cuda:0", 0, 8)
                .interval("c/op/0", "cuda:0", 0, 4)));

        RunComparison c = RunComparison.compare(base.onDeviceTime(), cand.onDeviceTime());

        assertThat(c.matched().get(0).path()).isEqualTo("root/m/a/matmul");
        assertThat(c.matched().get(0).selfTimeNs().delta()).isEqualTo(20);
        assertThat(c.added()).extracting(PathStats::path).containsExactly("root/m/c/relu", "root/m/c").as("by device self time");
        assertThat(c.totalMs().base()).isEqualTo(37 / 1e6);
        assertThat(c.totalMs().candidate()).isEqualTo(62 / 1e6);
    }

    private static RunFacts facts(String id, ExecutionGraph graph) {
        return new RunFacts(id, graph.summary().totalMs(), 0, PathStats.ofGraph(graph.spans()), List.of());
    }
}
