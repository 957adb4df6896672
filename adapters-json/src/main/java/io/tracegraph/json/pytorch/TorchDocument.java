package io.tracegraph.json.pytorch;

import static io.tracegraph.domain.task.Tasks.join;

import io.tracegraph.domain.trace.TraceOrigin;
import io.tracegraph.domain.trace.CaptureNote;
import io.tracegraph.domain.trace.DeviceInterval;
import io.tracegraph.domain.trace.Evidence;
import io.tracegraph.domain.trace.ExecutionPhase;
import io.tracegraph.domain.trace.ExecutionStep;
import io.tracegraph.domain.trace.MemoryAction;
import io.tracegraph.domain.trace.MemoryCategory;
import io.tracegraph.domain.trace.MemoryEvent;
import io.tracegraph.domain.trace.OpEvent;
import io.tracegraph.domain.trace.RunMeta;
import io.tracegraph.domain.trace.RunOutcome;
import io.tracegraph.domain.trace.Shape;
import io.tracegraph.domain.trace.SpanKind;
import io.tracegraph.domain.trace.SpanRecord;
import io.tracegraph.domain.trace.TimingMode;
import io.tracegraph.domain.trace.TraceDocument;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * Maps a {@link TorchTrace} into tracegraph's trace model: the root ({@value #ROOT_NAME}, the one
 * measured span), the steps, a span per host piece that is not an op, an op per leaf cpu op, the
 * paired memory events, the run metadata and the reader's notes.
 *
 * <p>Span ids are the pre-order position of the span in the tree, zero-padded to one width, so
 * that their code-point order is the tree's order. The spans are listed in that order.
 */
final class TorchDocument {
    /** The name of every PyTorch trace's root, the first component of its semantic paths. */
    static final String ROOT_NAME = "torch.profiler";
    static final String STEP_NAME = "ProfilerStep";
    /** The {@code schema} of the documents this reader makes. */
    static final String SCHEMA = "pytorch-profiler";
    private static final long EPOCH_2000_NS = 946_684_800_000_000_000L;

    private final TorchTrace trace;
    private final EventTable t;
    private final HostTree tree;

    /** Span index of each piece (-1: an op or folded into one); root = 0, steps follow the tree. */
    private int[] spanOfPiece;
    private int[] spanOfStep;
    private List<SpanRecord> spans;
    private List<OpEvent> ops;
    /** For each op piece: the span it hangs under and its index among that span's ops. */
    private int[] opSpan;
    private int[] opIndex;
    private int[] opsOfSpan;
    private String[] ids;
    private int width;
    /** The digits of the id being made (ids are made on one thread, in order). */
    private byte[] idDigits;

    private TorchDocument(TorchTrace trace) {
        this.trace = trace;
        this.t = trace.events;
        this.tree = trace.tree;
    }

    static TraceDocument map(TorchTrace trace, String runIdFallback) {
        return new TorchDocument(trace).document(runIdFallback);
    }

