package io.tracegraph.json.pytorch;

import io.tracegraph.domain.graph.ExecutionGraph;
import io.tracegraph.domain.graph.GraphBuilder;
import io.tracegraph.domain.graph.GraphNode;
import io.tracegraph.domain.graph.GraphOutcome;
import io.tracegraph.domain.trace.OpEvent;
import io.tracegraph.domain.trace.SpanRecord;
import io.tracegraph.domain.trace.TraceDocument;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Small PyTorch traces written by hand for tests, and the trees they read into. */
final class TorchTraces {
    private TorchTraces() {
    }

    /** A complete event; {@code args} is the inside of the args object (may be empty). */
    static String x(String cat, String name, Object pid, Object tid, double tsMicros, double durMicros, String args) {
        return String.format(Locale.ROOT, "{\"ph\": \"X\", \"cat\": \"%s\", \"name\": \"%s\", \"pid\": %s, \"tid\": %s, "
                + "\"ts\": %s, \"dur\": %s, \"args\": {%s}}", cat, name, json(pid), json(tid), number(tsMicros),
                number(durMicros), args);
    }

    /** A {@code [memory]} instant event. */
    static String memory(Object pid, Object tid, double tsMicros, String args) {
        return String.format(Locale.ROOT, "{\"ph\": \"i\", \"s\": \"t\", \"name\": \"[memory]\", \"pid\": %s, "
                + "\"tid\": %s, \"ts\": %s, \"args\": {%s}}", json(pid), json(tid), number(tsMicros), args);
    }

    static String trace(String... events) {
        return "{\"schemaVersion\": 1, \"traceEvents\": [\n  " + String.join(",\n  ", events) + "\n]}";
    }

    private static String json(Object v) {
        return v instanceof String s ? "\"" + s + "\"" : String.valueOf(v);
    }

    private static String number(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }

    static TraceDocument read(String trace) {
        return read(trace.getBytes(StandardCharsets.UTF_8));
    }

    static TraceDocument read(byte[] trace) {
        return new PyTorchTraceReader().read("t.json", new ByteArrayInputStream(trace));
    }

    static EventTable events(String trace) {
        try {
            return TraceFraming.read("t.json", new ByteArrayInputStream(trace.getBytes(StandardCharsets.UTF_8)), 2);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ExecutionGraph graph(String trace) {
        GraphOutcome outcome = GraphBuilder.build(read(trace));
        if (!(outcome instanceof GraphOutcome.Built built)) {
            throw new AssertionError("untrusted: " + outcome.health().untrustedMessage());
        }
        return built.graph();
    }

    /**
     * The tree as lines of {@code name [start..end]}, indented two spaces a level, spans before the
     * ops of the same parent, ops marked {@code op:}. Times in nanoseconds.
     */
    static List<String> tree(TraceDocument doc) {
        Map<String, List<SpanRecord>> children = new HashMap<>();
        Map<String, List<OpEvent>> ops = new HashMap<>();
        SpanRecord root = null;
        for (SpanRecord s : doc.spans()) {
            if (s.parentId() == null) {
                root = s;
            } else {
                children.computeIfAbsent(s.parentId(), k -> new ArrayList<>()).add(s);
            }
        }
        for (OpEvent op : doc.ops()) {
            ops.computeIfAbsent(op.spanId(), k -> new ArrayList<>()).add(op);
        }
        List<String> lines = new ArrayList<>();
        walk(root, 0, children, ops, lines);
        return lines;
    }

    private static void walk(SpanRecord span, int depth, Map<String, List<SpanRecord>> children,
            Map<String, List<OpEvent>> ops, List<String> lines) {
        String indent = "  ".repeat(depth);
        lines.add(indent + span.name() + " [" + span.startNs() + ".." + (span.startNs() + span.durationNs()) + "]");
        for (SpanRecord child : children.getOrDefault(span.id(), List.of())) {
            walk(child, depth + 1, children, ops, lines);
        }
        for (OpEvent op : ops.getOrDefault(span.id(), List.of())) {
            lines.add(indent + "  op:" + op.opName() + " [" + op.timestampNs() + ".." + (op.timestampNs()
                    + op.durationNs()) + "]");
        }
    }

    /** The node of a graph with that name (the first). */
    static GraphNode node(ExecutionGraph graph, String name) {
        return graph.spans().stream().filter(n -> n.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no node " + name));
    }
}
