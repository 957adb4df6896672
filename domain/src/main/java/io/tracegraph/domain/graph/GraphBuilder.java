package io.tracegraph.domain.graph;

import static io.tracegraph.domain.task.Tasks.join;

import io.tracegraph.domain.health.HealthAnalyzer;
import io.tracegraph.domain.health.TraceHealth;
import io.tracegraph.domain.memory.LiveAllocation;
import io.tracegraph.domain.memory.MemoryAnalysis;
import io.tracegraph.domain.memory.MemoryAnalyzer;
import io.tracegraph.domain.task.Tasks;
import io.tracegraph.domain.trace.CodePointOrder;
import io.tracegraph.domain.trace.DataEdgeEvent;
import io.tracegraph.domain.trace.EdgeEvent;
import io.tracegraph.domain.trace.GradientEvent;
import io.tracegraph.domain.trace.OpEvent;
import io.tracegraph.domain.trace.RunMeta;
import io.tracegraph.domain.trace.Saturating;
import io.tracegraph.domain.trace.SpanPositions;
import io.tracegraph.domain.trace.SpanRecord;
import io.tracegraph.domain.trace.TensorEvent;
import io.tracegraph.domain.trace.TraceDocument;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * Builds the execution graph of a trace: a faithful port of the original's
 * {@code build_from_trace} (spec 5.2) with decisions D1–D5, in O(n log n).
 *
 * <p>Instead of the original's rescans, spans are indexed once (id → index, children as linked
 * lists in document order) and walked in breadth-first order, bottom-up for effective durations,
 * self times and memory roll-ups. Edge de-duplication is done after a stable sort, where equal
 * edges stand next to each other in insertion order, so no set of edge keys is ever held.
 */
public final class GraphBuilder {
    private static final int TOP = 8;

    private final TraceDocument doc;
    private final List<SpanRecord> spans;
    private final List<OpEvent> ops;
    private final int n;
    private final Map<String, Integer> spanIndex;
    private final int[] parent;
    private final int[] firstChild;
    private final int[] nextSibling;
    /** Spans in breadth-first order from the root(s); reversed, children come before parents. */
    private final int[] order;
    private final int[] opSpan;

    private GraphBuilder(TraceDocument doc) {
        this.doc = doc;
        this.spans = doc.spans();
        this.ops = doc.ops();
        this.n = spans.size();
        this.spanIndex = SpanPositions.byId(spans);
        this.parent = new int[n];
        this.firstChild = new int[n];
        this.nextSibling = new int[n];
        int[] lastChild = new int[n];
        Arrays.fill(firstChild, -1);
        Arrays.fill(nextSibling, -1);
        for (int i = 0; i < n; i++) {
            String parentId = spans.get(i).parentId();
            Integer p = parentId == null ? null : spanIndex.get(parentId);
            parent[i] = p == null ? -1 : p;
            if (p != null) {
                if (firstChild[p] < 0) {
                    firstChild[p] = i;
                } else {
                    nextSibling[lastChild[p]] = i;
                }
                lastChild[p] = i;
            }
        }
        this.order = breadthFirst();
        // Ops come in runs of one span (a span's ops are written together): the span is looked up
        // once per run, not once per op (JFR of a 1M-op build: ~2% of the samples in these lookups).
        this.opSpan = new int[ops.size()];
        String lastSpanId = null;
        int lastSpan = -1;
        for (int j = 0; j < ops.size(); j++) {
            String spanId = ops.get(j).spanId();
            if (lastSpanId == null || !lastSpanId.equals(spanId)) {
                Integer s = spanIndex.get(spanId);
                lastSpanId = spanId;
                lastSpan = s == null ? -1 : s;
            }
            opSpan[j] = lastSpan;
        }
    }

