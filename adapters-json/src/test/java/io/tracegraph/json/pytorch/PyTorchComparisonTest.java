package io.tracegraph.json.pytorch;

import static org.assertj.core.api.Assertions.assertThat;

import io.tracegraph.domain.graph.ExecutionGraph;
import io.tracegraph.domain.graph.SemanticPaths;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The same model on two platforms matches by semantic path: the TraceLens BERT-small traces of an
 * H100 and an MI300X (different GPUs, runtimes and library versions) share the paths that hold
 * almost all of their host time (docs/trace-formats.md gives the figures).
 */
class PyTorchComparisonTest {
    /** Self time by path: self times add up to the time each thread spent, so this is the host time. */
    private static Map<String, Long> selfTimeByPath(ExecutionGraph graph) {
        SemanticPaths paths = SemanticPaths.of(graph.spans());
        Map<String, Long> byPath = new HashMap<>();
        for (int i = 0; i < paths.size(); i++) {
            byPath.merge(paths.path(i), graph.spans().get(i).selfTimeNs(), Long::sum);
        }
        return byPath;
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
}
