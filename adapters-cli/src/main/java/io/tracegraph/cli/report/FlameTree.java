package io.tracegraph.cli.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * A tree cut down to a budget of nodes for a flame chart, never silently.
 *
 * <p>Nodes are kept widest first: starting from the root, of the nodes not yet kept whose parent
 * is kept, the one with the largest weight (ties: the lower index) is kept next, until
 * {@code budget} nodes are kept (the virtual root counts). So every kept node's ancestors are kept,
 * and where widths shrink from parent to child (time, as a rule) every node left out is no wider
 * than the narrowest kept one. The children of a kept node that were left out
 * are merged into one box at the end of its children, which stands for their whole subtrees and
 * says how many nodes it holds. A tree with more than one root gets a virtual root above them.
 *
 * <p>Entries are in pre-order, a node's children in their {@code order} key order (then index);
 * an entry's parent comes before it. Linear apart from the priority queue and the sorts.
 */
final class FlameTree {
    /** {@link #source} of a merged box. */
    static final int MERGED = -1;
    /** {@link #source} of the virtual root above several roots. */
    static final int VIRTUAL_ROOT = -2;

    private final int[] source;
    private final int[] parent;
    private final int[] depth;
    private final long[] nodes;
    private final int[][] members;
    private final int totalNodes;
    private final long mergedNodes;
    private final int mergedBoxes;
    private final long widestMerged;

    private FlameTree(int[] source, int[] parent, int[] depth, long[] nodes, int[][] members, int totalNodes,
            long mergedNodes, int mergedBoxes, long widestMerged) {
        this.source = source;
        this.parent = parent;
        this.depth = depth;
        this.nodes = nodes;
        this.members = members;
        this.totalNodes = totalNodes;
        this.mergedNodes = mergedNodes;
        this.mergedBoxes = mergedBoxes;
        this.widestMerged = widestMerged;
    }

    /**
     * @param parents each node's parent index, or -1 for a root
     * @param weight each node's width (not negative)
     * @param order the key that orders siblings (e.g. start time)
     * @param budget the most nodes to keep (at least 2); merged boxes come on top, one per kept node at most
     */
    static FlameTree of(int[] parents, long[] weight, long[] order, int budget) {
        if (budget < 2) {
            throw new IllegalArgumentException("budget must be at least 2: " + budget);
        }
        int n = parents.length;
        // Children lists (as index arrays) and subtree sizes, without recursion.
        int[] childCount = new int[n + 1];
        List<Integer> roots = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (parents[i] < 0) {
                roots.add(i);
            } else {
                childCount[parents[i]]++;
            }
        }
        int[][] children = new int[n][];
        for (int i = 0; i < n; i++) {
            children[i] = new int[childCount[i]];
        }
        int[] filled = new int[n];
        for (int i = 0; i < n; i++) {
            if (parents[i] >= 0) {
                children[parents[i]][filled[parents[i]]++] = i;
            }
        }
        Comparator<Integer> siblingOrder = Comparator.<Integer>comparingLong(i -> order[i]).thenComparingInt(i -> i);
        long[] subtree = new long[n];
        int[] bfs = new int[n];
        int tail = 0;
        for (int r : roots) {
            bfs[tail++] = r;
        }
        for (int head = 0; head < tail; head++) {
            for (int c : children[bfs[head]]) {
                bfs[tail++] = c;
            }
        }
        for (int k = tail - 1; k >= 0; k--) {
            int i = bfs[k];
            subtree[i] += 1;
            if (parents[i] >= 0) {
                subtree[parents[i]] += subtree[i];
            }
        }

        // Best first. The virtual root (index n) stands above several roots.
        boolean virtual = roots.size() != 1;
        boolean[] kept = new boolean[n];
        PriorityQueue<Integer> frontier = new PriorityQueue<>(
                Comparator.<Integer>comparingLong(i -> weight[i]).reversed().thenComparingInt(i -> i));
        int used = virtual ? 1 : 0;
        frontier.addAll(roots);
        while (!frontier.isEmpty() && used < budget) {
            int i = frontier.poll();
            kept[i] = true;
            used++;
            for (int c : children[i]) {
                frontier.add(c);
            }
        }