    /**
     * Runs the health gate, then builds the graph of a trusted trace. A failed capture that is
     * structurally valid is untrusted too, but comes with the partial graph of what it captured
     * (its outcome attached): open spans count with their effective duration, and the top-8 lists
     * hold only what lies under a measured span, if there is one.
     */
    public static GraphOutcome build(TraceDocument doc) {
        // The health checks, the memory analysis and the graph read the same immutable document,
        // and the graph needs the verdict only to be handed out: the checks run on a thread of
        // their own and the memory analysis in the common pool while the calling thread builds the
        // graph (and a thread of its own its edges), so that the checks no longer hold up the rest
        // while the second core idles (JFR of a 1 GB PyTorch trace: the checks ~1 s on the calling
        // thread, the memory analysis beside them a tenth of that). The graph of a trace that gets
        // none is dropped, and so is a failure to build it: before, it was not built at all.
        CompletableFuture<TraceHealth> checked = CompletableFuture.supplyAsync(() -> HealthAnalyzer.analyze(doc),
                Tasks.ownThread("health-checks"));
        CompletableFuture<MemoryAnalysis> memory = CompletableFuture.supplyAsync(() -> MemoryAnalyzer.analyze(doc));
        ExecutionGraph graph = null;
        RuntimeException failure = null;
        try {
            GraphBuilder builder = new GraphBuilder(doc);
            // The edges need neither the memory analysis nor the nodes: gathered and sorted from
            // now on, beside the end of the memory analysis and then beside the node building.
            builder.startEdges();
            graph = builder.build(join(memory));
        } catch (RuntimeException e) {
            failure = e;
        }
        TraceHealth health = join(checked);
        boolean partial = !health.trusted() && health.structurallyValid() && !health.captureComplete();
        if (!health.trusted() && !partial) {
            return new GraphOutcome.Untrusted(health);
        }
        if (failure != null) {
            throw failure;
        }
        return partial ? new GraphOutcome.Untrusted(health, graph) : new GraphOutcome.Built(graph, health);
    }

    private int[] breadthFirst() {
        int[] queue = new int[n];
        int tail = 0;
        for (int i = 0; i < n; i++) {
            if (parent[i] < 0) {
                queue[tail++] = i;
            }
        }
        for (int head = 0; head < tail; head++) {
            for (int c = firstChild[queue[head]]; c >= 0; c = nextSibling[c]) {
                queue[tail++] = c;
            }
        }
        return tail == n ? queue : Arrays.copyOf(queue, tail);
    }

    private long[] opTotal;
    private long[] childSpanTotal;
    private long[] total;
    private String[] opNodeIds;
    private int[] opAsSpan;
    private CompletableFuture<EdgeList.Columns> edgesBuilt;

    /**
     * The span times and op node ids (what the edges need), then the edges on a thread of their
     * own: started as soon as the trace is known to get a graph, while the memory analysis may
     * still run, so that no core waits for the other (JFR of a 1M-op build: the main thread
     * idle for the memory analysis, then the nodes built before the edges were started).
     */
    private void startEdges() {
        // Effective durations (spec 5.2 step 3) and the children totals of self times (step 6):
        // a span's children are its child spans (at their effective duration) and its ops.
        long[] opTotal = new long[n];
        for (int j = 0; j < ops.size(); j++) {
            if (opSpan[j] >= 0) {
                opTotal[opSpan[j]] = Saturating.add(opTotal[opSpan[j]], ops.get(j).durationNs());
            }
        }
        long[] childSpanTotal = new long[n];
        long[] total = new long[n];
        for (int k = order.length - 1; k >= 0; k--) {
            int i = order[k];
            long raw = spans.get(i).durationNs();
            total[i] = raw > 0 ? raw : Saturating.add(opTotal[i], childSpanTotal[i]);
            if (parent[i] >= 0) {
                childSpanTotal[parent[i]] = Saturating.add(childSpanTotal[parent[i]], total[i]);
            }
        }
        this.opTotal = opTotal;
        this.childSpanTotal = childSpanTotal;
        this.total = total;

        // Op node ids (spec 5.2 step 4). The original keys per-node metrics and children totals by
        // node id, so a span whose id equals an op node id shares them with that op node: opAsSpan.
        String[] opNodeIds = new String[ops.size()];
        int[] opAsSpan = new int[ops.size()];
        int[] opsSoFar = new int[n];
        Map<String, Integer> opsOfUnknownSpans = new HashMap<>();
        boolean spanIdsLookLikeOpIds = spans.stream().anyMatch(span -> span.id().contains("/op/"));
        for (int j = 0; j < ops.size(); j++) {
            OpEvent op = ops.get(j);
            int index = opSpan[j] >= 0 ? opsSoFar[opSpan[j]]++ : opsOfUnknownSpans.merge(op.spanId(), 1, Integer::sum) - 1;
            opNodeIds[j] = op.spanId() + "/op/" + index;
            Integer sameId = spanIdsLookLikeOpIds ? spanIndex.get(opNodeIds[j]) : null;
            opAsSpan[j] = sameId == null ? -1 : sameId;
        }
        this.opNodeIds = opNodeIds;
        this.opAsSpan = opAsSpan;
        this.edgesBuilt = CompletableFuture.supplyAsync(() -> buildEdges(total, opNodeIds),
                Tasks.ownThread("graph-edges"));
    }