    private TraceDocument document(String runIdFallback) {
        // What each op allocated needs only the tree and the paired events: found on another core
        // while the children lists are put together.
        CompletableFuture<long[]> allocated = CompletableFuture.supplyAsync(this::allocatedDuringOps);
        CompletableFuture<String[]> opDevices = CompletableFuture.supplyAsync(this::deviceOfOps);
        int pieces = tree.n;
        // Children of each piece, and the top-level pieces of each segment, in processing order.
        int[] firstChild = new int[pieces];
        int[] nextSibling = new int[pieces];
        int[] lastChild = new int[pieces];
        Arrays.fill(firstChild, -1);
        Arrays.fill(nextSibling, -1);
        int segments = tree.steps + 1;
        int[] segFirst = new int[segments];
        int[] segLast = new int[segments];
        Arrays.fill(segFirst, -1);
        int topCount = 0;
        for (int p : tree.preOrder) {
            int par = tree.parent[p];
            if (par >= 0) {
                if (firstChild[par] < 0) {
                    firstChild[par] = p;
                } else {
                    nextSibling[lastChild[par]] = p;
                }
                lastChild[par] = p;
            } else {
                topCount++;
            }
        }
        // Top-level pieces of a segment ordered by start, then lane (the pre-order is per lane).
        Integer[] tops = new Integer[topCount];
        int k = 0;
        int[] preIndex = new int[pieces];
        for (int i = 0; i < tree.preOrder.length; i++) {
            int p = tree.preOrder[i];
            preIndex[p] = i;
            if (tree.parent[p] < 0) {
                tops[k++] = p;
            }
        }
        Arrays.sort(tops, (a, b) -> {
            int c = Integer.compare(tree.segment[a], tree.segment[b]);
            if (c != 0) {
                return c;
            }
            c = Long.compare(tree.start[a], tree.start[b]);
            return c != 0 ? c : Integer.compare(preIndex[a], preIndex[b]);
        });
        for (int p : tops) {
            int s = tree.segment[p] + 1;
            if (segFirst[s] < 0) {
                segFirst[s] = p;
            } else {
                nextSibling[segLast[s]] = p;
            }
            segLast[s] = p;
        }

        // Count spans to fix the id width: root + steps + pieces that are spans.
        long spanCount = 1 + tree.steps;
        int opCount = 0;
        for (int p = 0; p < pieces; p++) {
            if (tree.opOf[p] < 0) {
                spanCount++;
            } else if (tree.opOf[p] == p) {
                opCount++;
            }
        }
        spans = new ArrayList<>((int) spanCount);
        ops = new ArrayList<>(opCount);
        width = Long.toString(Math.max(0, spanCount - 1)).length();
        idDigits = new byte[width];
        shapes = new Shape[t.shapes.size()];
        ids = new String[(int) spanCount];
        spanOfPiece = new int[pieces];
        Arrays.fill(spanOfPiece, -1);
        spanOfStep = new int[tree.steps];
        opSpan = new int[pieces];
        opIndex = new int[pieces];
        opsOfSpan = new int[(int) spanCount];

        String[] names = normalizedNames();
        String[] deviceOfOp = join(opDevices);
        long[] allocatedDuring = join(allocated);

        // Pre-order: the root, then its children (gap pieces and steps) by start.
        addSpan(-1, ROOT_NAME, SpanKind.FUNCTION, true, tree.rootStart, tree.rootEnd - tree.rootStart, null);
        Walk walk = new Walk(firstChild, nextSibling, names, allocatedDuring, deviceOfOp);
        int gap = segFirst[0];
        int step = 0;
        while (gap >= 0 || step < tree.steps) {
            if (gap < 0 || (step < tree.steps && tree.stepStart[step] <= tree.start[gap])) {
                int stepSpan = addSpan(0, STEP_NAME, SpanKind.FUNCTION, false, tree.stepStart[step],
                        tree.stepEnd[step] - tree.stepStart[step], null);
                spanOfStep[step] = stepSpan;
                for (int p = segFirst[step + 1]; p >= 0; p = nextSibling[p]) {
                    walk.subtree(p, stepSpan);
                }
                step++;
            } else {
                walk.subtree(gap, 0);
                gap = nextSibling[gap];
            }
        }

        // The memory events and the device intervals only read what the walk made: side by side.
        CompletableFuture<List<MemoryEvent>> memoryMapped = CompletableFuture.supplyAsync(() -> memoryEvents(names));
        List<DeviceInterval> intervals = deviceIntervals();
        List<MemoryEvent> memory = join(memoryMapped);
        RunMeta run = runMeta(runIdFallback);
        TraceOrigin origin = new TraceOrigin(EnumSet.of(Evidence.OPERATIONS, Evidence.MEMORY), true, notes());
        return new TraceDocument(SCHEMA, run, spans, ops, List.of(), memory, List.of(), List.of(), List.of(),
                List.of(), intervals, List.of(), RunOutcome.IMPLIED_COMPLETE, origin);
    }

