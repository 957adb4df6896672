package io.tracegraph.json;

import com.fasterxml.jackson.core.JsonGenerator;
import io.tracegraph.domain.graph.DeviceTime;
import io.tracegraph.domain.graph.GraphNode;
import io.tracegraph.domain.trace.CodePointOrder;
import io.tracegraph.domain.trace.Saturating;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The device tracks of a graph's Chrome trace on device time ({@code export --time device}), written
 * beside its host tracks: one track per device ({@code device cuda:0}), holding every span and op
 * with device time on that device as a complete event that lasts its device total time there. The
 * graph keeps each node's device time, not the kernels' own intervals (neither does the store), so
 * the events are laid out as a flame chart: a root starts at its host start, and the children of a
 * node follow one another from its start, in the order they started on the host, each as long as its
 * device total; the rest of a node is its own device self time. So every track nests properly in one
 * lane, an event's width is what the device spent on it and below it, and a viewer's "slice"
 * statistics (sum by name) give device time by name; the positions are not device timestamps
 * ({@link #LAYOUT}, written into {@code otherData}). One pass over the nodes per device after sorting
 * them by host start: n·log n.
 */
final class ChromeDeviceTracks {
    /** How the device tracks are laid out, for the reader of the file. */
    static final String LAYOUT = "each event on a device track lasts its device time there; children follow one "
            + "another from their parent's start in host start order: positions are not device timestamps";

    private final List<GraphNode> nodes;
    private final TreeSet<String> devices = new TreeSet<>(CodePointOrder.COMPARATOR);
    private final int[] firstChild;
    private final int[] nextSibling;
    private final List<Integer> roots = new ArrayList<>();
    private int firstTid;

    ChromeDeviceTracks(List<GraphNode> nodes) {
        this.nodes = nodes;
        int n = nodes.size();
        for (GraphNode node : nodes) {
            node.deviceTimes().forEach(t -> devices.add(t.device()));
        }
        // Children of each node, in host start order (then node order); roots likewise.
        Map<String, Integer> index = new HashMap<>(n * 2);
        for (int i = 0; i < n; i++) {
            index.putIfAbsent(nodes.get(i).id(), i);
        }
        int[] parent = new int[n];
        for (int i = 0; i < n; i++) {
            String parentId = nodes.get(i).parentId();
            Integer p = parentId == null ? null : index.get(parentId);
            parent[i] = p == null || p == i ? -1 : p;
        }
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.<Integer>comparingLong(i -> nodes.get(i).startNs()).thenComparingInt(i -> i));
        firstChild = new int[n];
        nextSibling = new int[n];
        int[] lastChild = new int[n];
        Arrays.fill(firstChild, -1);
        Arrays.fill(nextSibling, -1);
        for (int i : order) {
            int p = parent[i];
            if (p < 0) {
                roots.add(i);
            } else if (firstChild[p] < 0) {
                firstChild[p] = i;
                lastChild[p] = i;
            } else {
                nextSibling[lastChild[p]] = i;
                lastChild[p] = i;
            }
        }
    }

    /** The devices' track names, from thread {@code firstTid} on. */
    void names(JsonGenerator g, int firstTid) throws IOException {
        this.firstTid = firstTid;
        int tid = firstTid;
        for (String device : devices) {
            ChromeTraceWriter.thread(g, tid++, "device " + device);
        }
    }

    /** The events of every device track (after {@link #names}). */
    void events(JsonGenerator g) throws IOException {
        int n = nodes.size();
        int tid = firstTid;
        long[] start = new long[n];
        int[] stack = new int[Math.max(1, n)];
        for (String device : devices) {
            for (int root : roots) {
                if (on(nodes.get(root), device) == null) {
                    continue;
                }
                start[root] = nodes.get(root).startNs();
                int depth = 0;
                stack[depth++] = root;
                while (depth > 0) {
                    int i = stack[--depth];
                    GraphNode node = nodes.get(i);
                    ChromeTraceWriter.complete(g, node, start[i], on(node, device).totalTimeNs(), tid, true);
                    long at = start[i];
                    int pushed = depth;
                    for (int c = firstChild[i]; c >= 0; c = nextSibling[c]) {
                        DeviceTime ct = on(nodes.get(c), device);
                        if (ct != null) {
                            start[c] = at;
                            at = Saturating.add(at, ct.totalTimeNs());
                            stack[depth++] = c;
                        }
                    }
                    // Children were pushed in start order: reverse them so that the first is written first.
                    for (int a = pushed, b = depth - 1; a < b; a++, b--) {
                        int x = stack[a];
                        stack[a] = stack[b];
                        stack[b] = x;
                    }
                }
            }
            tid++;
        }
    }

    /** The node's device time on {@code device}, or null. */
    private static DeviceTime on(GraphNode node, String device) {
        for (DeviceTime t : node.deviceTimes()) {
            if (t.device().equals(device)) {
                return t;
            }
        }
        return null;
    }
}