    private ExecutionGraph build(MemoryAnalysis memory) {
        // Per-node memory metrics (spec 4.3) and residual bytes (D2). hasOpBytes: the span's metric
        // entry exists before the roll-up (an op of it, or the op node sharing its id, has bytes).
        long[] spanBytes = new long[n];
        long[] spanStorage = new long[n];
        boolean[] hasOpBytes = new boolean[n];
        long[] opBytes = opBytes(spanBytes, spanStorage, hasOpBytes);
        long[] spanPeak = spanPeaks(memory, hasOpBytes);
        long[] residual = new long[n];
        Map<String, Map<String, Long>> retainedBySpanAndTensor = retained(memory, residual);
        rollUp(spanPeak, spanBytes, residual);

        DeviceTimes deviceTimes = DeviceTimes.of(doc, spanIndex, opNodeIds, parent, order, opSpan);

        // Nodes: spans in document order, then ops in document order.
        List<GraphNode> nodes = new ArrayList<>(n + ops.size());
        addSpanNodes(nodes, spanBytes, spanPeak, residual, spanStorage, deviceTimes);
        addOpNodes(nodes, opBytes, spanBytes, spanPeak, retainedBySpanAndTensor, deviceTimes);

        GraphSummary summary = summary(nodes, memory, deviceTimes);
        RunMeta run = doc.run();
        Capture capture = doc.outcome().isDeclared()
                ? new Capture(doc.schema(), doc.outcome(), run.measuredRegionDeviceSynchronized(),
                        run.captureContract(), run.comparisonIdentity())
                : null;
        // Not joined here: the graph is handed over while its edges may still be sorting.
        List<GraphEdge> edges = new EdgeList(edgesBuilt);
        return new ExecutionGraph(ExecutionGraph.SCHEMA, nodes, edges, tensors(), gradients(), summary,
                memory.profile(), capture, doc.tensorStats());
    }

    // Each pass over a list is a method of its own, not a loop of build(): build() runs once, so
    // each of its hot loops was compiled on its own (on-stack replacement) together with everything
    // after it in build(), again after the loop's end met code not yet resolved, and a trace/7+
    // graph's device times made those compilations more than twice as long as a trace/6 graph's
    // (JFR's compilation durations, mean of three builds of each twin: 605 against 259 ms).

    /** Each op's metric bytes; its span's bytes, storage bytes and whether it has op bytes filled in. */
    private long[] opBytes(long[] spanBytes, long[] spanStorage, boolean[] hasOpBytes) {
        int[] opAsSpan = this.opAsSpan;
        long[] opBytes = new long[ops.size()];
        for (int j = 0; j < ops.size(); j++) {
            long bytes = ops.get(j).resolvedStorageBytes();
            opBytes[j] = bytes;
            if (bytes > 0 && opAsSpan[j] >= 0) {
                spanBytes[opAsSpan[j]] = bytes;
                spanStorage[opAsSpan[j]] = bytes;
                hasOpBytes[opAsSpan[j]] = true;
            }
            if (bytes > 0 && opSpan[j] >= 0) {
                spanBytes[opSpan[j]] = Saturating.add(spanBytes[opSpan[j]], bytes);
                hasOpBytes[opSpan[j]] = true;
            }
        }
        return opBytes;
    }

    /** Each span's largest allocation live at the peak, where the span has op bytes (before the roll-up). */
    private long[] spanPeaks(MemoryAnalysis memory, boolean[] hasOpBytes) {
        long[] spanPeak = new long[n];
        for (LiveAllocation allocation : memory.profile().peakBreakdown()) {
            Integer s = spanIndex.get(allocation.spanId());
            if (s != null && hasOpBytes[s]) {
                spanPeak[s] = Math.max(spanPeak[s], allocation.bytes());
            }
        }
        return spanPeak;
    }

    /** The bytes retained at the end: added to each span's {@code residual}, and returned by span and tensor. */
    private Map<String, Map<String, Long>> retained(MemoryAnalysis memory, long[] residual) {
        Map<String, Map<String, Long>> retainedBySpanAndTensor = new HashMap<>();
        for (LiveAllocation allocation : memory.retainedAtEnd()) {
            Integer s = spanIndex.get(allocation.spanId());
            if (s != null) {
                residual[s] = Saturating.add(residual[s], allocation.bytes());
            }
            retainedBySpanAndTensor.computeIfAbsent(allocation.spanId(), k -> new HashMap<>())
                    .merge(allocation.tensorId(), allocation.bytes(), Saturating::add);
        }
        return retainedBySpanAndTensor;
    }

    /** Peaks and residual bytes rolled up from children to parents, bottom-up. */
    private void rollUp(long[] spanPeak, long[] spanBytes, long[] residual) {
        for (int k = order.length - 1; k >= 0; k--) {
            int i = order[k];
            spanPeak[i] = Math.max(spanPeak[i], spanBytes[i]);
            int p = parent[i];
            if (p >= 0) {
                spanPeak[p] = Math.max(spanPeak[p], spanPeak[i]);
                residual[p] = Saturating.add(residual[p], residual[i]);
            }
        }
    }

