package io.tracegraph.domain.trace;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Assembles records, fed in file order with their physical line numbers, into a
 * {@link TraceDocument} following spec section 2 with decisions D7 and D8: the first problem
 * raises a {@link MalformedTraceException} naming the source and line.
 *
 * <p>The meta record's schema decides the rules. trace/6 is read as the spec says. From trace/7 on
 * (candle-graph 0.8.0 and later) the trace ends with exactly one {@code terminal} record and
 * nothing after it; the meta record must carry a {@code capture_contract}; a complete terminal has
 * no reason, a failed one a non-blank reason, and its timestamp is not before the host evidence;
 * {@code tensor_stats} records (trace/10 only) are checked as they come. The checks that need the
 * whole stream run in {@link #finish()}, in the original's order: meta, schema, capture contract,
 * terminal, trace/9 without tensor statistics, terminal outcome and timestamp.
 */
public final class TraceAssembler {
    private final String source;
    private long recordCount;
    private long metaLine;
    private String schema;
    private int revision = TraceSchemas.OLDEST;
    private RunMeta run;
    private final Map<String, PendingSpan> spans = new HashMap<>();
    private final List<OpEvent> ops = new ArrayList<>();
    private final List<TensorEvent> tensors = new ArrayList<>();
    private final List<MemoryEvent> memory = new ArrayList<>();
    private final List<DeviceMemoryEvent> deviceMemory = new ArrayList<>();
    private final List<GradientEvent> gradients = new ArrayList<>();
    private final List<EdgeEvent> edges = new ArrayList<>();
    private final List<DataEdgeEvent> dataEdges = new ArrayList<>();
    private final List<DeviceInterval> deviceIntervals = new ArrayList<>();
    private final List<TensorStats> tensorStats = new ArrayList<>();
    private long firstTensorStatsLine;
    private RunOutcome outcome;
    private long terminalLine;
    /**
     * The latest end of the host evidence other than spans (ops, memory records, device-memory
     * samples) so far, gathered as the records come (trace/7 and later): the terminal check needs
     * no second walk over millions of records.
     */
    private long latestEvidence;

    public TraceAssembler(String source) {
        this.source = source;
    }

    public void meta(long line, String schema, RunMeta run) {
        afterTerminal(line);
        if (this.run != null) {
            throw problem(line, "duplicate meta record (the first is at line " + metaLine + ")");
        }
        if (recordCount > 0) {
            throw problem(line, "meta record must be the first record of the trace");
        }
        recordCount++;
        this.metaLine = line;
        this.schema = schema;
        this.run = run;
        int r = TraceSchemas.revision(schema);
        this.revision = r == 0 ? TraceSchemas.OLDEST : r;
    }

    public void spanStart(long line, SpanStart start) {
        afterTerminal(line);
        recordCount++;
        PendingSpan previous = spans.putIfAbsent(start.id(), new PendingSpan(start, line));
        if (previous != null) {
            throw problem(line, "duplicate span_start id `" + start.id() + "` (first at line " + previous.startLine + ")");
        }
    }

    public void spanEnd(long line, String id, long durationNs) {
        afterTerminal(line);
        recordCount++;
        PendingSpan span = spans.get(id);
        if (span == null) {
            throw problem(line, "span_end for unknown span `" + id + "`");
        }
        if (span.endLine > 0) {
            throw problem(line, "duplicate span_end for `" + id + "` (first at line " + span.endLine + ")");
        }
        span.endLine = line;
        span.durationNs = durationNs;
    }

    public void op(OpEvent op) {
        op(0, op);
    }

    public void op(long line, OpEvent op) {
        afterTerminal(line);
        recordCount++;
        if (revision >= 7) {
            latestEvidence = Math.max(latestEvidence, Saturating.add(op.timestampNs(), op.durationNs()));
        }
        ops.add(op.storageBytes() != null ? op : withStorage(op));
    }

    public void tensor(TensorEvent tensor) {
        tensor(0, tensor);
    }

    public void tensor(long line, TensorEvent tensor) {
        afterTerminal(line);
        recordCount++;
        tensors.add(tensor.storageBytes() != null ? tensor : new TensorEvent(tensor.spanId(), tensor.tensorId(),
                tensor.shape(), tensor.dtype(), tensor.device(), tensor.requiresGrad(),
                StorageBytes.derive(tensor.shape(), tensor.dtype()), tensor.category(), tensor.label()));
    }

    public void memory(MemoryEvent event) {
        memory(0, event);
    }

    public void memory(long line, MemoryEvent event) {
        afterTerminal(line);
        recordCount++;
        if (revision >= 7) {
            latestEvidence = Math.max(latestEvidence, event.timestampNs());
        }
        memory.add(event);
    }

    public void deviceMemory(DeviceMemoryEvent event) {
        deviceMemory(0, event);
    }

    public void deviceMemory(long line, DeviceMemoryEvent event) {
        afterTerminal(line);
        recordCount++;
        if (revision >= 7) {
            latestEvidence = Math.max(latestEvidence, event.timestampNs());
        }
        deviceMemory.add(event);
    }

    public void gradient(GradientEvent event) {
        gradient(0, event);
    }

    public void gradient(long line, GradientEvent event) {
        afterTerminal(line);
        recordCount++;
        gradients.add(event);
    }

    public void edge(EdgeEvent event) {
        edge(0, event);
    }

    /** A call edge between spans (trace/6 {@code edge}; trace/7 {@code edge_kind: call}). */
    public void edge(long line, EdgeEvent event) {
        afterTerminal(line);
        recordCount++;
        edges.add(event);
    }

    /** A data edge between tensors (trace/7 {@code edge_kind: data}). */
    public void dataEdge(long line, DataEdgeEvent event) {
        afterTerminal(line);
        recordCount++;
        dataEdges.add(event);
    }

    public void deviceInterval(long line, DeviceInterval interval) {
        afterTerminal(line);
        recordCount++;
        deviceIntervals.add(interval);
    }

    /** A tensor statistics record (trace/10), checked here: label, element count, finite values. */
    public void tensorStats(long line, TensorStats stats) {
        afterTerminal(line);
        recordCount++;
        String invalid = invalidStats(stats);
        if (invalid != null) {
            throw problem(line, invalid, invalid.substring("member `".length(), invalid.indexOf('`', 8)));
        }
        if (firstTensorStatsLine == 0) {
            firstTensorStatsLine = line;
        }
        tensorStats.add(stats);
    }

    /** The terminal record (trace/7 and later): how the capture ended. Nothing may follow it. */
    public void terminal(long line, RunOutcome outcome) {
        afterTerminal(line);
        recordCount++;
        this.outcome = outcome;
        this.terminalLine = line;
    }

    /** Checks the meta, schema and (from trace/7 on) terminal, and returns the document (spans sorted by id). */
    public TraceDocument finish() {
        if (run == null) {
            throw new MalformedTraceException(new TraceProblem(source, 0, null, "trace has no meta record"));
        }
        if (TraceSchemas.revision(schema) == 0) {
            throw new MalformedTraceException(new TraceProblem(source, metaLine, "schema", refusal(schema)));
        }
        boolean terminated = revision >= 7;
        if (terminated && run.captureContract() == null) {
            throw problem(metaLine, "meta record is missing required member `capture_contract`", "capture_contract");
        }
        if (terminated && outcome == null) {
            throw new MalformedTraceException(new TraceProblem(source, 0, null, "trace has no terminal record"));
        }
        if (revision == 9 && firstTensorStatsLine > 0) {
            throw problem(firstTensorStatsLine, "trace schema " + debugQuote(TraceSchemas.TRACE_9)
                    + " does not define tensor_stats records; producers emitting tensor statistics must declare "
                    + debugQuote(TraceSchemas.TRACE_10));
        }
        List<PendingSpan> pending = new ArrayList<>(spans.values());
        pending.sort((a, b) -> CodePointOrder.compare(a.start.id(), b.start.id()));
        List<SpanRecord> records = new ArrayList<>(pending.size());
        for (PendingSpan p : pending) {
            SpanStart s = p.start;
            records.add(new SpanRecord(s.id(), s.parentId(), s.name(), s.kind(), s.measured(), s.startNs(),
                    p.endLine > 0, p.durationNs, s.step()));
        }
        if (terminated) {
            checkTerminal(records);
        }
        return new TraceDocument(schema, run, records, ops, tensors, memory, deviceMemory, gradients, edges, dataEdges,
                deviceIntervals, tensorStats, terminated ? outcome : RunOutcome.IMPLIED_COMPLETE);
    }

    /**
     * The refusal of a schema that is not read. Older candle-graph revisions and other
     * {@code candle-graph/} strings are pointed to trace/6, the oldest one read (the wording of
     * trace/6 days); newer revisions and foreign schemas get the list of every schema read.
     */
    public static String refusal(String schema) {
        String expected = TraceSchemas.refusalListsAll(schema)
                ? "one of " + TraceSchemas.READ.stream().map(TraceAssembler::debugQuote)
                        .collect(Collectors.joining(", "))
                : debugQuote(TraceSchemas.TRACE_6);
        return "unsupported trace schema " + debugQuote(schema) + "; expected " + expected;
    }

    private void checkTerminal(List<SpanRecord> records) {
        if (!outcome.isFailed() && outcome.reason() != null) {
            throw problem(terminalLine, "member `reason`: a complete terminal record cannot carry a failure reason",
                    "reason");
        }
        if (outcome.isFailed() && (outcome.reason() == null || RustText.isBlank(outcome.reason()))) {
            throw problem(terminalLine, "member `reason`: a failed terminal record needs a non-empty reason", "reason");
        }
        long latest = latestEvidence;
        for (SpanRecord span : records) {
            latest = Math.max(latest, Saturating.add(span.startNs(), span.closed() ? span.durationNs() : 0));
        }
        if (outcome.timestampNs() < latest) {
            throw problem(terminalLine, "member `timestamp_ns`: terminal timestamp " + outcome.timestampNs()
                    + " precedes host evidence ending at " + latest, "timestamp_ns");
        }
    }

    /** Why a tensor_stats record is invalid ({@code member `x`: ...}), or {@code null}. */
    static String invalidStats(TensorStats s) {
        if (RustText.isBlank(s.label())) {
            return "member `label`: tensor_stats label must not be empty";
        }
        long product = 1;
        boolean overflow = false;
        for (int i = 0; i < s.shape().rank(); i++) {
            long dim = s.shape().dim(i);
            if (dim != 0 && product > Long.MAX_VALUE / dim) {
                overflow = true;
            }
            product *= dim;
        }
        if (overflow || product != s.elements()) {
            return "member `elements`: tensor_stats shape " + s.shape() + " holds "
                    + (overflow ? "more than " + Long.MAX_VALUE : Long.toString(product)) + " elements, not "
                    + s.elements();
        }
        if (s.nonFinite() > s.elements()) {
            return "member `non_finite`: tensor_stats counts " + s.nonFinite() + " non-finite elements of "
                    + s.elements();
        }
        if (!Double.isFinite(s.rms()) || s.rms() < 0) {
            return "member `rms`: tensor_stats rms must be finite and not negative, found "
                    + RustText.debugFloat(s.rms());
        }
        if (!Double.isFinite(s.absMax()) || s.absMax() < 0) {
            return "member `abs_max`: tensor_stats abs_max must be finite and not negative, found "
                    + RustText.debugFloat(s.absMax());
        }
        if (!Double.isFinite(s.mean())) {
            return "member `mean`: tensor_stats mean must be finite, found " + RustText.debugFloat(s.mean());
        }
        return null;
    }

    private void afterTerminal(long line) {
        if (terminalLine > 0 || outcome != null) {
            throw problem(line, "terminal record must be the last record of the trace (the terminal is at line "
                    + terminalLine + ")");
        }
    }

    private static OpEvent withStorage(OpEvent op) {
        return new OpEvent(op.spanId(), op.opName(), op.inputs(), op.output(), op.shape(), op.dtype(), op.device(),
                op.durationNs(), op.timestampNs(), StorageBytes.derive(op.shape(), op.dtype()),
                op.inputStorageBytes());
    }

    private MalformedTraceException problem(long line, String message) {
        return new MalformedTraceException(new TraceProblem(source, line, null, message));
    }

    private MalformedTraceException problem(long line, String message, String member) {
        return new MalformedTraceException(new TraceProblem(source, line, member, message));
    }

    /** Rust's {@code {:?}} quoting of a string, as the original's schema error shows it. */
    static String debugQuote(String s) {
        return RustText.debugQuote(s);
    }

    private static final class PendingSpan {
        final SpanStart start;
        final long startLine;
        long endLine;
        long durationNs;

        PendingSpan(SpanStart start, long startLine) {
            this.start = start;
            this.startLine = startLine;
        }
    }
}
