package io.tracegraph.domain.graph;

import io.tracegraph.domain.trace.CodePointOrder;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The op rankings of the original's {@code query} command (spec 6). "Ops" are all nodes of kind
 * op, which includes spans whose span kind is op.
 */
public final class GraphQueries {
    /** How many ops the rankings list at most. */
    public static final int OP_LIMIT = 50;

    public static final String EFFICIENCY_NOTE = "efficiency is bytes written per nanosecond of self time; "
            + "ops without self time or bytes are left out";

    private static final Comparator<GraphNode> BY_ID = Comparator.comparing(GraphNode::id, CodePointOrder.COMPARATOR);

    private GraphQueries() {
    }

    /** Op nodes by self time descending, then id; at most {@link #OP_LIMIT}. */
    public static List<GraphNode> slowestOps(ExecutionGraph graph) {
        return ops(graph, Comparator.comparingLong(GraphNode::selfTimeNs).reversed().thenComparing(BY_ID));
    }

    /**
     * {@link #slowestOps} of a graph on device time ({@link ExecutionGraph#onDeviceTime()}): ops
     * without device self time are not slow on the device and are left out, so the list may be
     * shorter (docs/decisions.md).
     */
    public static List<GraphNode> slowestOpsOnDevice(ExecutionGraph onDevice) {
        return ops(onDevice, Comparator.comparingLong(GraphNode::selfTimeNs).reversed().thenComparing(BY_ID)).stream()
                .filter(n -> n.selfTimeNs() > 0)
                .collect(Collectors.toList());
    }

    /** Op nodes by bytes descending, then id; at most {@link #OP_LIMIT}. */
    public static List<GraphNode> heaviestOps(ExecutionGraph graph) {
        return ops(graph, Comparator.comparingLong(GraphNode::bytes).reversed().thenComparing(BY_ID));
    }

    /** Op nodes with self time and bytes, by bytes per self-time nanosecond descending, then id. */
    public static List<GraphNode> efficientOps(ExecutionGraph graph) {
        return graph.spans().stream()
                .filter(n -> n.kind() == GraphNodeKind.OP && n.selfTimeNs() > 0 && n.bytes() > 0)
                .sorted(Comparator.comparingDouble(GraphQueries::bytesPerNs).reversed().thenComparing(BY_ID))
                .limit(OP_LIMIT)
                .collect(Collectors.toList());
    }

    public static double bytesPerNs(GraphNode node) {
        return node.selfTimeNs() == 0 ? 0.0 : (double) node.bytes() / node.selfTimeNs();
    }

    private static List<GraphNode> ops(ExecutionGraph graph, Comparator<GraphNode> order) {
        return graph.spans().stream()
                .filter(n -> n.kind() == GraphNodeKind.OP)
                .sorted(order)
                .limit(OP_LIMIT)
                .collect(Collectors.toList());
    }
}