    private List<TensorRecord> tensors() {
        List<TensorRecord> tensors = new ArrayList<>(doc.tensors().size());
        for (TensorEvent t : doc.tensors()) {
            tensors.add(new TensorRecord(t.spanId(), t.tensorId(), t.shape(), t.dtype(), t.device(), t.requiresGrad(),
                    t.storageBytes() == null ? 0 : t.storageBytes(), t.category(), t.label()));
        }
        return tensors;
    }

    private List<GradientRecord> gradients() {
        List<GradientRecord> gradients = new ArrayList<>(doc.gradients().size());
        for (GradientEvent g : doc.gradients()) {
            gradients.add(new GradientRecord(g.root(), g.key(), g.state(), g.norm()));
        }
        return gradients;
    }

    /** The measured total and the top spans of the measured subtree (spec 5.2 steps 10 to 13). */
    private GraphSummary summary(List<GraphNode> nodes, MemoryAnalysis memory, DeviceTimes deviceTimes) {
        double totalMs = 0.0;
        for (SpanRecord span : spans) {
            if (span.measured()) {
                totalMs += span.durationNs() / 1_000_000.0;
            }
        }
        // The candidates: the spans of the measured subtree that are not op-kind, by position.
        boolean[] measured = measuredSubtree();
        int[] candidateAt = new int[n];
        int count = 0;
        List<GraphNode> candidates = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            GraphNode node = nodes.get(i);
            if (node.kind() != GraphNodeKind.OP && measured[i]) {
                candidateAt[count++] = i;
                candidates.add(node);
            }
        }
        List<SlowSpan> slowest = top(candidates, Comparator.comparingLong(GraphNode::selfTimeNs).reversed())
                .stream().map(node -> new SlowSpan(node.id(), node.name(), node.selfTimeNs())).toList();
        List<HeavySpan> heaviest = top(candidates, Comparator.comparingLong(GraphNode::bytes).reversed())
                .stream().map(node -> new HeavySpan(node.id(), node.name(), node.bytes(), node.peakBytes())).toList();
        List<DeviceSpanCost> slowestDevice =
                deviceTimes.isEmpty() ? List.of() : slowestDevice(nodes, candidateAt, count, deviceTimes);
        return new GraphSummary(doc.run().entrypoint(), totalMs, slowest, heaviest, memory.profile().summary(),
                slowestDevice);
    }

    /** The span nodes, in document order. */
    private void addSpanNodes(List<GraphNode> nodes, long[] spanBytes, long[] spanPeak, long[] residual,
            long[] spanStorage, DeviceTimes deviceTimes) {
        long[] opTotal = this.opTotal;
        long[] childSpanTotal = this.childSpanTotal;
        long[] total = this.total;
        for (int i = 0; i < n; i++) {
            SpanRecord span = spans.get(i);
            long childrenTotal = Saturating.add(childSpanTotal[i], opTotal[i]);
            nodes.add(new GraphNode(span.id(), span.parentId(), span.name(), spanKind(span), span.startNs(),
                    Saturating.sub(total[i], childrenTotal), total[i], null, null, null, spanBytes[i], spanPeak[i],
                    residual[i], spanStorage[i] > 0 ? spanStorage[i] : null, deviceTimes.of(i)));
        }
    }

    /** The op nodes, in document order. */
    private void addOpNodes(List<GraphNode> nodes, long[] opBytes, long[] spanBytes, long[] spanPeak,
            Map<String, Map<String, Long>> retainedBySpanAndTensor, DeviceTimes deviceTimes) {
        long[] opTotal = this.opTotal;
        long[] childSpanTotal = this.childSpanTotal;
        String[] opNodeIds = this.opNodeIds;
        int[] opAsSpan = this.opAsSpan;
        // Op nodes mostly have no device time: the loop then does not ask for it (a million calls,
        // and code C2 compiled into this loop for trace/7+ graphs only).
        boolean opDeviceTimes = deviceTimes.anyOpNode(n);
        // What the span of the previous op retains (ops come in runs of one span).
        String retainedOf = null;
        Map<String, Long> retained = null;
        for (int j = 0; j < ops.size(); j++) {
            OpEvent op = ops.get(j);
            String id = opNodeIds[j];
            int x = opAsSpan[j];
            long storage = op.storageBytes() == null ? 0 : op.storageBytes();
            long metricBytes = x >= 0 ? spanBytes[x] : opBytes[j];
            long metricPeak = x >= 0 ? spanPeak[x] : 0;
            long bytes = metricBytes > 0 ? metricBytes : storage;
            long peak = metricPeak > 0 ? metricPeak : storage;
            long self = x >= 0
                    ? Saturating.sub(op.durationNs(), Saturating.add(childSpanTotal[x], opTotal[x]))
                    : op.durationNs();
            Long storageBytes = op.storageBytes() != null ? op.storageBytes() : (opBytes[j] > 0 ? opBytes[j] : null);
            long opResidual = 0;
            if (op.output() != null) {
                if (!op.spanId().equals(retainedOf)) {
                    retainedOf = op.spanId();
                    retained = retainedBySpanAndTensor.get(retainedOf);
                }
                if (retained != null) {
                    opResidual = retained.getOrDefault(op.output(), 0L);
                }
            }
            nodes.add(new GraphNode(id, op.spanId(), op.opName(), GraphNodeKind.OP, op.timestampNs(),
                    self, op.durationNs(), op.shape().isEmpty() ? null : op.shape(), op.dtype(),
                    op.device(), bytes, peak, opResidual, storageBytes,
                    opDeviceTimes ? deviceTimes.of(n + j) : List.of()));
        }
    }

    /**
     * The top-{@value #TOP} entries of (span, device) by device self time, over the spans of the
     * measured subtree in node order and their devices in code point order; a stable sort, so ties
     * keep that order (candle-graph graph/4's {@code slowest_device_spans}). Read from the device
     * time table by span position ({@code candidateAt[0, count)}), not from each node's list.
     */
    private static List<DeviceSpanCost> slowestDevice(List<GraphNode> nodes, int[] candidateAt, int count,
            DeviceTimes deviceTimes) {
        // One pass that keeps the best so far, as top() does: an entry goes before the first kept
        // one it beats, after its equals, so the first TOP of the stable sort, without sorting
        // the (span, device) entries of every span (100k and more with device intervals).
        int[] spanAt = new int[TOP];
        int[] deviceAt = new int[TOP];
        long[] selfAt = new long[TOP];
        int kept = 0;
        int d = deviceTimes.devices();
        for (int c = 0; c < count; c++) {
            int i = candidateAt[c];
            for (int x = 0; x < d; x++) {
                long self = deviceTimes.self(i, x);
                if (self <= 0) {
                    continue;
                }
                int at = kept;
                while (at > 0 && self > selfAt[at - 1]) {
                    at--;
                }
                if (at >= TOP) {
                    continue;
                }
                int moved = Math.min(kept, TOP - 1) - at;
                System.arraycopy(spanAt, at, spanAt, at + 1, moved);
                System.arraycopy(deviceAt, at, deviceAt, at + 1, moved);
                System.arraycopy(selfAt, at, selfAt, at + 1, moved);
                spanAt[at] = i;
                deviceAt[at] = x;
                selfAt[at] = self;
                kept = Math.min(kept + 1, TOP);
            }
        }
        List<DeviceSpanCost> costs = new ArrayList<>(kept);
        for (int k = 0; k < kept; k++) {
            GraphNode node = nodes.get(spanAt[k]);
            costs.add(new DeviceSpanCost(node.id(), node.name(), deviceTimes.device(deviceAt[k]), selfAt[k]));
        }
        return List.copyOf(costs);
    }

    private static GraphNodeKind spanKind(SpanRecord span) {
        if (span.parentId() == null) {
            return GraphNodeKind.ROOT;
        }
        switch (span.kind()) {
            case MODULE:
                return GraphNodeKind.MODULE;
            case OP:
                return GraphNodeKind.OP;
            default:
                return GraphNodeKind.FUNCTION;
        }
    }

    /**
     * The first {@value #TOP} of a stable sort (ties keep node order), by one pass that keeps the
     * best so far in order: a later node goes before the first kept one it beats, after its equals.
     */
    private static List<GraphNode> top(List<GraphNode> candidates, Comparator<GraphNode> order) {
        GraphNode[] best = new GraphNode[TOP];
        int kept = 0;
        for (GraphNode node : candidates) {
            int at = kept;
            while (at > 0 && order.compare(node, best[at - 1]) < 0) {
                at--;
            }
            if (at >= TOP) {
                continue;
            }
            System.arraycopy(best, at, best, at + 1, Math.min(kept, TOP - 1) - at);
            best[at] = node;
            kept = Math.min(kept + 1, TOP);
        }
        return Arrays.asList(Arrays.copyOf(best, kept));
    }

    /** The measured spans and everything below them, following span parent links only. */
    private boolean[] measuredSubtree() {
        boolean[] in = new boolean[n];
        int[] stack = new int[n];
        int top = 0;
        for (int i = 0; i < n; i++) {
            if (spans.get(i).measured()) {
                in[i] = true;
                stack[top++] = i;
            }
        }
        while (top > 0) {
            int i = stack[--top];
            for (int c = firstChild[i]; c >= 0; c = nextSibling[c]) {
                if (!in[c]) {
                    in[c] = true;
                    stack[top++] = c;
                }
            }
        }
        return in;
    }

    /**
     * Spec 5.2 step 7. Candidate edges are gathered in the original's insertion order with their
     * origin, sorted stably by (from, to, kind), and then each run of equal keys is filtered by the
     * original's rules: an inferred parent→child edge yields to a trace edge; a data edge yields to
     * an earlier equal data edge; an op call edge yields to an inferred span edge with the same
     * pair (only possible when a span id looks like an op node id); a data edge the producer
     * recorded (trace/7) yields to any equal data edge, which comes from an op or an earlier record.
     */
    private EdgeList.Columns buildEdges(long[] total, String[] opNodeIds) {
        int count = doc.edges().size() + doc.dataEdges().size();
        for (int i = 0; i < n; i++) {
            SpanRecord span = spans.get(i);
            if (span.parentId() != null && spanKind(span) != GraphNodeKind.OP) {
                count++;
            }
        }
        for (OpEvent op : ops) {
            if (op.output() != null) {
                count += op.inputs().size() + 1;
            }
        }
        Candidate[] sorted = new Candidate[count];
        int k = 0;
        byte call = (byte) GraphEdgeKind.CALL.ordinal();
        byte data = (byte) GraphEdgeKind.DATA.ordinal();
        for (EdgeEvent edge : doc.edges()) {
            sorted[k++] = new Candidate(edge.fromSpan(), edge.toSpan(), call, edge.durationNs(), null, Origin.TRACE);
        }
        for (int i = 0; i < n; i++) {
            // The span's node: its id, parent and total time (an op-kind span is an op node, no edge).
            SpanRecord span = spans.get(i);
            if (span.parentId() != null && spanKind(span) != GraphNodeKind.OP) {
                sorted[k++] = new Candidate(span.parentId(), span.id(), call, total[i], null, Origin.SPAN);
            }
        }
        for (int j = 0; j < ops.size(); j++) {
            OpEvent op = ops.get(j);
            if (op.output() == null) {
                continue;
            }
            for (String input : op.inputs()) {
                sorted[k++] = new Candidate(input, op.output(), data, op.durationNs(), op.opName(), Origin.DATA);
            }
            sorted[k++] = new Candidate(op.spanId(), opNodeIds[j], call, op.durationNs(), op.opName(), Origin.OP);
        }
        for (DataEdgeEvent edge : doc.dataEdges()) {
            sorted[k++] = new Candidate(edge.fromTensor(), edge.toTensor(), data, 0, null, Origin.RECORDED_DATA);
        }
        sortStably(sorted);

        // One pass over the sorted candidates (each read once: they lie scattered in memory), the
        // kept ones written out as columns.
        String[] from = new String[count];
        String[] to = new String[count];
        byte[] kinds = new byte[count];
        long[] durations = new long[count];
        String[] labels = new String[count];
        int e = 0;
        int runStart = 0;
        while (runStart < sorted.length) {
            int runEnd = runStart + 1;
            while (runEnd < sorted.length && Candidate.ORDER.compare(sorted[runStart], sorted[runEnd]) == 0) {
                runEnd++;
            }
            boolean traceSeen = false;
            boolean spanSeen = false;
            boolean dataSeen = false;
            for (int r = runStart; r < runEnd; r++) {
                Candidate c = sorted[r];
                boolean keep;
                switch (c.origin) {
                    case TRACE:
                        traceSeen = true;
                        keep = true;
                        break;
                    case SPAN:
                        keep = !traceSeen && !spanSeen;
                        spanSeen = true;
                        break;
                    case OP:
                        keep = !spanSeen;
                        break;
                    default:
                        // DATA, then RECORDED_DATA: inserted last, so an op's equal edge comes first.
                        keep = !dataSeen;
                        dataSeen = true;
                }
                if (keep) {
                    from[e] = c.from;
                    to[e] = c.to;
                    kinds[e] = c.kind;
                    durations[e] = c.durationNs;
                    labels[e] = c.label;
                    e++;
                }
            }
            runStart = runEnd;
        }
        return new EdgeList.Columns(e, from, to, kinds, durations, labels);
    }

    /**
     * A stable sort by {@link Candidate#ORDER} on two threads: each half is sorted on its own, and
     * the halves are merged, ties taken from the first half. ({@link Arrays#parallelSort} sorts on
     * one thread where the common pool has one worker, as on a machine with two cores.) The
     * calling thread builds the nodes meanwhile: three threads, so the cores stay busy until
     * the last one finishes. The first half is sorted on a thread of its own, not in the common
     * pool: this sort itself runs on that pool's only worker (two cores), where a task submitted
     * to it waited for this one, so both halves were sorted one after the other while the
     * calling thread, done with the nodes, waited for the edges (JFR: one core idle for ~2 s).
     */
    private static void sortStably(Candidate[] a) {
        int n = a.length;
        if (n < 1 << 15 || Runtime.getRuntime().availableProcessors() < 2) {
            mergeSort(a, 0, n);
            return;
        }
        int mid = n >>> 1;
        Candidate[] left = Arrays.copyOfRange(a, 0, mid);
        CompletableFuture<Void> sorting = CompletableFuture.runAsync(() -> mergeSort(left, 0, mid),
                Tasks.ownThread("edge-sort"));
        mergeSort(a, mid, n);
        join(sorting);
        int i = 0;
        int j = mid;
        int k = 0;
        while (i < mid && j < n) {
            a[k++] = Candidate.ORDER.compare(a[j], left[i]) < 0 ? a[j++] : left[i++];
        }
        while (i < mid) {
            a[k++] = left[i++];
        }
        // The rest of the second half is in place already.
    }

    private static final int RUN = 32;

    /**
     * A stable sort of {@code a[from, to)} by {@link Candidate#ORDER}, so the order
     * {@code Arrays.sort} gave (a stable sort's order is unique): runs of 32 by binary insertion,
     * then merged bottom-up between two arrays, a merge of two runs already in order copied as it
     * is. Written for candidates instead of {@code TimSort}'s generic code, which C2 compiled
     * again and again (its {@code mergeHi} six times after deoptimisations, ~20% of C2's time for a
     * 1 GB PyTorch trace).
     */
    private static void mergeSort(Candidate[] a, int from, int to) {
        int n = to - from;
        if (n < 2) {
            return;
        }
        Candidate[] x = Arrays.copyOfRange(a, from, to);
        for (int lo = 0; lo < n; lo += RUN) {
            insertionSort(x, lo, Math.min(lo + RUN, n));
        }
        if (n > RUN) {
            Candidate[] y = new Candidate[n];
            for (int width = RUN; width < n; width *= 2) {
                for (int lo = 0; lo < n; lo += 2 * width) {
                    merge(x, y, lo, Math.min(lo + width, n), Math.min(lo + 2 * width, n));
                }
                Candidate[] t = x;
                x = y;
                y = t;
            }
        }
        System.arraycopy(x, 0, a, from, n);
    }

    /** Binary insertion, each element after the equal ones before it (stable). */
    private static void insertionSort(Candidate[] x, int lo, int hi) {
        for (int i = lo + 1; i < hi; i++) {
            Candidate pivot = x[i];
            if (Candidate.ORDER.compare(x[i - 1], pivot) <= 0) {
                continue;
            }
            int left = lo;
            int right = i - 1;
            while (left < right) {
                int mid = (left + right) >>> 1;
                if (Candidate.ORDER.compare(pivot, x[mid]) < 0) {
                    right = mid;
                } else {
                    left = mid + 1;
                }
            }
            System.arraycopy(x, left, x, left + 1, i - left);
            x[left] = pivot;
        }
    }

    /** Merges {@code src[lo, mid)} and {@code src[mid, hi)} into {@code dst[lo, hi)}, ties from the left. */
    private static void merge(Candidate[] src, Candidate[] dst, int lo, int mid, int hi) {
        if (mid >= hi || Candidate.ORDER.compare(src[mid - 1], src[mid]) <= 0) {
            System.arraycopy(src, lo, dst, lo, hi - lo);
            return;
        }
        int i = lo;
        int j = mid;
        int k = lo;
        while (i < mid && j < hi) {
            dst[k++] = Candidate.ORDER.compare(src[j], src[i]) < 0 ? src[j++] : src[i++];
        }
        if (i < mid) {
            System.arraycopy(src, i, dst, k, mid - i);
        } else {
            System.arraycopy(src, j, dst, k, hi - j);
        }
    }

    private enum Origin {
        TRACE,
        SPAN,
        OP,
        DATA,
        RECORDED_DATA
    }

    private static final class Candidate {
        private static final long NO_KEY = -1L;

        /**
         * (from, to, kind) in code point order. Each id carries its first sixteen characters packed
         * into two longs when they are all below U+0100, so most comparisons are one or two unsigned
         * long comparisons; otherwise, when neither edge has a character at or above U+D800, UTF-16
         * order is code point order and the intrinsic {@link String#compareTo} decides.
         */
        static final Comparator<Candidate> ORDER = (a, b) -> {
            int c = a.fromLength >= 0 && b.fromLength >= 0
                    ? compareShort(a.fromKey, a.fromKey2, a.fromLength, b.fromKey, b.fromKey2, b.fromLength)
                    : compare(a.fromKey, a.fromKey2, b.fromKey, b.fromKey2, a.from, b.from, a, b);
            if (c != 0) {
                return c;
            }
            c = a.toLength >= 0 && b.toLength >= 0
                    ? compareShort(a.toKey, a.toKey2, a.toLength, b.toKey, b.toKey2, b.toLength)
                    : compare(a.toKey, a.toKey2, b.toKey, b.toKey2, a.to, b.to, a, b);
            return c != 0 ? c : a.kind - b.kind;
        };
        private static final byte UNKNOWN = 0;
        private static final byte PLAIN = 1;
        private static final byte NOT_PLAIN = 2;
        final String from;
        final String to;
        final Origin origin;
        final long durationNs;
        final String label;
        /**
         * Whether both ids are free of surrogates, found out the first time the packed keys do not
         * decide a comparison (most never get there). Each candidate is sorted by one thread.
         */
        private byte plain = UNKNOWN;
        final long fromKey;
        final long fromKey2;
        final long toKey;
        final long toKey2;
        /**
         * The id's length when its two keys hold all of it (at most sixteen characters, all below
         * U+0100), else -1; and the edge kind's ordinal. Kept here so that comparing two such ids,
         * as almost all are, reads nothing but the two candidates.
         */
        private final byte fromLength;
        private final byte toLength;
        final byte kind;

        Candidate(String from, String to, byte kind, long durationNs, String label, Origin origin) {
            this.from = Objects.requireNonNull(from, "from");
            this.to = Objects.requireNonNull(to, "to");
            this.origin = origin;
            this.durationNs = durationNs;
            this.label = label;
            this.fromKey = prefixKey(from, 0);
            this.fromKey2 = prefixKey(from, 8);
            this.toKey = prefixKey(to, 0);
            this.toKey2 = prefixKey(to, 8);
            this.fromLength = shortLength(from, fromKey, fromKey2);
            this.toLength = shortLength(to, toKey, toKey2);
            this.kind = kind;
        }

        private static byte shortLength(String id, long key, long key2) {
            return id.length() <= 16 && key != NO_KEY && key2 != NO_KEY ? (byte) id.length() : -1;
        }

        /**
         * Two ids held whole by their keys: the zero-padded characters, then the length (U+0000 is
         * the least character, so where the padded characters agree the shorter id is a prefix of
         * the other, and sorts first). Code point order, as {@link CodePointOrder} gives it.
         */
        private static int compareShort(long x1, long x2, int xn, long y1, long y2, int yn) {
            if (x1 != y1) {
                return Long.compareUnsigned(x1, y1);
            }
            if (x2 != y2) {
                return Long.compareUnsigned(x2, y2);
            }
            return xn - yn;
        }

        /**
         * Two ids by their packed characters 0..7, then 8..15, where both have them (the keys
         * order like the zero-padded strings, so keys that differ order like the strings), else
         * by the strings.
         */
        private static int compare(long x1, long x2, long y1, long y2, String x, String y, Candidate a, Candidate b) {
            if (x1 != NO_KEY && y1 != NO_KEY) {
                if (x1 != y1) {
                    return Long.compareUnsigned(x1, y1);
                }
                if (x2 != y2 && x2 != NO_KEY && y2 != NO_KEY) {
                    return Long.compareUnsigned(x2, y2);
                }
            }
            return compare(x, y, a.plain() && b.plain());
        }

        private boolean plain() {
            if (plain == UNKNOWN) {
                plain = belowSurrogates(from) && belowSurrogates(to) ? PLAIN : NOT_PLAIN;
            }
            return plain == PLAIN;
        }

        /**
         * The eight characters from {@code from}, one byte each, zero-padded, which order like the
         * strings as far as they go; {@code NO_KEY} (compare the strings instead) when one of them
         * is U+0100 or above, or when all eight happen to be U+00FF.
         */
        private static long prefixKey(String s, int from) {
            long key = 0;
            int n = Math.min(from + 8, s.length());
            for (int i = from; i < from + 8; i++) {
                int c = i < n ? s.charAt(i) : 0;
                if (c > 0xFF) {
                    return NO_KEY;
                }
                key = key << 8 | c;
            }
            return key;
        }

        private static int compare(String x, String y, boolean plain) {
            if (x == y) {
                return 0;
            }
            return plain ? x.compareTo(y) : CodePointOrder.compare(x, y);
        }

        private static boolean belowSurrogates(String s) {
            for (int i = 0; i < s.length(); i++) {
                if (s.charAt(i) >= Character.MIN_SURROGATE) {
                    return false;
                }
            }
            return true;
        }
    }
}
