package io.tracegraph.domain.compare;

import static org.assertj.core.api.Assertions.assertThat;

import io.tracegraph.domain.graph.DeviceTime;
import io.tracegraph.domain.graph.GraphNode;
import io.tracegraph.domain.graph.GraphNodeKind;
import io.tracegraph.domain.graph.SemanticPaths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link PathStats#ofGraph}'s aggregation in arrays gives what {@link PathStats#aggregate} gives for
 * one occurrence per node, in the same order.
 */
class PathStatsOfGraphTest {
    @Test
    void aggregatesPathsAsOneOccurrencePerNodeDoes() {
        List<GraphNode> nodes = tree(new String[] {"forward", "layer.1", "layer", "layer/x", "matmul", "Attention::bw",
            "zeta", "a b", "\u00e9t\u00e9", "\u2026"}, 3_000, 1);
        List<PathStats> expected = byOccurrences(nodes);

        List<PathStats> actual = PathStats.ofGraph(nodes, SemanticPaths.of(nodes));

        assertThat(actual).hasSizeGreaterThan(100).hasSizeLessThan(nodes.size()).isEqualTo(expected);
    }

    @Test
    void ordersByCodePointWhenATextHoldsSurrogatesOrCharactersAboveThem() {
        // U+1F600 (a surrogate pair) sorts above U+FFFD by code point, below it in UTF-16 units.
        List<GraphNode> nodes = tree(new String[] {"\uD83D\uDE00", "\uFFFD", "\uE000", "a", "\uD7FF"}, 2_000, 2);
        List<PathStats> expected = byOccurrences(nodes);

        List<PathStats> actual = PathStats.ofGraph(nodes, SemanticPaths.of(nodes));

        assertThat(actual).isEqualTo(expected);
        assertThat(actual.stream().map(PathStats::path).toList())
                .isNotEqualTo(actual.stream().map(PathStats::path).sorted().toList());
    }

    @Test
    void saturatesSumsAndKeepsTheLargestPeak() {
        List<GraphNode> nodes = new ArrayList<>();
        nodes.add(node("r", null, "root", GraphNodeKind.ROOT, 1, 1, 0, List.of()));
        nodes.add(node("a", "r", "op", GraphNodeKind.OP, Long.MAX_VALUE - 1, 5, 8,
                List.of(new DeviceTime("cuda:0", Long.MAX_VALUE, Long.MAX_VALUE))));
        nodes.add(node("b", "r", "op", GraphNodeKind.OP, 7, 9, 3,
                List.of(new DeviceTime("cuda:0", 4, 4), new DeviceTime("cuda:1", 1, 2))));

        List<PathStats> actual = PathStats.ofGraph(nodes, SemanticPaths.of(nodes));

        assertThat(actual).isEqualTo(byOccurrences(nodes));
        assertThat(actual.get(1).selfTimeNs()).isEqualTo(Long.MAX_VALUE);
        assertThat(actual.get(1).peakBytes()).isEqualTo(8);
        assertThat(actual.get(1).deviceSelfTimeNs()).isEqualTo(Long.MAX_VALUE);
    }

    /** The reference: one occurrence per node, merged by {@link PathStats#aggregate}. */
    private static List<PathStats> byOccurrences(List<GraphNode> nodes) {
        SemanticPaths paths = SemanticPaths.of(nodes);
        List<PathStats> occurrences = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            GraphNode node = nodes.get(i);
            occurrences.add(PathStats.of(paths.path(i), paths.hash(i), node.kind().name().toLowerCase(Locale.ROOT),
                    node.selfTimeNs(), node.totalTimeNs(), node.bytes(), node.peakBytes(), node.deviceSelfTimeNs(),
                    node.deviceTotalTimeNs()));
        }
        return PathStats.aggregate(occurrences);
    }

    /** A random tree of {@code count} nodes named from {@code names}, some with device time. */
    private static List<GraphNode> tree(String[] names, int count, long seed) {
        Random random = new Random(seed);
        List<GraphNode> nodes = new ArrayList<>();
        nodes.add(node("n0", null, "root", GraphNodeKind.ROOT, 10, 0, 0, List.of()));
        GraphNodeKind[] kinds = {GraphNodeKind.FUNCTION, GraphNodeKind.MODULE, GraphNodeKind.OP};
        for (int i = 1; i < count; i++) {
            int parent = random.nextInt(Math.min(i, 60));
            List<DeviceTime> device = random.nextInt(4) == 0
                    ? List.of(new DeviceTime("cuda:0", random.nextInt(100), 100 + random.nextInt(100))) : List.of();
            nodes.add(node("n" + i, "n" + parent, names[random.nextInt(names.length)], kinds[random.nextInt(3)],
                    random.nextInt(1_000), random.nextInt(5_000), random.nextInt(5_000), device));
        }
        return nodes;
    }

    private static GraphNode node(String id, String parent, String name, GraphNodeKind kind, long self, long bytes,
            long peak, List<DeviceTime> device) {
        return new GraphNode(id, parent, name, kind, 0, self, self, null, null, null, bytes, peak, 0, null, device);
    }
}