    /**
     * One interval per kernel, memcpy and memset, attributed to the node that launched it: a span by
     * its id, an op by its node id ({@code <span>/op/<k>}), the root when nothing launched it.
     */
    private List<DeviceInterval> deviceIntervals() {
        List<DeviceInterval> out = new ArrayList<>();
        int[] launcher = trace.launches.launcher;
        String[] opNodeIds = new String[tree.n];
        java.util.Map<Integer, String> streams = new java.util.HashMap<>();
        java.util.Map<Integer, String> devices = new java.util.HashMap<>();
        for (int r = 0; r < t.size; r++) {
            if (!EventKind.isDevice(t.kind[r])) {
                continue;
            }
            int p = launcher[r];
            String node;
            if (p < 0) {
                node = ids[0];
            } else if (tree.opOf[p] == p) {
                if (opNodeIds[p] == null) {
                    opNodeIds[p] = ids[opSpan[p]] + "/op/" + opIndex[p];
                }
                node = opNodeIds[p];
            } else {
                node = ids[spanOfPiece[p]];
            }
            String stream = streams.computeIfAbsent(Math.max(0, t.stream[r]), String::valueOf);
            String device = devices.computeIfAbsent(t.device[r], trace::deviceName);
            out.add(new DeviceInterval(node, device, stream, "host", trace.platform, Math.max(0, t.start[r]),
                    t.dur[r]));
        }
        return out;
    }

    /** Adds pieces with their subtrees in pre-order, without recursion. */
    private final class Walk {
        private final int[] firstChild;
        private final int[] nextSibling;
        private final String[] names;
        private final long[] allocatedDuring;
        private final String[] deviceOfOp;
        private int[] stack = new int[64];
        private int[] stackSpan = new int[64];

        Walk(int[] firstChild, int[] nextSibling, String[] names, long[] allocatedDuring, String[] deviceOfOp) {
            this.firstChild = firstChild;
            this.nextSibling = nextSibling;
            this.names = names;
            this.allocatedDuring = allocatedDuring;
            this.deviceOfOp = deviceOfOp;
        }

        /** Adds {@code top} and everything below it under span {@code parentSpan}. */
        void subtree(int top, int parentSpan) {
            int depth = 0;
            stack[depth] = top;
            stackSpan[depth++] = parentSpan;
            while (depth > 0) {
                int p = stack[--depth];
                int under = stackSpan[depth];
                if (p != top && nextSibling[p] >= 0) {
                    depth = push(depth, nextSibling[p], under);
                }
                int r = tree.row[p];
                String name = t.kind[r] == EventKind.PYTHON ? pythonName(t.name[r]) : names[t.name[r]];
                if (tree.opOf[p] == p) {
                    ops.add(op(p, r, name, under, allocatedDuring, deviceOfOp));
                    opSpan[p] = under;
                    opIndex[p] = opsOfSpan[under]++;
                    continue;
                }
                if (tree.opOf[p] >= 0) {
                    continue;
                }
                int span = addSpan(under, name, spanKind(r, name), false, tree.start[p],
                        tree.end[p] - tree.start[p], executionStep(name));
                spanOfPiece[p] = span;
                if (firstChild[p] >= 0) {
                    depth = push(depth, firstChild[p], span);
                }
            }
        }

        private int push(int depth, int piece, int span) {
            if (depth == stack.length) {
                stack = Arrays.copyOf(stack, depth * 2);
                stackSpan = Arrays.copyOf(stackSpan, depth * 2);
            }
            stack[depth] = piece;
            stackSpan[depth] = span;
            return depth + 1;
        }
    }

    /** One shape per distinct shape of the trace (immutable), not one per op. */
    private Shape[] shapes;

    private OpEvent op(int p, int r, String name, int under, long[] allocatedDuring, String[] deviceOfOp) {
        Shape shape = Shape.SCALAR;
        String dtype = "";
        if (t.shape[r] >= 0) {
            shape = shapes[t.shape[r]];
            if (shape == null) {
                shape = Shape.of(t.shapes.get(t.shape[r]));
                shapes[t.shape[r]] = shape;
            }
        }
        if (t.dtype[r] >= 0) {
            dtype = t.names.get(t.dtype[r]);
        }
        String device = deviceOfOp[p] != null ? deviceOfOp[p] : "cpu";
        return new OpEvent(ids[under], name, List.of(), null, shape, dtype, device, tree.end[p] - tree.start[p],
                tree.start[p], allocatedDuring[p], 0);
    }

