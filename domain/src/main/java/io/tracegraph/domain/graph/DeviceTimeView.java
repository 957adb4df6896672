package io.tracegraph.domain.graph;

import io.tracegraph.domain.trace.Saturating;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * An execution graph seen on device time ({@link ExecutionGraph#onDeviceTime()}): the nodes with
 * device time at or below them (a subtree holding every root that has any: a node's device total
 * includes its children's), each with its device self and total time, summed over its devices, as
 * its self and total time; the edges between kept nodes; the summary's measured total the roots'
 * device total, its slowest spans the spans (nodes not of kind op) with the most device self time
 * (those without any left out).
 * Memory, bytes, tensors and gradients are the graph's own. One pass over the nodes and edges.
 */
final class DeviceTimeView {
    private static final int TOP = 8;

    private DeviceTimeView() {
    }

    static ExecutionGraph of(ExecutionGraph graph) {
        List<GraphNode> nodes = new ArrayList<>();
        Set<String> kept = new HashSet<>();
        long rootTotal = 0;
        for (GraphNode n : graph.spans()) {
            if (!n.hasDeviceTime()) {
                continue;
            }
            long self = n.deviceSelfTimeNs();
            long total = n.deviceTotalTimeNs();
            nodes.add(new GraphNode(n.id(), n.parentId(), n.name(), n.kind(), n.startNs(), self, total, n.shape(),
                    n.dtype(), n.device(), n.bytes(), n.peakBytes(), n.residualBytes(), n.storageBytes(),
                    n.deviceTimes()));
            kept.add(n.id());
            if (n.parentId() == null) {
                rootTotal = Saturating.add(rootTotal, total);
            }
        }
        List<GraphEdge> edges = new ArrayList<>();
        for (GraphEdge e : graph.edges()) {
            if (kept.contains(e.from()) && kept.contains(e.to())) {
                edges.add(e);
            }
        }
        GraphSummary s = graph.summary();
        GraphSummary summary = new GraphSummary(s.entrypoint(), rootTotal / 1_000_000.0, slowest(nodes),
                s.heaviestSpans(), s.memory(), s.slowestDeviceSpans());
        return new ExecutionGraph(graph.schema(), nodes, edges, graph.tensors(), graph.gradients(), summary,
                graph.memory(), graph.capture(), graph.tensorStats());
    }

    /**
     * The first {@value #TOP} spans by (device) self time, descending; ties in node order. Spans
     * without device self time (kept for their children's) are not slow on the device: left out, so
     * the list may be shorter (docs/decisions.md).
     */
    private static List<SlowSpan> slowest(List<GraphNode> nodes) {
        List<GraphNode> spans = new ArrayList<>();
        for (GraphNode n : nodes) {
            if (n.kind() != GraphNodeKind.OP && n.selfTimeNs() > 0) {
                spans.add(n);
            }
        }
        spans.sort(Comparator.comparingLong(GraphNode::selfTimeNs).reversed());
        List<SlowSpan> slowest = new ArrayList<>();
        for (GraphNode n : spans.subList(0, Math.min(TOP, spans.size()))) {
            slowest.add(new SlowSpan(n.id(), n.name(), n.selfTimeNs()));
        }
        return slowest;
    }
}
