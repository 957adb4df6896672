package io.tracegraph.domain.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tracegraph.domain.graph.DeviceTime;
import io.tracegraph.domain.graph.GradientRecord;
import io.tracegraph.domain.graph.GraphNode;
import io.tracegraph.domain.graph.GraphNodeKind;
import io.tracegraph.domain.trace.GradientState;
import java.util.List;
import org.junit.jupiter.api.Test;

class PathStatsTest {

    private static GraphNode node(String id, String parentId, String name, GraphNodeKind kind, long self, long total,
            long bytes, long peak) {
        return new GraphNode(id, parentId, name, kind, 0, self, total, null, null, null, bytes, peak, 0, null);
    }

    @Test
    void aggregatesRepeatedOccurrencesOfAPathBySummingAndTakingTheLargestPeak() {
        long h = ModelRuns.hash("loss/matmul");
        List<PathStats> merged = PathStats.aggregate(List.of(
                PathStats.of("loss/matmul", h, "op", 10, 10, 100, 100),
                PathStats.of("loss", ModelRuns.hash("loss"), "root", 1, 61, 0, 0),
                PathStats.of("loss/matmul", h, "op", 20, 20, 200, 150),
                PathStats.of("loss/matmul", h, "op", 30, 30, 300, 120)));

        assertThat(merged).containsExactly(
                new PathStats("loss", ModelRuns.hash("loss"), "root", 1, 1, 61, 0, 0),
                new PathStats("loss/matmul", h, "op", 3, 60, 60, 600, 150));
    }

    @Test
    void saturatesSumsInsteadOfWrapping() {
        PathStats big = PathStats.of("p", 1, "op", Long.MAX_VALUE - 1, 0, Long.MAX_VALUE, 0);

        assertThat(big.plus(big).selfTimeNs()).isEqualTo(Long.MAX_VALUE);
        assertThat(big.plus(big).bytes()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void buildsStatisticsFromAGraphBySemanticPath() {
        List<GraphNode> nodes = List.of(
                node("s1", null, "loss", GraphNodeKind.ROOT, 5, 65, 0, 0),
                node("s2", "s1", "Encoder::forward", GraphNodeKind.MODULE, 10, 60, 30, 20),
                node("o1", "s2", "matmul", GraphNodeKind.OP, 20, 20, 10, 10),
                node("o2", "s2", "matmul", GraphNodeKind.OP, 30, 30, 20, 20));

        List<PathStats> stats = PathStats.ofGraph(nodes);

        assertThat(stats).containsExactly(
                new PathStats("loss", ModelRuns.hash("loss"), "root", 1, 5, 65, 0, 0),
                new PathStats("loss/Encoder::forward", ModelRuns.hash("loss/Encoder::forward"), "module", 1, 10, 60,
                        30, 20),
                new PathStats("loss/Encoder::forward/matmul", ModelRuns.hash("loss/Encoder::forward/matmul"), "op", 2,
                        50, 50, 30, 20));
    }

    @Test
    void sumsTheDeviceTimesOfANodeOverItsDevicesAndOverThePathsOccurrences() {
        List<GraphNode> nodes = List.of(
                new GraphNode("s1", null, "loss", GraphNodeKind.ROOT, 0, 5, 65, null, null, null, 0, 0, 0, null,
                        List.of(new DeviceTime("cuda:0", 0, 70), new DeviceTime("cuda:1", 0, 9))),
                new GraphNode("o1", "s1", "matmul", GraphNodeKind.OP, 0, 20, 20, null, null, "cuda:0", 0, 0, 0, null,
                        List.of(new DeviceTime("cuda:0", 30, 30), new DeviceTime("cuda:1", 9, 9))),
                new GraphNode("o2", "s1", "matmul", GraphNodeKind.OP, 0, 30, 30, null, null, "cuda:0", 0, 0, 0, null,
                        List.of(new DeviceTime("cuda:0", 40, 40))),
                node("o3", "s1", "size", GraphNodeKind.OP, 10, 10, 0, 0));

        List<PathStats> stats = PathStats.ofGraph(nodes);

        assertThat(stats).containsExactly(
                new PathStats("loss", ModelRuns.hash("loss"), "root", 1, 5, 65, 0, 0, 0, 79),
                new PathStats("loss/matmul", ModelRuns.hash("loss/matmul"), "op", 2, 50, 50, 0, 0, 79, 79),
                new PathStats("loss/size", ModelRuns.hash("loss/size"), "op", 1, 10, 10, 0, 0, 0, 0));
        assertThat(stats).extracting(PathStats::hasDeviceTime).containsExactly(true, true, false);
        assertThat(nodes.get(0).deviceTotalTimeNs()).isEqualTo(79);
        assertThat(nodes.get(0).deviceSelfTimeNs()).isZero();
        assertThat(nodes.get(3).hasDeviceTime()).isFalse();
        assertThat(PathColumns.of(stats)).isEqualTo(stats);
        assertThat(PathColumns.of(stats).deviceTotalTimeNs(1)).isEqualTo(79);
        assertThat(PathColumns.of(stats).hasDeviceTime()).isTrue();
        assertThatThrownBy(() -> PathStats.of("p", 1, "op", 0, 0, 0, 0, -1, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("deviceSelfTimeNs must not be negative: -1");
    }

    @Test
    void turnsAGradientRecordIntoAFactWithItsStoredStateSpelling() {
        assertThat(GradientFact.of(new GradientRecord("loss", "w", GradientState.NON_FINITE, null)))
                .isEqualTo(new GradientFact("loss", "w", "non_finite", null));
    }

    @Test
    void rejectsNegativeValuesAndEmptyCounts() {
        assertThatThrownBy(() -> new PathStats("p", 1, "op", 0, 0, 0, 0, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("count must be at least 1: 0");
        assertThatThrownBy(() -> PathStats.of("p", 1, "op", -1, 0, 0, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("selfTimeNs must not be negative: -1");
        assertThatThrownBy(() -> PathStats.of("p", 1, "op", 0, 0, 0, 0).plus(PathStats.of("q", 2, "op", 0, 0, 0, 0)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