    /** Whether a span of the backward pass or the optimizer was added (a training run). */
    private boolean training;

    private int addSpan(int parent, String name, SpanKind kind, boolean measured, long start, long duration,
            ExecutionStep step) {
        int index = spans.size();
        String id = id(index);
        ids[index] = id;
        training |= step == ExecutionStep.BACKWARD || step == ExecutionStep.OPTIMIZER;
        spans.add(new SpanRecord(id, parent < 0 ? null : ids[parent], name, kind, measured, start, true,
                Math.max(0, duration), step));
        return index;
    }

    /** The id of span {@code index}: its digits zero-padded to the width of the last one. */
    private String id(int index) {
        byte[] digits = idDigits;
        int v = index;
        for (int i = width - 1; i >= 0; i--) {
            digits[i] = (byte) ('0' + v % 10);
            v /= 10;
        }
        return new String(digits, 0, width, StandardCharsets.ISO_8859_1);
    }

    private String[] pythonNames;

    /**
     * A Python function's name as paths show it: without the line number of the frame
     * ({@code torch/nn/modules/module.py(1743): _call_impl} is {@code torch/nn/modules/module.py:
     * _call_impl}), which moves from one version of a library to the next.
     */
    private String pythonName(int id) {
        if (pythonNames == null) {
            pythonNames = new String[t.names.size()];
        }
        String name = pythonNames[id];
        if (name == null) {
            name = withoutLineNumber(t.names.get(id));
            pythonNames[id] = name;
        }
        return name;
    }

    /** {@code file(123): function} → {@code file: function}; any other name as it is. */
    static String withoutLineNumber(String name) {
        int colon = name.indexOf("): ");
        if (colon < 0) {
            return name;
        }
        int open = name.lastIndexOf('(', colon);
        if (open <= 0 || open + 1 == colon) {
            return name;
        }
        for (int i = open + 1; i < colon; i++) {
            if (name.charAt(i) < '0' || name.charAt(i) > '9') {
                return name;
            }
        }
        return name.substring(0, open) + name.substring(colon + 1);
    }

    /** The name of each name id as paths show it: {@code ProfilerStep#6} loses its number. */
    private String[] normalizedNames() {
        String[] names = new String[t.names.size()];
        for (int i = 0; i < names.length; i++) {
            String name = t.names.get(i);
            names[i] = HostTree.stepNumber(name) >= 0 ? STEP_NAME : name;
        }
        return names;
    }

    private SpanKind spanKind(int r, String name) {
        byte kind = t.kind[r];
        if (kind == EventKind.PYTHON && name.startsWith("nn.Module: ")) {
            return SpanKind.MODULE;
        }
        if (kind == EventKind.CPU_OP) {
            return SpanKind.OP;
        }
        return SpanKind.FUNCTION;
    }

    private static ExecutionStep executionStep(String name) {
        if (name.startsWith("autograd::engine::evaluate_function")) {
            return ExecutionStep.BACKWARD;
        }
        if (name.startsWith("Optimizer.step#") || name.startsWith("Optimizer.zero_grad#")) {
            return ExecutionStep.OPTIMIZER;
        }
        return null;
    }

    /** Bytes allocated while each op ran (by memory events attributed to it). */
    private long[] allocatedDuringOps() {
        long[] bytes = new long[tree.n];
        for (MemoryPairing.Event e : trace.memory.events) {
            if (e.alloc() && e.memRow() >= 0) {
                int piece = tree.deepestAt(t.memLane[e.memRow()], e.ts());
                if (piece >= 0 && tree.opOf[piece] >= 0) {
                    bytes[tree.opOf[piece]] += e.bytes();
                }
            }
        }
        return bytes;
    }

    private String[] deviceOfOps() {
        String[] device = new String[tree.n];
        int[] launcher = trace.launches.launcher;
        for (int r = 0; r < t.size; r++) {
            int p = launcher[r];
            if (p >= 0 && device[p] == null) {
                device[p] = trace.deviceOf(r);
            }
        }
        return device;
    }

