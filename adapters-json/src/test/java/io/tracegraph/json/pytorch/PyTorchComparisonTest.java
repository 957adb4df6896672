package io.tracegraph.json.pytorch;

import static org.assertj.core.api.Assertions.assertThat;

import io.tracegraph.domain.compare.PathChange;
import io.tracegraph.domain.compare.PathStats;
import io.tracegraph.domain.compare.RunComparison;
import io.tracegraph.domain.compare.RunFacts;
import io.tracegraph.domain.graph.ExecutionGraph;
import io.tracegraph.domain.graph.GraphNode;
import io.tracegraph.domain.graph.SemanticPaths;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;
import org.junit.jupiter.api.Test;

/**
 * The same model on two platforms matches by semantic path: the TraceLens BERT-small traces of an
 * H100 and an MI300X (different GPUs, runtimes and library versions) share the paths that hold
 * almost all of their host time (docs/trace-formats.md gives the figures).
 */
class PyTorchComparisonTest {
    /** Self time by path: self times add up to the time each thread spent, so this is the host time. */
    private static Map<String, Long> selfTimeByPath(ExecutionGraph graph) {
        return byPath(graph, GraphNode::selfTimeNs);
    }

    private static Map<String, Long> byPath(ExecutionGraph graph, ToLongFunction<GraphNode> time) {
        SemanticPaths paths = SemanticPaths.of(graph.spans());
        Map<String, Long> byPath = new HashMap<>();
        for (int i = 0; i < paths.size(); i++) {
            byPath.merge(paths.path(i), time.applyAsLong(graph.spans().get(i)), Long::sum);
        }
        return byPath;
    }

    private static RunFacts facts(String id, ExecutionGraph graph) {
        return new RunFacts(id, graph.summary().totalMs(), graph.summary().memory().peakBytes(),
                PathStats.ofGraph(graph.spans()), List.of());
    }

    private static double matchedShare(Map<String, Long> run, Map<String, Long> other) {
        long all = run.values().stream().mapToLong(Long::longValue).sum();
        long matched = run.entrySet().stream().filter(e -> other.containsKey(e.getKey()))
                .mapToLong(Map.Entry::getValue).sum();
        return (double) matched / all;
    }

    @Test
    void theH100AndMi300BertTracesMatchAlmostAllTheirHostTimeByPath() throws IOException {
        Map<String, Long> h100 = selfTimeByPath(PyTorchRealTracesTest.build(
                PyTorchRealTracesTest.DIR.resolve("tracelens-h100-bert-small.json.gz")));
        Map<String, Long> mi300 = selfTimeByPath(PyTorchRealTracesTest.build(
                PyTorchRealTracesTest.DIR.resolve("tracelens-mi300-bert-small.json.gz")));
        // Measured: 96.8% of the H100's host time and 96.2% of the MI300X's lie on shared paths; the
        // rest is mostly the runtime calls (cuLaunchKernel against hipLaunchKernel) below the ops.
        assertThat(matchedShare(h100, mi300)).isGreaterThan(0.95);
        assertThat(matchedShare(mi300, h100)).isGreaterThan(0.95);
        assertThat(h100.keySet()).contains("torch.profiler/ProfilerStep");
    }

    @Test
    void onDeviceTimeTheH100AndMi300ComparisonRanksThePathsByTheChangeOfTheirDeviceSelfTime() throws IOException {
        ExecutionGraph h100 = PyTorchRealTracesTest.build(PyTorchRealTracesTest.DIR.resolve(
                "tracelens-h100-bert-small.json.gz"));
        ExecutionGraph mi300 = PyTorchRealTracesTest.build(PyTorchRealTracesTest.DIR.resolve(
                "tracelens-mi300-bert-small.json.gz"));
        RunComparison device = RunComparison.compare(facts("h100", h100).onDeviceTime(),
                facts("mi300", mi300).onDeviceTime());

        // Expected, from the graphs' nodes: the paths with device time on both sides, by |Δ device self|.
        Map<String, Long> before = byPath(h100, GraphNode::deviceSelfTimeNs);
        Map<String, Long> after = byPath(mi300, GraphNode::deviceSelfTimeNs);
        Map<String, Long> deviceBefore = byPath(h100, n -> n.hasDeviceTime() ? 1 : 0);
        Map<String, Long> deviceAfter = byPath(mi300, n -> n.hasDeviceTime() ? 1 : 0);
        List<String> shared = new ArrayList<>();
        before.keySet().forEach(path -> {
            if (deviceBefore.get(path) > 0 && deviceAfter.getOrDefault(path, 0L) > 0) {
                shared.add(path);
            }
        });
        assertThat(device.matched()).extracting(PathChange::path).containsExactlyInAnyOrderElementsOf(shared);
        long previous = Long.MAX_VALUE;
        for (PathChange c : device.matched()) {
            assertThat(c.selfTimeNs().base()).as(c.path()).isEqualTo(before.get(c.path()));
            assertThat(c.selfTimeNs().candidate()).as(c.path()).isEqualTo(after.get(c.path()));
            assertThat(Math.abs(c.selfTimeNs().delta())).as("ranked by the change").isLessThanOrEqualTo(previous);
            previous = Math.abs(c.selfTimeNs().delta());
        }
        long largest = shared.stream().mapToLong(p -> Math.abs(after.get(p) - before.get(p))).max().orElseThrow();
        assertThat(Math.abs(device.matched().get(0).selfTimeNs().delta())).isEqualTo(largest);
        // The flash attention of a layer is the op that slowed down most on the MI300X (10 µs to 32 µs).
        assertThat(device.matched().get(0).path()).endsWith("/aten::_flash_attention_forward");
        // The totals are the runs' device time: the roots' device totals.
        assertThat(device.totalMs().base()).isEqualTo(h100.spans().stream().filter(n -> n.parentId() == null)
                .mapToLong(GraphNode::deviceTotalTimeNs).sum() / 1e6);
        // Measured: of the H100's device self time, this much lies on paths with device time on both sides.
        long all = before.values().stream().mapToLong(Long::longValue).sum();
        long matched = shared.stream().mapToLong(before::get).sum();
        System.out.printf("H100/MI300X device time matched: %d of %d paths with device time, %.1f%% of the "
                + "H100's device time%n", shared.size(), deviceBefore.values().stream().filter(v -> v > 0).count(),
                100.0 * matched / all);
        assertThat((double) matched / all).isGreaterThan(0.99);
    }
}
