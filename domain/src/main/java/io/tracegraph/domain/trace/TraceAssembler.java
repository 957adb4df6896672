package io.tracegraph.domain.trace;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Assembles records, fed in file order with their physical line numbers, into a
 * {@link TraceDocument} following spec section 2 with decisions D7 and D8: the first problem
 * raises a {@link MalformedTraceException} naming the source and line.
 */
public final class TraceAssembler {
    private final String source;
    private long recordCount;
    private long metaLine;
    private String schema;
    private RunMeta run;
    private final Map<String, PendingSpan> spans = new HashMap<>();
    private final List<OpEvent> ops = new ArrayList<>();
    private final List<TensorEvent> tensors = new ArrayList<>();
    private final List<MemoryEvent> memory = new ArrayList<>();
    private final List<DeviceMemoryEvent> deviceMemory = new ArrayList<>();
    private final List<GradientEvent> gradients = new ArrayList<>();
    private final List<EdgeEvent> edges = new ArrayList<>();

    public TraceAssembler(String source) {
        this.source = source;
    }

    public void meta(long line, String schema, RunMeta run) {
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
    }

    public void spanStart(long line, SpanStart start) {
        recordCount++;
        PendingSpan previous = spans.putIfAbsent(start.id(), new PendingSpan(start, line));
        if (previous != null) {
            throw problem(line, "duplicate span_start id `" + start.id() + "` (first at line " + previous.startLine + ")");
        }
    }

    public void spanEnd(long line, String id, long durationNs) {
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
        recordCount++;
        ops.add(op.storageBytes() != null ? op : withStorage(op));
    }

    public void tensor(TensorEvent tensor) {
        recordCount++;
        tensors.add(tensor.storageBytes() != null ? tensor : new TensorEvent(tensor.spanId(), tensor.tensorId(),
                tensor.shape(), tensor.dtype(), tensor.device(), tensor.requiresGrad(),
                StorageBytes.derive(tensor.shape(), tensor.dtype()), tensor.category()));
    }

    public void memory(MemoryEvent event) {
        recordCount++;
        memory.add(event);
    }

    public void deviceMemory(DeviceMemoryEvent event) {
        recordCount++;
        deviceMemory.add(event);
    }

    public void gradient(GradientEvent event) {
        recordCount++;
        gradients.add(event);
    }

    public void edge(EdgeEvent event) {
        recordCount++;
        edges.add(event);
    }

    /** Checks the meta and schema and returns the document (spans sorted by id). */
    public TraceDocument finish() {
        if (run == null) {
            throw new MalformedTraceException(new TraceProblem(source, 0, null, "trace has no meta record"));
        }
        if (!TraceDocument.SCHEMA.equals(schema)) {
            throw new MalformedTraceException(new TraceProblem(source, metaLine, "schema",
                    "unsupported trace schema " + debugQuote(schema) + "; expected "
                            + debugQuote(TraceDocument.SCHEMA)));
        }
        List<PendingSpan> pending = new ArrayList<>(spans.values());
        pending.sort((a, b) -> CodePointOrder.compare(a.start.id(), b.start.id()));
        List<SpanRecord> records = new ArrayList<>(pending.size());
        for (PendingSpan p : pending) {
            SpanStart s = p.start;
            records.add(new SpanRecord(s.id(), s.parentId(), s.name(), s.kind(), s.measured(), s.startNs(),
                    p.endLine > 0, p.durationNs, s.step()));
        }
        return new TraceDocument(schema, run, records, ops, tensors, memory, deviceMemory, gradients, edges);
    }

    private static OpEvent withStorage(OpEvent op) {
        return new OpEvent(op.spanId(), op.opName(), op.inputs(), op.output(), op.shape(), op.dtype(), op.device(),
                op.durationNs(), op.timestampNs(), StorageBytes.derive(op.shape(), op.dtype()),
                op.inputStorageBytes());
    }

    private MalformedTraceException problem(long line, String message) {
        return new MalformedTraceException(new TraceProblem(source, line, null, message));
    }

    /** Rust's {@code {:?}} quoting of a string, as the original's schema error shows it. */
    static String debugQuote(String s) {
        StringBuilder out = new StringBuilder(s.length() + 2).append('"');
        s.codePoints().forEach(cp -> {
            switch (cp) {
                case '"': out.append("\\\""); break;
                case '\\': out.append("\\\\"); break;
                case '\n': out.append("\\n"); break;
                case '\r': out.append("\\r"); break;
                case '\t': out.append("\\t"); break;
                case 0: out.append("\\0"); break;
                default:
                    if (Character.isISOControl(cp)) {
                        out.append("\\u{").append(Integer.toHexString(cp)).append('}');
                    } else {
                        out.appendCodePoint(cp);
                    }
            }
        });
        return out.append('"').toString();
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
