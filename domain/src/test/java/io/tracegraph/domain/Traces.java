package io.tracegraph.domain;

import io.tracegraph.domain.trace.CaptureContract;
import io.tracegraph.domain.trace.ComparisonIdentity;
import io.tracegraph.domain.trace.DataEdgeEvent;
import io.tracegraph.domain.trace.DeviceInterval;
import io.tracegraph.domain.trace.DeviceMemoryEvent;
import io.tracegraph.domain.trace.EdgeEvent;
import io.tracegraph.domain.trace.ExecutionPhase;
import io.tracegraph.domain.trace.ExecutionStep;
import io.tracegraph.domain.trace.GradientEvent;
import io.tracegraph.domain.trace.GradientState;
import io.tracegraph.domain.trace.MemoryAction;
import io.tracegraph.domain.trace.MemoryCategory;
import io.tracegraph.domain.trace.MemoryEvent;
import io.tracegraph.domain.trace.OpEvent;
import io.tracegraph.domain.trace.RunMeta;
import io.tracegraph.domain.trace.RunOutcome;
import io.tracegraph.domain.trace.Shape;
import io.tracegraph.domain.trace.SpanKind;
import io.tracegraph.domain.trace.SpanRecord;
import io.tracegraph.domain.trace.SpanStart;
import io.tracegraph.domain.trace.TensorEvent;
import io.tracegraph.domain.trace.TensorStats;
import io.tracegraph.domain.trace.TimingMode;
import io.tracegraph.domain.trace.TraceAssembler;
import io.tracegraph.domain.trace.TraceDocument;
import io.tracegraph.domain.trace.TraceSchemas;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Concise builders for trace documents in tests. Records keep the order they are added in (spans
 * too: an in-memory document is not sorted by id, exactly like the seed's {@code synthetic_trace}).
 *
 * <pre>
 * TraceDocument doc = trace()
 *         .span(span("root").duration(100).measured())
 *         .span(span("a").parent("root").start(10).duration(50))
 *         .op(op("a", "matmul").duration(20).inputs("x", "w").output("h"))
 *         .memory(alloc("h", "a", 64).at(15))
 *         .build();
 * </pre>
 */
public final class Traces {
    private Traces() {
    }

    public static TraceBuilder trace() {
        return new TraceBuilder();
    }

    public static SpanBuilder span(String id) {
        return new SpanBuilder(id);
    }

    public static OpBuilder op(String spanId, String opName) {
        return new OpBuilder(spanId, opName);
    }

    public static TensorBuilder tensor(String spanId, String tensorId) {
        return new TensorBuilder(spanId, tensorId);
    }

    public static MemoryBuilder alloc(String tensorId, String spanId, long bytes) {
        return new MemoryBuilder(MemoryAction.ALLOC, tensorId, spanId, bytes);
    }

    public static MemoryBuilder free(String tensorId, String spanId, long bytes) {
        return new MemoryBuilder(MemoryAction.FREE, tensorId, spanId, bytes);
    }

    public static DeviceMemoryEvent deviceMemory(String device, long timestampNs, long usedBytes, long freeBytes) {
        return new DeviceMemoryEvent(timestampNs, device, usedBytes, freeBytes, null);
    }

    public static GradientEvent gradient(String key, GradientState state, Double norm) {
        return new GradientEvent("g-" + key, "vb", key, state, norm);
    }

    public static EdgeEvent edge(String from, String to, long durationNs) {
        return new EdgeEvent(from, to, durationNs);
    }

    public static RunMeta run(String entrypoint, ExecutionPhase phase) {
        return new RunMeta("run-1", "demo/update-1", entrypoint, phase, "2026-08-04T18:00:00Z", 1, 0, "cpu",
                TimingMode.HOST, Map.of(), null);
    }

    /**
     * The seed's {@code synthetic_trace()}, field for field, as an in-memory document: spans in the
     * seed's order (root, encoder, head).
     */
    public static TraceDocument syntheticTrace() {
        return new TraceDocument(TraceDocument.SCHEMA, run("demo::train::loss", ExecutionPhase.TRAIN),
                List.of(
                        new SpanRecord("root", null, "loss", SpanKind.FUNCTION, true, 0, true, 10_000_000, null),
                        new SpanRecord("encoder", "root", "Encoder::forward", SpanKind.FUNCTION, false, 1_000_000,
                                true, 5_000_000, ExecutionStep.FORWARD),
                        new SpanRecord("head", "root", "Head::forward", SpanKind.FUNCTION, false, 6_000_000, true,
                                1_000_000, null)),
                List.of(syntheticMatmul(), syntheticLinear()),
                List.of(),
                List.of(syntheticH0Alloc(), syntheticLogitsAlloc()),
                List.of(),
                List.of(new GradientEvent("g1", "vb", "encoder.weight", GradientState.PRESENT, 0.5)),
                List.of(new EdgeEvent("encoder", "head", 800_000)));
    }

    /**
     * The seed's trace as the JSONL listing of spec 5.3, fed record by record (line numbers 1–13)
     * through the assembler, so that spans come out sorted by id (encoder, head, root).
     */
    public static TraceDocument syntheticTraceAsImported() {
        TraceAssembler a = new TraceAssembler("synthetic.jsonl");
        a.meta(1, TraceDocument.SCHEMA, run("demo::train::loss", ExecutionPhase.TRAIN));
        a.spanStart(2, new SpanStart("root", null, "loss", 0, SpanKind.FUNCTION, true, null));
        a.spanStart(3, new SpanStart("encoder", "root", "Encoder::forward", 1_000_000, SpanKind.FUNCTION, false,
                ExecutionStep.FORWARD));
        a.op(syntheticMatmul());
        a.memory(syntheticH0Alloc());
        a.spanEnd(6, "encoder", 5_000_000);
        a.spanStart(7, new SpanStart("head", "root", "Head::forward", 6_000_000, SpanKind.FUNCTION, false, null));
        a.op(syntheticLinear());
        a.memory(syntheticLogitsAlloc());
        a.spanEnd(10, "head", 1_000_000);
        a.gradient(new GradientEvent("g1", "vb", "encoder.weight", GradientState.PRESENT, 0.5));
        a.edge(new EdgeEvent("encoder", "head", 800_000));
        a.spanEnd(13, "root", 10_000_000);
        return a.finish();
    }

    private static OpEvent syntheticMatmul() {
        return op("encoder", "matmul").inputs("x", "w").output("h0").shape(8, 64).duration(2_000_000)
                .at(2_000_000).storage(8 * 64 * 4).build();
    }

    private static OpEvent syntheticLinear() {
        return op("head", "linear").inputs("h0").output("logits").shape(8, 10).duration(800_000).at(800_000)
                .storage(8 * 10 * 4).build();
    }

    private static MemoryEvent syntheticH0Alloc() {
        return alloc("h0", "encoder", 8 * 64 * 4).at(2_000_000).opName("matmul").shape(8, 64)
                .category(MemoryCategory.ACTIVATION).build();
    }

    private static MemoryEvent syntheticLogitsAlloc() {
        return alloc("logits", "head", 8 * 10 * 4).at(2_800_000).opName("linear").shape(8, 10)
                .category(MemoryCategory.ACTIVATION).build();
    }

    /**
     * A whole document. Defaults: schema trace/6, phase infer, entrypoint {@code demo}. Declaring an
     * outcome ({@link #complete}, {@link #failed}) makes it a trace/7+ document (schema trace/10 unless
     * {@link #schema} says otherwise) with {@link CaptureContract#NOTHING_DECLARED} unless a contract is given.
     */
    public static final class TraceBuilder {
        private String schema = TraceDocument.SCHEMA;
        private boolean schemaGiven;
        private String entrypoint = "demo";
        private ExecutionPhase phase = ExecutionPhase.INFER;
        private RunOutcome outcome = RunOutcome.IMPLIED_COMPLETE;
        private CaptureContract contract;
        private ComparisonIdentity identity;
        private long captureStep = 1;
        private long warmupSteps;
        private final List<DataEdgeEvent> dataEdges = new ArrayList<>();
        private final List<DeviceInterval> deviceIntervals = new ArrayList<>();
        private final List<TensorStats> tensorStats = new ArrayList<>();

        public TraceBuilder schema(String schema) {
            this.schema = schema;
            this.schemaGiven = true;
            return this;
        }

        public TraceBuilder complete(long timestampNs) {
            this.outcome = RunOutcome.complete(timestampNs);
            return this;
        }

        public TraceBuilder failed(String reason, long timestampNs) {
            this.outcome = RunOutcome.failed(reason, timestampNs);
            return this;
        }

        public TraceBuilder outcome(RunOutcome outcome) {
            this.outcome = outcome;
            return this;
        }

        public TraceBuilder contract(CaptureContract contract) {
            this.contract = contract;
            return this;
        }

        public TraceBuilder identity(ComparisonIdentity identity) {
            this.identity = identity;
            return this;
        }

        public TraceBuilder steps(long captureStep, long warmupSteps) {
            this.captureStep = captureStep;
            this.warmupSteps = warmupSteps;
            return this;
        }

        public TraceBuilder dataEdge(String fromTensor, String toTensor) {
            dataEdges.add(new DataEdgeEvent(fromTensor, toTensor));
            return this;
        }

        /** A device interval on stream {@code 7}, clock {@code <device>/clock}, backend {@code cuda}. */
        public TraceBuilder interval(String spanId, String device, long startNs, long durationNs) {
            deviceIntervals.add(new DeviceInterval(spanId, device, "7", device + "/clock", "cuda", startNs, durationNs));
            return this;
        }

        public TraceBuilder tensorStats(TensorStats stats) {
            tensorStats.add(stats);
            return this;
        }
        private final List<SpanRecord> spans = new ArrayList<>();
        private final List<OpEvent> ops = new ArrayList<>();
        private final List<TensorEvent> tensors = new ArrayList<>();
        private final List<MemoryEvent> memory = new ArrayList<>();
        private final List<DeviceMemoryEvent> deviceMemory = new ArrayList<>();
        private final List<GradientEvent> gradients = new ArrayList<>();
        private final List<EdgeEvent> edges = new ArrayList<>();

        public TraceBuilder phase(ExecutionPhase phase) {
            this.phase = phase;
            return this;
        }

        public TraceBuilder entrypoint(String entrypoint) {
            this.entrypoint = entrypoint;
            return this;
        }

        public TraceBuilder span(SpanBuilder span) {
            spans.add(span.build());
            return this;
        }

        public TraceBuilder span(SpanRecord span) {
            spans.add(span);
            return this;
        }

        public TraceBuilder op(OpBuilder op) {
            ops.add(op.build());
            return this;
        }

        public TraceBuilder op(OpEvent op) {
            ops.add(op);
            return this;
        }

        public TraceBuilder tensor(TensorBuilder tensor) {
            tensors.add(tensor.build());
            return this;
        }

        public TraceBuilder memory(MemoryBuilder event) {
            memory.add(event.build());
            return this;
        }

        public TraceBuilder deviceMemory(DeviceMemoryEvent event) {
            deviceMemory.add(event);
            return this;
        }

        public TraceBuilder gradient(GradientEvent event) {
            gradients.add(event);
            return this;
        }

        public TraceBuilder edge(EdgeEvent event) {
            edges.add(event);
            return this;
        }

        public TraceDocument build() {
            if (!outcome.isDeclared()) {
                return new TraceDocument(schema, run(entrypoint, phase), spans, ops, tensors, memory, deviceMemory,
                        gradients, edges, dataEdges, deviceIntervals, tensorStats, outcome);
            }
            RunMeta run = new RunMeta("run-1", "demo/update-1", entrypoint, phase, "2026-08-04T18:00:00Z", captureStep,
                    warmupSteps, "cpu", TimingMode.HOST, Map.of(), null, false,
                    contract != null ? contract : CaptureContract.NOTHING_DECLARED, identity);
            return new TraceDocument(schemaGiven ? schema : TraceSchemas.TRACE_10, run, spans, ops, tensors, memory,
                    deviceMemory, gradients, edges, dataEdges, deviceIntervals, tensorStats, outcome);
        }
    }

    /** A closed, unmeasured function span starting at 0 with duration 0 and no parent, by default. */
    public static final class SpanBuilder {
        private final String id;
        private String parentId;
        private String name;
        private SpanKind kind = SpanKind.FUNCTION;
        private boolean measured;
        private long startNs;
        private boolean closed = true;
        private long durationNs;
        private ExecutionStep step;

        SpanBuilder(String id) {
            this.id = id;
            this.name = id;
        }

        public SpanBuilder parent(String parentId) {
            this.parentId = parentId;
            return this;
        }

        public SpanBuilder name(String name) {
            this.name = name;
            return this;
        }

        public SpanBuilder kind(SpanKind kind) {
            this.kind = kind;
            return this;
        }

        public SpanBuilder measured() {
            this.measured = true;
            return this;
        }

        public SpanBuilder start(long startNs) {
            this.startNs = startNs;
            return this;
        }

        public SpanBuilder duration(long durationNs) {
            this.durationNs = durationNs;
            return this;
        }

        public SpanBuilder open() {
            this.closed = false;
            this.durationNs = 0;
            return this;
        }

        public SpanBuilder step(ExecutionStep step) {
            this.step = step;
            return this;
        }

        public SpanRecord build() {
            return new SpanRecord(id, parentId, name, kind, measured, startNs, closed, durationNs, step);
        }

        public SpanStart toStart() {
            return new SpanStart(id, parentId, name, startNs, kind, measured, step);
        }
    }

    /** An op on cpu, dtype f32, scalar shape, no inputs/output, duration 0, storage unknown by default. */
    public static final class OpBuilder {
        private final String spanId;
        private final String opName;
        private List<String> inputs = List.of();
        private String output;
        private Shape shape = Shape.SCALAR;
        private String dtype = "f32";
        private String device = "cpu";
        private long durationNs;
        private long timestampNs;
        private Long storageBytes;

        OpBuilder(String spanId, String opName) {
            this.spanId = spanId;
            this.opName = opName;
        }

        public OpBuilder inputs(String... inputs) {
            this.inputs = List.of(inputs);
            return this;
        }

        public OpBuilder output(String output) {
            this.output = output;
            return this;
        }

        public OpBuilder shape(long... dims) {
            this.shape = Shape.of(dims);
            return this;
        }

        public OpBuilder dtype(String dtype) {
            this.dtype = dtype;
            return this;
        }

        public OpBuilder device(String device) {
            this.device = device;
            return this;
        }

        public OpBuilder duration(long durationNs) {
            this.durationNs = durationNs;
            return this;
        }

        public OpBuilder at(long timestampNs) {
            this.timestampNs = timestampNs;
            return this;
        }

        public OpBuilder storage(long storageBytes) {
            this.storageBytes = storageBytes;
            return this;
        }

        public OpEvent build() {
            return new OpEvent(spanId, opName, inputs, output, shape, dtype, device, durationNs, timestampNs,
                    storageBytes, 0);
        }
    }

    /** A tensor checkpoint on cpu, dtype f32, scalar shape, category other, storage unknown by default. */
    public static final class TensorBuilder {
        private final String spanId;
        private final String tensorId;
        private Shape shape = Shape.SCALAR;
        private String dtype = "f32";
        private boolean requiresGrad;
        private Long storageBytes;
        private MemoryCategory category = MemoryCategory.OTHER;
        private String label;

        TensorBuilder(String spanId, String tensorId) {
            this.spanId = spanId;
            this.tensorId = tensorId;
        }

        /** The caller's observation label (trace/7 and later). */
        public TensorBuilder label(String label) {
            this.label = label;
            return this;
        }

        public TensorBuilder shape(long... dims) {
            this.shape = Shape.of(dims);
            return this;
        }

        public TensorBuilder dtype(String dtype) {
            this.dtype = dtype;
            return this;
        }

        public TensorBuilder requiresGrad() {
            this.requiresGrad = true;
            return this;
        }

        public TensorBuilder storage(long storageBytes) {
            this.storageBytes = storageBytes;
            return this;
        }

        public TensorBuilder category(MemoryCategory category) {
            this.category = category;
            return this;
        }

        public TensorEvent build() {
            return new TensorEvent(spanId, tensorId, shape, dtype, "cpu", requiresGrad, storageBytes, category, label);
        }
    }

    /** A memory record on cpu at timestamp 0, dtype f32, scalar shape, category other, no op, by default. */
    public static final class MemoryBuilder {
        private final MemoryAction action;
        private final String tensorId;
        private final String spanId;
        private final long bytes;
        private long timestampNs;
        private String opName;
        private String device = "cpu";
        private Shape shape = Shape.SCALAR;
        private MemoryCategory category = MemoryCategory.OTHER;
        private String storageId;

        MemoryBuilder(MemoryAction action, String tensorId, String spanId, long bytes) {
            this.action = action;
            this.tensorId = tensorId;
            this.spanId = spanId;
            this.bytes = bytes;
        }

        public MemoryBuilder at(long timestampNs) {
            this.timestampNs = timestampNs;
            return this;
        }

        public MemoryBuilder opName(String opName) {
            this.opName = opName;
            return this;
        }

        public MemoryBuilder on(String device) {
            this.device = device;
            return this;
        }

        public MemoryBuilder shape(long... dims) {
            this.shape = Shape.of(dims);
            return this;
        }

        public MemoryBuilder category(MemoryCategory category) {
            this.category = category;
            return this;
        }

        /** The backend storage (trace/7 and later). */
        public MemoryBuilder storage(String storageId) {
            this.storageId = storageId;
            return this;
        }

        public MemoryEvent build() {
            return new MemoryEvent(timestampNs, tensorId, spanId, opName, device, bytes, action, shape, "f32",
                    category, storageId);
        }
    }
}
