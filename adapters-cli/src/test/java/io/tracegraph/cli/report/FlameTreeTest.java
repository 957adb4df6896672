package io.tracegraph.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FlameTreeTest {
    //            0 (100)
    //     1 (60)        2 (30)      3 (5)
    //  4 (40) 5 (15)    6 (2)
    private static final int[] PARENTS = {-1, 0, 0, 0, 1, 1, 2};
    private static final long[] WEIGHT = {100, 60, 30, 5, 40, 15, 2};
    private static final long[] START = {0, 10, 70, 5, 10, 50, 70};

    @Test
    void keepsEveryNodeInPreOrderWithSiblingsByStartWhenWithinBudget() {
        FlameTree tree = FlameTree.of(PARENTS, WEIGHT, START, 100);

        assertThat(sources(tree)).containsExactly(0, 3, 1, 4, 5, 2, 6);
        assertThat(tree.parent(0)).isEqualTo(-1);
        assertThat(tree.parent(1)).isZero();
        assertThat(tree.parent(3)).isEqualTo(2);
        assertThat(tree.depth(3)).isEqualTo(2);
        assertThat(tree.mergedBoxes()).isZero();
        assertThat(tree.mergedNodes()).isZero();
    }

    @Test
    void keepsTheWidestNodesAndMergesTheRestPerParentVisibly() {
        FlameTree tree = FlameTree.of(PARENTS, WEIGHT, START, 4);

        // Kept: 0, 1, 4, 2 (the widest, parents first); merged: {3} under 0, {5} under 1, {6} under 2.
        assertThat(sources(tree)).containsExactly(0, 1, 4, FlameTree.MERGED, 2, FlameTree.MERGED, FlameTree.MERGED);
        assertThat(tree.mergedBoxes()).isEqualTo(3);
        assertThat(tree.mergedNodes()).isEqualTo(3);
        assertThat(tree.widestMerged()).isEqualTo(15);
        assertThat(tree.members(3)).containsExactly(5);
        assertThat(tree.parent(3)).isEqualTo(1);
        assertThat(tree.members(6)).containsExactly(3);
        assertThat(tree.parent(6)).isZero();
        long held = 0;
        for (int e = 0; e < tree.size(); e++) {
            held += tree.nodes(e);
        }
        assertThat(held).isEqualTo(PARENTS.length);
    }

    @Test
    void aMergedBoxHoldsWholeSubtrees() {
        FlameTree tree = FlameTree.of(PARENTS, WEIGHT, START, 2);

        // Kept: 0 and 1; the box under 1 holds 4 and 5; the box under 0 holds 3, and 2 with its child 6.
        assertThat(sources(tree)).containsExactly(0, 1, FlameTree.MERGED, FlameTree.MERGED);
        assertThat(tree.nodes(2)).isEqualTo(2);
        assertThat(tree.nodes(3)).isEqualTo(3);
        assertThat(tree.members(3)).containsExactly(3, 2);
    }

    @Test
    void severalRootsGetAVirtualRoot() {
        int[] parents = {-1, -1, 0, 1};
        FlameTree tree = FlameTree.of(parents, new long[] {5, 9, 4, 8}, new long[] {0, 1, 0, 1}, 10);

        assertThat(sources(tree)).containsExactly(FlameTree.VIRTUAL_ROOT, 0, 2, 1, 3);
        assertThat(tree.nodes(0)).isEqualTo(4);
        assertThat(tree.parent(1)).isZero();
        assertThat(tree.parent(3)).isZero();
    }

    @Test
    void aChainOfAMillionNodesNeedsNoRecursion() {
        int n = 1_000_000;
        int[] parents = new int[n];
        long[] weight = new long[n];
        for (int i = 0; i < n; i++) {
            parents[i] = i - 1;
            weight[i] = 7;
        }
        FlameTree tree = FlameTree.of(parents, weight, new long[n], 5_000);

        assertThat(tree.size()).isEqualTo(5_001);
        assertThat(tree.source(5_000)).isEqualTo(FlameTree.MERGED);
        assertThat(tree.nodes(5_000)).isEqualTo(n - 5_000);
        assertThat(tree.depth(5_000)).isEqualTo(5_000);
        assertThat(FlameTree.subtreeSums(parents, weight)[0]).isEqualTo(7L * n);
    }

    @Test
    void subtreeSumsAddEveryDescendant() {
        assertThat(FlameTree.subtreeSums(PARENTS, new long[] {1, 1, 1, 1, 1, 1, 1}))
                .containsExactly(7, 3, 2, 1, 1, 1, 1);
    }

    private static List<Integer> sources(FlameTree tree) {
        List<Integer> sources = new ArrayList<>();
        for (int e = 0; e < tree.size(); e++) {
            sources.add(tree.source(e));
        }
        return sources;
    }
}