        // Pre-order of the kept nodes, each followed by its merged box when children were left out.
        int[] source = new int[2 * used + 1];
        int[] parent = new int[source.length];
        int[] depth = new int[source.length];
        long[] nodes = new long[source.length];
        int[][] members = new int[source.length][];
        int size = 0;
        long mergedNodes = 0;
        int mergedBoxes = 0;
        long widestMerged = 0;
        int[] stack = new int[2 * n + 2];
        int[] stackEntry = new int[2 * n + 2];
        int top = 0;
        if (virtual) {
            source[0] = VIRTUAL_ROOT;
            parent[0] = -1;
            nodes[0] = 0;
            size = 1;
        }
        Integer[] sortedRoots = roots.toArray(new Integer[0]);
        Arrays.sort(sortedRoots, siblingOrder);
        List<Integer> droppedRoots = new ArrayList<>();
        for (int k = sortedRoots.length - 1; k >= 0; k--) {
            if (kept[sortedRoots[k]]) {
                stack[top] = sortedRoots[k];
                stackEntry[top++] = virtual ? 0 : -1;
            } else {
                droppedRoots.add(0, sortedRoots[k]);
            }
        }
        while (top > 0) {
            int i = stack[--top];
            int parentEntry = stackEntry[top];
            int e = size++;
            source[e] = i;
            parent[e] = parentEntry;
            depth[e] = parentEntry < 0 ? 0 : depth[parentEntry] + 1;
            nodes[e] = 1;
            Integer[] sorted = Arrays.stream(children[i]).boxed().toArray(Integer[]::new);
            Arrays.sort(sorted, siblingOrder);
            List<Integer> dropped = new ArrayList<>();
            for (int c : sorted) {
                if (!kept[c]) {
                    dropped.add(c);
                }
            }
            if (!dropped.isEmpty()) {
                // The merged box goes after the kept children: push it first, so it pops last.
                stack[top] = -3 - e;
                stackEntry[top++] = e;
                members[e] = dropped.stream().mapToInt(Integer::intValue).toArray();
            }
            for (int k = sorted.length - 1; k >= 0; k--) {
                if (kept[sorted[k]]) {
                    stack[top] = sorted[k];
                    stackEntry[top++] = e;
                }
            }
            while (top > 0 && stack[top - 1] <= -3) {
                int owner = -3 - stack[--top];
                // Only pop a merged box once every kept child above it is done: it is on top now.
                int m = size++;
                source[m] = MERGED;
                parent[m] = owner;
                depth[m] = depth[owner] + 1;
                int[] group = members[owner];
                members[owner] = null;
                members[m] = group;
                long count = 0;
                for (int c : group) {
                    count += subtree[c];
                    widestMerged = Math.max(widestMerged, weight[c]);
                }
                nodes[m] = count;
                mergedNodes += count;
                mergedBoxes++;
            }
        }
        if (virtual && !droppedRoots.isEmpty()) {
            // The roots left out, after the kept roots' subtrees, as a child of the virtual root.
            int m = size++;
            source[m] = MERGED;
            parent[m] = 0;
            depth[m] = 1;
            members[m] = droppedRoots.stream().mapToInt(Integer::intValue).toArray();
            long count = 0;
            for (int c : members[m]) {
                count += subtree[c];
                widestMerged = Math.max(widestMerged, weight[c]);
            }
            nodes[m] = count;
            mergedNodes += count;
            mergedBoxes++;
        }
        if (virtual) {
            long all = 0;
            for (int r : roots) {
                all += subtree[r];
            }
            nodes[0] = all;
        }
        return new FlameTree(Arrays.copyOf(source, size), Arrays.copyOf(parent, size), Arrays.copyOf(depth, size),
                Arrays.copyOf(nodes, size), Arrays.copyOf(members, size), n, mergedNodes, mergedBoxes, widestMerged);
    }

    int size() {
        return source.length;
    }

    /** The node an entry shows, or {@link #MERGED} / {@link #VIRTUAL_ROOT}. */
    int source(int entry) {
        return source[entry];
    }

    /** The entry's parent entry, -1 for the top one. */
    int parent(int entry) {
        return parent[entry];
    }

    int depth(int entry) {
        return depth[entry];
    }

    /** How many nodes the entry stands for: 1, or a merged box's (or the virtual root's) node count. */
    long nodes(int entry) {
        return nodes[entry];
    }

    /** The roots of the subtrees a merged box holds (the left-out children of its parent). */
    int[] members(int entry) {
        return members[entry] == null ? new int[0] : members[entry].clone();
    }

    /** Nodes of the whole tree. */
    int totalNodes() {
        return totalNodes;
    }

    /** Nodes held by merged boxes. */
    long mergedNodes() {
        return mergedNodes;
    }

    int mergedBoxes() {
        return mergedBoxes;
    }

    /** The widest node a merged box holds (0 when nothing was merged). */
    long widestMerged() {
        return widestMerged;
    }

    /** The nodes without a parent. */
    static int[] roots(int[] parents) {
        List<Integer> roots = new ArrayList<>();
        for (int i = 0; i < parents.length; i++) {
            if (parents[i] < 0) {
                roots.add(i);
            }
        }
        return roots.stream().mapToInt(Integer::intValue).toArray();
    }

    /** Sums of {@code values} over each node's subtree (the node included), without recursion. */
    static long[] subtreeSums(int[] parents, long[] values) {
        int n = parents.length;
        long[] sums = values.clone();
        // Children before parents: any order where a node comes after its parent, reversed.
        int[] childCount = new int[n];
        for (int p : parents) {
            if (p >= 0) {
                childCount[p]++;
            }
        }
        int[] queue = new int[n];
        int tail = 0;
        for (int i = 0; i < n; i++) {
            if (childCount[i] == 0) {
                queue[tail++] = i;
            }
        }
        for (int head = 0; head < tail; head++) {
            int i = queue[head];
            int p = parents[i];
            if (p >= 0) {
                long s = sums[p] + sums[i];
                sums[p] = s < 0 ? Long.MAX_VALUE : s;
                if (--childCount[p] == 0) {
                    queue[tail++] = p;
                }
            }
        }
        return sums;
    }
}