    private List<MemoryEvent> memoryEvents(String[] names) {
        List<MemoryEvent> out = new ArrayList<>(trace.memory.events.size());
        String[] deviceNames = new String[t.memoryDevices.size()];
        for (int d = 0; d < deviceNames.length; d++) {
            deviceNames[d] = MemoryPairing.deviceName(t, d);
        }
        for (MemoryPairing.Event e : trace.memory.events) {
            String span = ids[0];
            String opName = null;
            if (e.memRow() >= 0) {
                int piece = tree.deepestAt(t.memLane[e.memRow()], e.ts());
                if (piece >= 0) {
                    int op = tree.opOf[piece];
                    if (op >= 0) {
                        opName = names[t.name[tree.row[op]]];
                        span = ids[enclosingSpan(op)];
                    } else {
                        span = ids[spanOfPiece[piece]];
                    }
                } else {
                    int step = tree.stepAt(e.ts());
                    if (step >= 0) {
                        span = ids[spanOfStep[step]];
                    }
                }
            }
            out.add(new MemoryEvent(e.ts(), e.key(), span, opName, deviceNames[e.device()], e.bytes(),
                    e.alloc() ? MemoryAction.ALLOC : MemoryAction.FREE, Shape.SCALAR, "", MemoryCategory.OTHER));
        }
        return out;
    }

    /** The span an op piece hangs under: its parent piece's span, else its step, else the root. */
    private int enclosingSpan(int op) {
        int par = tree.parent[op];
        if (par >= 0) {
            return spanOfPiece[par];
        }
        int seg = tree.segment[op];
        return seg >= 0 ? spanOfStep[seg] : 0;
    }

    private List<CaptureNote> notes() {
        List<CaptureNote> notes = new ArrayList<>();
        for (Findings.Finding f : trace.findings.all()) {
            notes.add(new CaptureNote(f.error(), f.code(), f.message()));
        }
        return notes;
    }

    private RunMeta runMeta(String runIdFallback) {
        Map<String, String> tags = new TreeMap<>();
        t.header.forEach((key, value) -> {
            switch (key) {
                case "traceName": case "trace_id": case "baseTimeNanoseconds": case "displayTimeUnit":
                    break;
                default:
                    tags.put(key, value);
            }
        });
        t.distributed.forEach((key, value) -> {
            switch (key) {
                case "rank": case "world_size":
                    tags.put(key, value);
                    break;
                case "backend":
                    tags.put("distributed_backend", value);
                    break;
                default:
            }
        });
        t.deviceNames.forEach((id, name) -> tags.put("device." + id, name));
        tags.put("trace_format", SCHEMA);
        if (tree.steps > 0) {
            tags.put("steps", Integer.toString(tree.steps));
        }
        String traceId = t.header.get("trace_id");
        String runId = traceId != null && !traceId.isBlank() ? traceId : runIdFallback;
        long captureStep = tree.steps > 0 ? HostTree.stepNumber(t.names.get(t.name[tree.stepRow[0]])) : 0;
        return new RunMeta(runId, traceId == null ? "" : traceId, ROOT_NAME,
                training ? ExecutionPhase.TRAIN : ExecutionPhase.INFER, timestamp(), Math.max(0, captureStep), 0,
                mainDevice(), TimingMode.HOST, tags, null);
    }

    /** When the first host event started: {@code baseTimeNanoseconds} plus its time, or its epoch time. */
    private String timestamp() {
        long start = tree.rootStart;
        long epochNs;
        if (t.baseTimeNs != EventTable.ABSENT) {
            epochNs = t.baseTimeNs + start;
        } else if (start >= EPOCH_2000_NS) {
            epochNs = start;
        } else {
            return "";
        }
        return Instant.ofEpochSecond(Math.floorDiv(epochNs, 1_000_000_000L), Math.floorMod(epochNs, 1_000_000_000L))
                .toString();
    }

    private String mainDevice() {
        for (int r = 0; r < t.size; r++) {
            if (EventKind.isDevice(t.kind[r])) {
                return trace.deviceOf(r);
            }
        }
        for (int d = 0; d < t.memoryDevices.size(); d++) {
            if (t.memoryDevices.get(d)[0] != 0) {
                return MemoryPairing.deviceName(t, d);
            }
        }
        return "cpu";
    }
}
