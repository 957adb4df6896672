package io.tracegraph.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import io.tracegraph.domain.trace.CaptureContract;
import io.tracegraph.domain.trace.ComparisonIdentity;
import io.tracegraph.domain.trace.CoverageLevel;
import io.tracegraph.domain.trace.DataEdgeEvent;
import io.tracegraph.domain.trace.DeviceInterval;
import io.tracegraph.domain.trace.DeviceMemoryEvent;
import io.tracegraph.domain.trace.EdgeEvent;
import io.tracegraph.domain.trace.ExecutionPhase;
import io.tracegraph.domain.trace.ExecutionStep;
import io.tracegraph.domain.trace.ExpectedGradient;
import io.tracegraph.domain.trace.FamilyExpectation;
import io.tracegraph.domain.trace.GradientContract;
import io.tracegraph.domain.trace.GradientEvent;
import io.tracegraph.domain.trace.GradientFamily;
import io.tracegraph.domain.trace.GradientState;
import io.tracegraph.domain.trace.MemoryAction;
import io.tracegraph.domain.trace.MemoryCategory;
import io.tracegraph.domain.trace.MeasurementScope;
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
import io.tracegraph.domain.trace.TraceSchemas;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Decodes the members of one trace record from a streaming parser positioned inside the record's
 * object, with the rules of spec 1.2: unknown members ignored, duplicates rejected, required /
 * defaulted / optional members, integers in 0..2^63−1 (D5), exact enum spellings. One decoder per
 * thread: it keeps a small pool that de-duplicates repetitive strings (dtypes, devices, op names,
 * span ids), which keeps million-record traces small in memory.
 */
final class RecordDecoder {
    /** The {@code meta} record: schema plus run metadata. */
    record Meta(String schema, RunMeta run) {
    }

    /** The {@code span_end} record. */
    record SpanEnd(String id, long durationNs) {
    }

    /** The {@code terminal} record (trace/7 and later). */
    record Terminal(RunOutcome outcome) {
    }

    private static final int POOL_LIMIT = 1 << 14;

    private static final int CACHED_TEXT_LENGTH = 64;
    private final String[] textCache = new String[1 << 14];
    private final Map<Shape, Shape> shapes = new HashMap<>();
    private long[] dims = new long[8];
    private JsonParser p;
    /** See {@link #lineWithoutEscapes}. */
    private boolean withoutEscapes;
    /** See {@link #splice(ManifestSplice)}. */
    private ManifestSplice splice;
    private String kindName;
    private long seen;
    /** The candle-graph revision whose members are decoded (6..10). */
    private int revision = TraceSchemas.OLDEST;

    /** Decodes with the members of {@code revision} from now on (this thread's decoder). */
    RecordDecoder at(int revision) {
        this.revision = revision;
        return this;
    }

    int revision() {
        return revision;
    }

    /**
     * Decodes the record whose {@code kind} is known; {@code p} stands after the object's opening
     * brace or after the value of a leading {@code kind} member. With {@code discriminated}, a
     * {@code kind} member is the record discriminator (JSONL); otherwise it is an ordinary member.
     */
    Object decode(JsonParser parser, String kind, boolean kindAlreadyRead) throws IOException {
        this.p = parser;
        this.kindName = kind;
        this.seen = kindAlreadyRead ? 1L : 0L;
        switch (kind) {
            case "meta":
                return meta();
            case "span_start":
                return spanStart();
            case "span_end":
                return spanEnd();
            case "op":
                return op();
            case "tensor":
                return tensor();
            case "memory":
                return memory();
            case "device_memory":
                return deviceMemory();
            case "gradient":
                return gradient();
            case "edge":
                return revision >= 7 ? typedEdge() : edge();
            default:
                if (revision >= 7) {
                    switch (kind) {
                        case "device_interval":
                            return deviceInterval();
                        case "terminal":
                            return terminal();
                        case "tensor_stats":
                            if (revision >= 9) {
                                return tensorStats();
                            }
                            break;
                        default:
                            break;
                    }
                    throw new DecodeException("kind", "unknown record kind `" + kind + "` (expected meta, span_start, "
                            + "span_end, op, tensor, " + (revision >= 9 ? "tensor_stats, " : "")
                            + "memory, device_memory, device_interval, gradient, edge or terminal)");
                }
                throw new DecodeException("kind", "unknown record kind `" + kind + "` (expected meta, span_start, "
                        + "span_end, op, tensor, memory, device_memory, gradient or edge)");
        }
    }

    /** A span of the whole-document form ({@code kind} is the span kind there). */
    SpanRecord documentSpan(JsonParser parser) throws IOException {
        this.p = parser;
        this.kindName = "span";
        this.seen = 0;
        String id = null;
        String parentId = null;
        String name = null;
        SpanKind kind = null;
        Boolean measured = null;
        long startNs = -1;
        boolean closed = false;
        long durationNs = 0;
        ExecutionStep step = null;
        String field;
        while ((field = nextField()) != null) {
            switch (field) {
                case "id": mark(1, field); id = string(field); break;
                case "parent_id": mark(2, field); parentId = optString(field); break;
                case "name": mark(3, field); name = string(field); break;
                case "kind": mark(4, field); kind = spanKind(field); break;
                case "measured": mark(5, field); measured = bool(field); break;
                case "start_ns": mark(6, field); startNs = u63(field); break;
                case "closed": mark(7, field); closed = bool(field); break;
                case "duration_ns": mark(8, field); durationNs = u63(field); break;
                case "step": mark(9, field); step = optStep(field); break;
                default: skip(field);
            }
        }
        return new SpanRecord(required(id, "id"), parentId, required(name, "name"), required(kind, "kind"),
                required(measured, "measured"), requiredLong(startNs, "start_ns"), closed, durationNs, step);
    }

    /** The {@code run} object of the whole-document form. */
    RunMeta documentRun(JsonParser parser) throws IOException {
        this.p = parser;
        this.kindName = "run";
        this.seen = 0;
        return meta().run();
    }

    private Meta meta() throws IOException {
        String schema = null;
        String runId = null;
        String correlationId = null;
        String entrypoint = null;
        ExecutionPhase phase = null;
        String timestamp = null;
        long captureStep = -1;
        long warmupSteps = -1;
        String device = null;
        TimingMode timingMode = null;
        Map<String, String> tags = null;
        String candleVersion = null;
        boolean synchronizedRegion = false;
        CaptureContract contract = null;
        ComparisonIdentity identity = null;
        boolean later = revision >= 7;
        String field;
        while ((field = nextField()) != null) {
            if (later) {
                switch (field) {
                    case "measured_region_device_synchronized":
                        mark(13, field);
                        synchronizedRegion = bool(field);
                        continue;
                    case "capture_contract":
                        mark(14, field);
                        contract = captureContract(field);
                        continue;
                    case "comparison_identity":
                        mark(15, field);
                        identity = p.currentToken() == JsonToken.VALUE_NULL ? null : comparisonIdentity(field);
                        continue;
                    default:
                        break;
                }
            }
            switch (field) {
                case "kind": discriminator(); break;
                case "schema": mark(1, field); schema = string(field); break;
                case "run_id": mark(2, field); runId = string(field); break;
                case "correlation_id": mark(3, field); correlationId = string(field); break;
                case "entrypoint": mark(4, field); entrypoint = string(field); break;
                case "phase": mark(5, field); phase = phase(field); break;
                case "timestamp": mark(6, field); timestamp = string(field); break;
                case "capture_step": mark(7, field); captureStep = u63(field); break;
                case "warmup_steps": mark(8, field); warmupSteps = u63(field); break;
                case "device": mark(9, field); device = string(field); break;
                case "timing_mode": mark(10, field); timingMode = timingMode(field); break;
                case "tags": mark(11, field); tags = tags(field); break;
                case "candle_version": mark(12, field); candleVersion = optString(field); break;
                default: skip(field);
            }
        }
        boolean inDocument = kindName.equals("run");
        RunMeta run = new RunMeta(required(runId, "run_id"), required(correlationId, "correlation_id"),
                required(entrypoint, "entrypoint"), required(phase, "phase"), required(timestamp, "timestamp"),
                requiredLong(captureStep, "capture_step"), requiredLong(warmupSteps, "warmup_steps"),
                required(device, "device"), required(timingMode, "timing_mode"), required(tags, "tags"),
                candleVersion, synchronizedRegion, contract, identity);
        return new Meta(inDocument ? schema : required(schema, "schema"), run);
    }

    private SpanStart spanStart() throws IOException {
        String id = null;
        String parentId = null;
        String name = null;
        long startNs = -1;
        SpanKind kind = null;
        boolean measured = false;
        ExecutionStep step = null;
        String field;
        while ((field = nextField()) != null) {
            switch (field) {
                case "kind": discriminator(); break;
                case "id": mark(1, field); id = string(field); break;
                case "parent_id": mark(2, field); parentId = optString(field); break;
                case "name": mark(3, field); name = string(field); break;
                case "start_ns": mark(4, field); startNs = u63(field); break;
                case "span_kind": mark(5, field); kind = spanKind(field); break;
                case "measured": mark(6, field); measured = bool(field); break;
                case "step": mark(7, field); step = optStep(field); break;
                default: skip(field);
            }
        }
        return new SpanStart(required(id, "id"), parentId, required(name, "name"), requiredLong(startNs, "start_ns"),
                required(kind, "span_kind"), measured, step);
    }

    private SpanEnd spanEnd() throws IOException {
        String id = null;
        long durationNs = 0;
        String field;
        while ((field = nextField()) != null) {
            switch (field) {
                case "kind": discriminator(); break;
                case "id": mark(1, field); id = string(field); break;
                case "duration_ns": mark(2, field); durationNs = u63(field); break;
                default: skip(field);
            }
        }
        return new SpanEnd(required(id, "id"), durationNs);
    }

    private OpEvent op() throws IOException {
        if (revision >= 7) {
            return denseOp();
        }
        String spanId = null;
        String opName = null;
        List<String> inputs = List.of();
        String output = null;
        Shape shape = Shape.SCALAR;
        String dtype = null;
        String device = null;
        long durationNs = -1;
        long timestampNs = 0;
        Long storageBytes = null;
        long inputStorageBytes = 0;
        String field;
        while ((field = nextField()) != null) {
            switch (field) {
                case "kind": discriminator(); break;
                case "span_id": mark(1, field); spanId = string(field); break;
                case "op_name": mark(2, field); opName = string(field); break;
                case "inputs": mark(3, field); inputs = strings(field); break;
                case "output": mark(4, field); output = optString(field); break;
                case "shape": mark(5, field); shape = shape(field); break;
                case "dtype": mark(6, field); dtype = string(field); break;
                case "device": mark(7, field); device = string(field); break;
                case "duration_ns": mark(8, field); durationNs = u63(field); break;
                case "timestamp_ns": mark(9, field); timestampNs = u63(field); break;
                case "storage_bytes": mark(10, field); storageBytes = optU63(field); break;
                case "input_storage_bytes": mark(11, field); inputStorageBytes = u63(field); break;
                default: skip(field);
            }
        }
        return new OpEvent(required(spanId, "span_id"), required(opName, "op_name"), inputs, output, shape,
                required(dtype, "dtype"), required(device, "device"), requiredLong(durationNs, "duration_ns"),
                timestampNs, storageBytes, inputStorageBytes);
    }

    private TensorEvent tensor() throws IOException {
        if (revision >= 7) {
            return labelledTensor();
        }
        String spanId = null;
        String tensorId = null;
        Shape shape = Shape.SCALAR;
        String dtype = null;
        String device = null;
        boolean requiresGrad = false;
        Long storageBytes = null;
        MemoryCategory category = MemoryCategory.OTHER;
        String field;
        while ((field = nextField()) != null) {
            switch (field) {
                case "kind": discriminator(); break;
                case "span_id": mark(1, field); spanId = string(field); break;
                case "tensor_id": mark(2, field); tensorId = string(field); break;
                case "shape": mark(3, field); shape = shape(field); break;
                case "dtype": mark(4, field); dtype = string(field); break;
                case "device": mark(5, field); device = string(field); break;
                case "requires_grad": mark(6, field); requiresGrad = bool(field); break;
                case "storage_bytes": mark(7, field); storageBytes = optU63(field); break;
                case "category": mark(8, field); category = category(field); break;
                default: skip(field);
            }
        }
        return new TensorEvent(required(spanId, "span_id"), required(tensorId, "tensor_id"), shape,
                required(dtype, "dtype"), required(device, "device"), requiresGrad, storageBytes, category);
    }

    private MemoryEvent memory() throws IOException {
        long timestampNs = -1;
        String tensorId = null;
        String spanId = null;
        String opName = null;
        String device = null;
        long bytes = -1;
        MemoryAction action = null;
        Shape shape = Shape.SCALAR;
        String dtype = null;
        MemoryCategory category = MemoryCategory.OTHER;
        String storageId = null;
        boolean later = revision >= 7;
        String field;
        while ((field = nextField()) != null) {
            switch (field) {
                case "kind": discriminator(); break;
                case "storage_id":
                    if (later) {
                        mark(11, field);
                        storageId = uncachedString(field);
                    } else {
                        skip(field);
                    }
                    break;
                case "timestamp_ns": mark(1, field); timestampNs = u63(field); break;
                case "tensor_id": mark(2, field); tensorId = string(field); break;
                case "span_id": mark(3, field); spanId = string(field); break;
                case "op_name": mark(4, field); opName = optString(field); break;
                case "device": mark(5, field); device = string(field); break;
                case "bytes": mark(6, field); bytes = u63(field); break;
                case "action": mark(7, field); action = action(field); break;
                case "shape": mark(8, field); shape = shape(field); break;
                case "dtype": mark(9, field); dtype = string(field); break;
                case "category": mark(10, field); category = category(field); break;
                default: skip(field);
            }
        }
        long ts = requiredLong(timestampNs, "timestamp_ns");
        if (later) {
            required(storageId, "storage_id");
        }
        return new MemoryEvent(ts, required(tensorId, "tensor_id"),
                required(spanId, "span_id"), opName, required(device, "device"), requiredLong(bytes, "bytes"),
                required(action, "action"), shape, required(dtype, "dtype"), category, storageId);
    }

    private DeviceMemoryEvent deviceMemory() throws IOException {
        if (revision >= 7) {
            return optionalDeviceMemory();
        }
        long timestampNs = -1;
        String device = null;
        long used = -1;
        long free = -1;
        Long reserved = null;
        String field;
        while ((field = nextField()) != null) {
            switch (field) {
                case "kind": discriminator(); break;
                case "timestamp_ns": mark(1, field); timestampNs = u63(field); break;
                case "device": mark(2, field); device = string(field); break;
                case "used_bytes": mark(3, field); used = u63(field); break;
                case "free_bytes": mark(4, field); free = u63(field); break;
                case "reserved_bytes": mark(5, field); reserved = optU63(field); break;
                default: skip(field);
            }
        }
        return new DeviceMemoryEvent(requiredLong(timestampNs, "timestamp_ns"), required(device, "device"),
                requiredLong(used, "used_bytes"), requiredLong(free, "free_bytes"), reserved);
    }

    private GradientEvent gradient() throws IOException {
        String eventId = null;
        String root = null;
        String key = null;
        GradientState state = null;
        Double norm = null;
        String field;
        while ((field = nextField()) != null) {
            switch (field) {
                case "kind": discriminator(); break;
                case "event_id": mark(1, field); eventId = string(field); break;
                case "root": mark(2, field); root = string(field); break;
                case "key": mark(3, field); key = string(field); break;
                case "state": mark(4, field); state = gradientState(field); break;
                case "norm": mark(5, field); norm = optF64(field); break;
                default: skip(field);
            }
        }
        return new GradientEvent(required(eventId, "event_id"), required(root, "root"), required(key, "key"),
                required(state, "state"), norm);
    }

    private EdgeEvent edge() throws IOException {
        String from = null;
        String to = null;
        long durationNs = -1;
        String field;
        while ((field = nextField()) != null) {
            switch (field) {
                case "kind": discriminator(); break;
                case "from_span": mark(1, field); from = string(field); break;
                case "to_span": mark(2, field); to = string(field); break;
                case "duration_ns": mark(3, field); durationNs = u63(field); break;
                default: skip(field);
            }
        }
        return new EdgeEvent(required(from, "from_span"), required(to, "to_span"),
                requiredLong(durationNs, "duration_ns"));
    }

    // ---- trace/7 and later --------------------------------------------------------------------

    /** trace/7 {@code op}: shape required, dense output bytes optional, dense input bytes required. */
    private OpEvent denseOp() throws IOException {
        String spanId = null;
        String opName = null;
        List<String> inputs = List.of();
        String output = null;
        Shape shape = null;
        String dtype = null;
        String device = null;
        long durationNs = -1;
        long timestampNs = 0;
        Long outputDense = null;
        long inputDense = -1;
        String field;
        while ((field = nextField()) != null) {
            switch (field) {
                case "kind": discriminator(); break;
                case "span_id": mark(1, field); spanId = string(field); break;
                case "op_name": mark(2, field); opName = string(field); break;
                case "inputs": mark(3, field); inputs = strings(field); break;
                case "output": mark(4, field); output = optString(field); break;
                case "shape": mark(5, field); shape = shape(field); break;
                case "dtype": mark(6, field); dtype = string(field); break;
                case "device": mark(7, field); device = string(field); break;
                case "duration_ns": mark(8, field); durationNs = u63(field); break;
                case "timestamp_ns": mark(9, field); timestampNs = u63(field); break;
                case "output_dense_bytes": mark(10, field); outputDense = optU63(field); break;
                case "input_dense_bytes": mark(11, field); inputDense = u63(field); break;
                default: skip(field);
            }
        }
        return new OpEvent(required(spanId, "span_id"), required(opName, "op_name"), inputs, output,
                required(shape, "shape"), required(dtype, "dtype"), required(device, "device"),
                requiredLong(durationNs, "duration_ns"), timestampNs, outputDense,
                requiredLong(inputDense, "input_dense_bytes"));
    }

    /** trace/7 {@code tensor}: a label, shape required, dense bytes optional. */
    private TensorEvent labelledTensor() throws IOException {
        String spanId = null;
        String tensorId = null;
        String label = null;
        Shape shape = null;
        String dtype = null;
        String device = null;
        boolean requiresGrad = false;
        Long denseBytes = null;
        MemoryCategory category = MemoryCategory.OTHER;
        String field;
        while ((field = nextField()) != null) {
            switch (field) {
                case "kind": discriminator(); break;
                case "span_id": mark(1, field); spanId = string(field); break;
                case "tensor_id": mark(2, field); tensorId = string(field); break;
                case "label": mark(3, field); label = optString(field); break;
                case "shape": mark(4, field); shape = shape(field); break;
                case "dtype": mark(5, field); dtype = string(field); break;
                case "device": mark(6, field); device = string(field); break;
                case "requires_grad": mark(7, field); requiresGrad = bool(field); break;
                case "dense_bytes": mark(8, field); denseBytes = optU63(field); break;
                case "category": mark(9, field); category = category(field); break;
                default: skip(field);
            }
        }
        return new TensorEvent(required(spanId, "span_id"), required(tensorId, "tensor_id"), required(shape, "shape"),
                required(dtype, "dtype"), required(device, "device"), requiresGrad, denseBytes, category, label);
    }

    /** trace/10 {@code tensor_stats}. */
    private TensorStats tensorStats() throws IOException {
        String spanId = null;
        String label = null;
        Shape shape = null;
        String dtype = null;
        long elements = -1;
        long nonFinite = -1;
        Double rms = null;
        Double absMax = null;
        Double mean = null;
        String field;
        while ((field = nextField()) != null) {
            switch (field) {
                case "kind": discriminator(); break;
                case "span_id": mark(1, field); spanId = string(field); break;
                case "label": mark(2, field); label = string(field); break;
                case "shape": mark(3, field); shape = shape(field); break;
                case "dtype": mark(4, field); dtype = string(field); break;
                case "elements": mark(5, field); elements = u63(field); break;
                case "non_finite": mark(6, field); nonFinite = u63(field); break;
                case "rms": mark(7, field); rms = f64(field); break;
                case "abs_max": mark(8, field); absMax = f64(field); break;
                case "mean": mark(9, field); mean = f64(field); break;
                default: skip(field);
            }
        }
        return new TensorStats(required(spanId, "span_id"), required(label, "label"), required(shape, "shape"),
                required(dtype, "dtype"), requiredLong(elements, "elements"), requiredLong(nonFinite, "non_finite"),
                required(rms, "rms"), required(absMax, "abs_max"), required(mean, "mean"));
    }

    /** trace/7 {@code device_memory}: every measurement optional, an observed capacity. */
    private DeviceMemoryEvent optionalDeviceMemory() throws IOException {
        long timestampNs = -1;
        String device = null;
        Long used = null;
        Long free = null;
        Long reserved = null;
        Long capacity = null;
        String field;
        while ((field = nextField()) != null) {
            switch (field) {
                case "kind": discriminator(); break;
                case "timestamp_ns": mark(1, field); timestampNs = u63(field); break;
                case "device": mark(2, field); device = string(field); break;
                case "used_bytes": mark(3, field); used = optU63(field); break;
                case "free_bytes": mark(4, field); free = optU63(field); break;
                case "reserved_bytes": mark(5, field); reserved = optU63(field); break;
                case "capacity_bytes": mark(6, field); capacity = optU63(field); break;
                default: skip(field);
            }
        }
        return new DeviceMemoryEvent(requiredLong(timestampNs, "timestamp_ns"), required(device, "device"), used, free,
                reserved, capacity);
    }

    /** trace/7 {@code device_interval}. */
    private DeviceInterval deviceInterval() throws IOException {
        String spanId = null;
        String device = null;
        String streamId = null;
        String clockId = null;
        String backend = null;
        long startNs = -1;
        long durationNs = -1;
        String field;
        while ((field = nextField()) != null) {
            switch (field) {
                case "kind": discriminator(); break;
                case "span_id": mark(1, field); spanId = string(field); break;
                case "device": mark(2, field); device = string(field); break;
                case "stream_id": mark(3, field); streamId = string(field); break;
                case "clock_id": mark(4, field); clockId = string(field); break;
                case "backend": mark(5, field); backend = string(field); break;
                case "start_ns": mark(6, field); startNs = u63(field); break;
                case "duration_ns": mark(7, field); durationNs = u63(field); break;
                default: skip(field);
            }
        }
        return new DeviceInterval(required(spanId, "span_id"), required(device, "device"),
                required(streamId, "stream_id"), required(clockId, "clock_id"), required(backend, "backend"),
                requiredLong(startNs, "start_ns"), requiredLong(durationNs, "duration_ns"));
    }

    /** trace/7 {@code terminal}. */
    private Terminal terminal() throws IOException {
        RunOutcome.Status status = null;
        long timestampNs = -1;
        String reason = null;
        String field;
        while ((field = nextField()) != null) {
            switch (field) {
                case "kind": discriminator(); break;
                case "outcome": mark(1, field); status = outcomeStatus(field); break;
                case "timestamp_ns": mark(2, field); timestampNs = u63(field); break;
                case "reason": mark(3, field); reason = optString(field); break;
                default: skip(field);
            }
        }
        return new Terminal(new RunOutcome(required(status, "outcome"), reason,
                requiredLong(timestampNs, "timestamp_ns")));
    }

    /**
     * trace/7 {@code edge}: a union on {@code edge_kind} ({@code call}: from_span, to_span,
     * host_duration_ns; {@code data}: from_tensor, to_tensor). As with serde's internally tagged
     * enums the tag may stand anywhere, so the members are held until the tag is known; members
     * of the other variant are ignored whatever they hold.
     */
    private Object typedEdge() throws IOException {
        String edgeKind = null;
        String[] strings = new String[4];
        DecodeException[] problems = new DecodeException[5];
        long hostDuration = -1;
        String field;
        while ((field = nextField()) != null) {
            int slot;
            switch (field) {
                case "kind": discriminator(); continue;
                case "edge_kind":
                    mark(1, field);
                    edgeKind = string(field);
                    continue;
                case "from_span": slot = 0; break;
                case "to_span": slot = 1; break;
                case "from_tensor": slot = 2; break;
                case "to_tensor": slot = 3; break;
                case "host_duration_ns":
                    mark(6, field);
                    try {
                        hostDuration = u63(field);
                    } catch (DecodeException e) {
                        problems[4] = e;
                        skip(field);
                    }
                    continue;
                default: skip(field); continue;
            }
            mark(2 + slot, field);
            if (p.currentToken() == JsonToken.VALUE_STRING) {
                strings[slot] = text(field);
            } else {
                problems[slot] = wrongType(field, "a string");
                skip(field);
            }
        }
        if (edgeKind == null) {
            throw missing("edge_kind");
        }
        switch (edgeKind) {
            case "call":
                for (int slot : new int[] {0, 1, 4}) {
                    if (problems[slot] != null) {
                        throw problems[slot];
                    }
                }
                return new EdgeEvent(required(strings[0], "from_span"), required(strings[1], "to_span"),
                        requiredLong(hostDuration, "host_duration_ns"));
            case "data":
                for (int slot : new int[] {2, 3}) {
                    if (problems[slot] != null) {
                        throw problems[slot];
                    }
                }
                return new DataEdgeEvent(required(strings[2], "from_tensor"), required(strings[3], "to_tensor"));
            default:
                throw new DecodeException("edge_kind", "member `edge_kind`: unknown value " + quote(edgeKind)
                        + " (expected one of call, data)");
        }
    }

    /** {@code meta.capture_contract}: its own members, duplicates and required ones, by revision. */
    private CaptureContract captureContract(String member) throws IOException {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            throw wrongType(member, "an object");
        }
        long outer = seen;
        seen = 0;
        MeasurementScope scope = null;
        CoverageLevel operations = null;
        CoverageLevel tensors = CoverageLevel.NONE;
        CoverageLevel gradients = CoverageLevel.NONE;
        GradientContract gradientContract = null;
        CoverageLevel logical = null;
        CoverageLevel physical = null;
        CoverageLevel deviceTiming = null;
        List<String> required = List.of();
        List<String> gpu = List.of();
        List<String> cpu = List.of();
        String field;
        while ((field = nextField()) != null) {
            String path = member + "." + field;
            switch (field) {
                case "measurement_scope": mark(1, path); scope = scope(path); break;
                case "operations": mark(2, path); operations = coverage(path); break;
                case "tensors": mark(3, path); tensors = coverage(path); break;
                case "gradients": mark(4, path); gradients = coverage(path); break;
                case "logical_memory": mark(5, path); logical = coverage(path); break;
                case "physical_memory": mark(6, path); physical = coverage(path); break;
                case "device_timing": mark(7, path); deviceTiming = coverage(path); break;
                case "required_semantic_labels": mark(8, path); required = strings(path); break;
                case "gradient_contract":
                    if (revision < 9) {
                        skip(path);
                        break;
                    }
                    mark(9, path);
                    gradientContract = p.currentToken() == JsonToken.VALUE_NULL ? null : gradientContract(path);
                    break;
                case "gpu_expected_semantic_labels":
                case "cpu_only_semantic_labels":
                    if (revision < 10) {
                        skip(path);
                        break;
                    }
                    if (field.charAt(0) == 'g') {
                        mark(10, path);
                        gpu = strings(path);
                    } else {
                        mark(11, path);
                        cpu = strings(path);
                    }
                    break;
                default: skip(path);
            }
        }
        seen = outer;
        return new CaptureContract(required(scope, member + ".measurement_scope"),
                required(operations, member + ".operations"), tensors, gradients, gradientContract,
                required(logical, member + ".logical_memory"), required(physical, member + ".physical_memory"),
                required(deviceTiming, member + ".device_timing"), required, gpu, cpu);
    }

    /** {@code capture_contract.gradient_contract} (trace/9 and later). */
    private GradientContract gradientContract(String member) throws IOException {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            throw wrongType(member, "an object");
        }
        long outer = seen;
        seen = 0;
        String sha = null;
        List<ExpectedGradient> expected = null;
        List<GradientFamily> families = null;
        String field;
        while ((field = nextField()) != null) {
            String path = member + "." + field;
            switch (field) {
                case "manifest_sha256": mark(1, path); sha = string(path); break;
                case "expected":
                    mark(2, path);
                    if (atSplice(splice == null ? -1 : splice.arrayOffset())) {
                        expected = splice.take();
                        break;
                    }
                    ExpectedPaths paths = new ExpectedPaths(path + ".root", path + ".key", path + ".family");
                    expected = objects(path, element -> expectedGradient(element, paths));
                    break;
                case "families":
                    mark(3, path);
                    if (atSplice(splice == null ? -1 : splice.familiesOffset())) {
                        families = splice.takeFamilies();
                        break;
                    }
                    FamilyPaths familyPaths = new FamilyPaths(path + ".family", path + ".expectation",
                            path + ".min_present");
                    families = objects(path, element -> gradientFamily(element, familyPaths));
                    break;
                default: skip(path);
            }
        }
        seen = outer;
        return new GradientContract(required(sha, member + ".manifest_sha256"),
                required(expected, member + ".expected"),
                required(families, member + ".families"));
    }

    /**
     * The paths of an expected gradient's members, built once for the whole array: a manifest lists
     * every gradient of the model (100k and more), and building them per element cost more than
     * reading the elements.
     */
    private record ExpectedPaths(String root, String key, String family) {}

    private ExpectedGradient expectedGradient(String member, ExpectedPaths paths) throws IOException {
        String root = null;
        String key = null;
        String family = null;
        String field;
        while ((field = nextField()) != null) {
            switch (field) {
                case "root": mark(1, paths.root()); root = string(paths.root()); break;
                case "key": mark(2, paths.key()); key = string(paths.key()); break;
                case "family": mark(3, paths.family()); family = string(paths.family()); break;
                default: skip(member + "." + field);
            }
        }
        return new ExpectedGradient(required(root, paths.root()), required(key, paths.key()),
                required(family, paths.family()));
    }

    /**
     * Whether the parser stands at an array the splice emptied, which begins at {@code offset} of
     * the line (-1: none): then the parser is moved past it, and the splice's values stand for it.
     */
    private boolean atSplice(long offset) throws IOException {
        if (offset < 0 || p.currentToken() != JsonToken.START_ARRAY
                || p.currentTokenLocation().getByteOffset() != offset) {
            return false;
        }
        p.skipChildren();
        return true;
    }

    /** The paths of a gradient family's members, built once for the whole array (a family per layer: 10k and more). */
    private record FamilyPaths(String family, String expectation, String minPresent) {}

    private GradientFamily gradientFamily(String member, FamilyPaths paths) throws IOException {
        String family = null;
        FamilyExpectation expectation = null;
        long minPresent = -1;
        String field;
        while ((field = nextField()) != null) {
            switch (field) {
                case "family": mark(1, paths.family()); family = string(paths.family()); break;
                case "expectation": mark(2, paths.expectation()); expectation = expectation(paths.expectation()); break;
                case "min_present": mark(3, paths.minPresent()); minPresent = u63(paths.minPresent()); break;
                default: skip(member + "." + field);
            }
        }
        return new GradientFamily(required(family, paths.family()), required(expectation, paths.expectation()),
                requiredLong(minPresent, paths.minPresent()));
    }

    /** {@code meta.comparison_identity}; {@code implementation_id} from trace/8 on. */
    private ComparisonIdentity comparisonIdentity(String member) throws IOException {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            throw wrongType(member, "an object");
        }
        long outer = seen;
        seen = 0;
        String implementation = null;
        String[] ids = new String[7];
        String[] names = {
            "workload_id", "model_id", "config_id", "data_id", "seed_policy", "precision", "device_state",
        };
        long batch = -1;
        long accumulation = -1;
        String pair = null;
        String field;
        while ((field = nextField()) != null) {
            String path = member + "." + field;
            int slot = -1;
            switch (field) {
                case "implementation_id":
                    if (revision < 8) {
                        skip(path);
                        continue;
                    }
                    mark(1, path);
                    implementation = optString(path);
                    continue;
                case "workload_id": slot = 0; break;
                case "model_id": slot = 1; break;
                case "config_id": slot = 2; break;
                case "data_id": slot = 3; break;
                case "seed_policy": slot = 4; break;
                case "precision": slot = 5; break;
                case "device_state": slot = 6; break;
                case "physical_batch": mark(9, path); batch = u63(path); continue;
                case "accumulation_steps": mark(10, path); accumulation = u63(path); continue;
                case "pair_id": mark(11, path); pair = optString(path); continue;
                default: skip(path); continue;
            }
            mark(2 + slot, path);
            ids[slot] = string(path);
        }
        seen = outer;
        for (int i = 0; i < ids.length; i++) {
            required(ids[i], member + "." + names[i]);
        }
        return new ComparisonIdentity(implementation, ids[0], ids[1], ids[2], ids[3], ids[4],
                requiredLong(batch, member + ".physical_batch"),
                requiredLong(accumulation, member + ".accumulation_steps"),
                ids[5], ids[6], pair);
    }

    /** An object member's decoder, given the member path for messages. */
    @FunctionalInterface
    private interface ObjectDecoder<T> {
        T decode(String member) throws IOException;
    }

    /** An array of objects, each decoded with its own duplicate tracking. */
    private <T> List<T> objects(String member, ObjectDecoder<T> element) throws IOException {
        if (p.currentToken() != JsonToken.START_ARRAY) {
            throw wrongType(member, "an array of objects");
        }
        List<T> values = new ArrayList<>();
        JsonToken t;
        while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
            if (t != JsonToken.START_OBJECT) {
                throw wrongType(member, "an array of objects");
            }
            long outer = seen;
            seen = 0;
            values.add(element.decode(member));
            seen = outer;
        }
        return values;
    }

    private double f64(String field) throws IOException {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_NUMBER_FLOAT) {
            double value = p.getDoubleValue();
            if (Double.isInfinite(value)) {
                throw new DecodeException(field, "member `" + field + "`: number " + p.getText() + " is out of range");
            }
            return value;
        }
        throw wrongType(field, "a number");
    }

    private RunOutcome.Status outcomeStatus(String field) throws IOException {
        switch (string(field)) {
            case "complete": return RunOutcome.Status.COMPLETE;
            case "failed": return RunOutcome.Status.FAILED;
            default: throw unknownVariant(field, "complete, failed");
        }
    }

    private CoverageLevel coverage(String field) throws IOException {
        switch (string(field)) {
            case "none": return CoverageLevel.NONE;
            case "partial": return CoverageLevel.PARTIAL;
            case "complete": return CoverageLevel.COMPLETE;
            default: throw unknownVariant(field, "none, partial, complete");
        }
    }

    private MeasurementScope scope(String field) throws IOException {
        switch (string(field)) {
            case "unknown": return MeasurementScope.UNKNOWN;
            case "profiled_work": return MeasurementScope.PROFILED_WORK;
            case "production_equivalent": return MeasurementScope.PRODUCTION_EQUIVALENT;
            default: throw unknownVariant(field, "unknown, profiled_work, production_equivalent");
        }
    }

    private FamilyExpectation expectation(String field) throws IOException {
        switch (string(field)) {
            case "active": return FamilyExpectation.ACTIVE;
            case "inactive": return FamilyExpectation.INACTIVE;
            case "data_conditional": return FamilyExpectation.DATA_CONDITIONAL;
            default: throw unknownVariant(field, "active, inactive, data_conditional");
        }
    }

    /** Hands a decoded record to the assembler; {@code line} is its physical line. */
    static void feed(TraceAssembler assembler, Object record, long line) {
        if (record instanceof OpEvent op) {
            assembler.op(line, op);
        } else if (record instanceof MemoryEvent memory) {
            assembler.memory(line, memory);
        } else if (record instanceof SpanStart start) {
            assembler.spanStart(line, start);
        } else if (record instanceof SpanEnd end) {
            assembler.spanEnd(line, end.id(), end.durationNs());
        } else if (record instanceof TensorEvent tensor) {
            assembler.tensor(line, tensor);
        } else if (record instanceof DeviceMemoryEvent device) {
            assembler.deviceMemory(line, device);
        } else if (record instanceof GradientEvent gradient) {
            assembler.gradient(line, gradient);
        } else if (record instanceof EdgeEvent edge) {
            assembler.edge(line, edge);
        } else if (record instanceof DeviceInterval interval) {
            assembler.deviceInterval(line, interval);
        } else if (record instanceof DataEdgeEvent edge) {
            assembler.dataEdge(line, edge);
        } else if (record instanceof TensorStats stats) {
            assembler.tensorStats(line, stats);
        } else if (record instanceof Terminal terminal) {
            assembler.terminal(line, terminal.outcome());
        } else if (record instanceof Meta meta) {
            assembler.meta(line, meta.schema(), meta.run());
        } else {
            throw new IllegalStateException("unexpected record " + record);
        }
    }

    /** Jackson's own words without the source-location aside it adds to some messages. */
    static String jacksonMessage(com.fasterxml.jackson.core.JsonProcessingException e) {
        String message = e.getOriginalMessage();
        int aside = message == null ? -1 : message.indexOf(" (start marker at ");
        return aside < 0 ? message : message.substring(0, aside);
    }

    // ---- members --------------------------------------------------------------------------

    /** The next member name, or {@code null} at the end of the object. */
    private String nextField() throws IOException {
        String name;
        try {
            // Jackson reads a scalar value together with its member name.
            name = p.nextFieldName();
            if (name != null) {
                p.nextToken();
            }
        } catch (StreamConstraintsException e) {
            // A number of more than 1000 digits: still name the member (D5).
            String at = p.getParsingContext().getCurrentName();
            if (at == null) {
                throw e;
            }
            throw new DecodeException(at, "member `" + at + "`: " + jacksonMessage(e));
        }
        if (name != null) {
            checked(null, name);
            return name;
        }
        if (p.currentToken() != JsonToken.END_OBJECT) {
            throw new DecodeException(null, "expected a member name or `}`");
        }
        return null;
    }

    /** A {@code kind} member met again inside a JSONL record: only its duplicate is an error. */
    private void discriminator() throws IOException {
        if (kindName.equals("run")) {
            skip("kind");
            return;
        }
        mark(0, "kind");
        skip("kind");
    }

    private void mark(int bit, String field) {
        long mask = 1L << bit;
        if ((seen & mask) != 0) {
            throw new DecodeException(field, "duplicate member `" + field + "`");
        }
        seen |= mask;
    }

    /**
     * Skips the current value. Like the original, which buffers every member of a record before
     * decoding it, strings and names inside ignored members must still be valid text.
     */
    private void skip(String field) throws IOException {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_STRING) {
            text(field);
            return;
        }
        if (t != JsonToken.START_OBJECT && t != JsonToken.START_ARRAY) {
            return;
        }
        for (int depth = 1; depth > 0; ) {
            t = p.nextToken();
            if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
                depth++;
            } else if (t == JsonToken.END_OBJECT || t == JsonToken.END_ARRAY) {
                depth--;
            } else if (t == JsonToken.FIELD_NAME || t == JsonToken.VALUE_STRING) {
                text(field);
            } else if (t == null) {
                throw new DecodeException(null, "unexpected end of input");
            }
        }
    }

    /**
     * The current string token; unpaired surrogate escapes are rejected. Short strings go through
     * a direct-mapped cache looked up by the parser's characters, so the ids, names, dtypes and
     * devices that records repeat are one {@code String} each and are not even allocated again.
     */
    private String text(String field) throws IOException {
        int length = p.getTextLength();
        if (length > CACHED_TEXT_LENGTH) {
            return checked(field, p.getText());
        }
        char[] chars = p.getTextCharacters();
        int offset = p.getTextOffset();
        int hash = 0;
        for (int i = 0; i < length; i++) {
            hash = 31 * hash + chars[offset + i];
        }
        int slot = (hash ^ (hash >>> 15)) & (textCache.length - 1);
        String cached = textCache[slot];
        if (cached != null && cached.length() == length && sameChars(cached, chars, offset)) {
            return cached;
        }
        String text = checked(field, new String(chars, offset, length));
        textCache[slot] = text;
        return text;
    }

    private static boolean sameChars(String s, char[] chars, int offset) {
        for (int i = 0, n = s.length(); i < n; i++) {
            if (s.charAt(i) != chars[offset + i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@link #checkSurrogates} unless the line being decoded is known to hold no backslash and no
     * 0xED byte ({@link #lineWithoutEscapes}): without an escape or an encoded surrogate no string
     * can hold an unpaired one, and the check is a second pass over every string (the 8 MB meta
     * record of a trace with a 100k-parameter gradient manifest spent ~0.1 s of CPU in it).
     */
    private String checked(String field, String s) {
        return withoutEscapes ? s : checkSurrogates(field, s);
    }

    /**
     * Tells the decoder that the line it decodes next is {@code splice}'s line, whose gradient
     * manifest the splice read ({@code null} again after it).
     */
    void splice(ManifestSplice splice) {
        this.splice = splice;
    }

    /**
     * Tells the decoder whether the line it decodes next holds neither a backslash nor a 0xED byte
     * ({@code false} again after it); lines decoded without this are checked string by string.
     */
    void lineWithoutEscapes(boolean value) {
        withoutEscapes = value;
    }

    /**
     * Rejects text with an unpaired UTF-16 surrogate (only a JSON {@code \\uXXXX} escape can produce one):
     * the original's strings are Rust strings and refuse them ("lone surrogate in hex escape").
     */
    private static String checkSurrogates(String field, String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                    i++;
                } else {
                    String where = field == null ? "" : "member `" + field + "`: ";
                    throw new DecodeException(field, where + "unpaired surrogate escape "
                            + String.format("\\u%04x", (int) c) + " in a string");
                }
            }
        }
        return s;
    }

    private String string(String field) throws IOException {
        if (p.currentToken() == JsonToken.VALUE_STRING) {
            return text(field);
        }
        throw wrongType(field, "a string");
    }

    /**
     * A string that is unlikely to repeat soon (a storage id: once at its allocation, once at its
     * free, far apart): read past the cache, so that it does not evict the ids and names that do.
     */
    private String uncachedString(String field) throws IOException {
        if (p.currentToken() == JsonToken.VALUE_STRING) {
            return checked(field, p.getText());
        }
        throw wrongType(field, "a string");
    }

    private String optString(String field) throws IOException {
        return p.currentToken() == JsonToken.VALUE_NULL ? null : string(field);
    }

    private boolean bool(String field) throws IOException {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_TRUE) {
            return true;
        }
        if (t == JsonToken.VALUE_FALSE) {
            return false;
        }
        throw wrongType(field, "a boolean");
    }

    /** An integer in 0..2^63−1 (decision D5). */
    private long u63(String field) throws IOException {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_NUMBER_INT) {
            JsonParser.NumberType type = p.getNumberType();
            if (type == JsonParser.NumberType.BIG_INTEGER) {
                throw new DecodeException(field, "member `" + field + "`: integer " + abbreviate(p.getText())
                        + " is out of range (0.." + Long.MAX_VALUE + ")");
            }
            long value = p.getLongValue();
            if (value < 0) {
                throw new DecodeException(field, "member `" + field + "`: integer " + value
                        + " is out of range (0.." + Long.MAX_VALUE + ")");
            }
            return value;
        }
        throw wrongType(field, "an integer in 0.." + Long.MAX_VALUE);
    }

    private Long optU63(String field) throws IOException {
        return p.currentToken() == JsonToken.VALUE_NULL ? null : u63(field);
    }

    private Double optF64(String field) throws IOException {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_NULL) {
            return null;
        }
        if (t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_NUMBER_FLOAT) {
            double value = p.getDoubleValue();
            if (Double.isInfinite(value)) {
                throw new DecodeException(field, "member `" + field + "`: number " + p.getText() + " is out of range");
            }
            return value;
        }
        throw wrongType(field, "a number");
    }

    private List<String> strings(String field) throws IOException {
        if (p.currentToken() != JsonToken.START_ARRAY) {
            throw wrongType(field, "an array of strings");
        }
        List<String> values = new ArrayList<>(4);
        JsonToken t;
        while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
            if (t != JsonToken.VALUE_STRING) {
                throw wrongType(field, "an array of strings");
            }
            values.add(text(field));
        }
        return values;
    }

    private Shape shape(String field) throws IOException {
        if (p.currentToken() != JsonToken.START_ARRAY) {
            throw wrongType(field, "an array of integers");
        }
        int n = 0;
        while (p.nextToken() != JsonToken.END_ARRAY) {
            if (n == dims.length) {
                dims = java.util.Arrays.copyOf(dims, n * 2);
            }
            dims[n++] = u63(field);
        }
        if (n == 0) {
            return Shape.SCALAR;
        }
        Shape shape = Shape.of(java.util.Arrays.copyOf(dims, n));
        Shape known = shapes.putIfAbsent(shape, shape);
        if (known != null) {
            return known;
        }
        if (shapes.size() > POOL_LIMIT) {
            shapes.clear();
        }
        return shape;
    }

    private Map<String, String> tags(String field) throws IOException {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            throw wrongType(field, "an object of strings");
        }
        Map<String, String> tags = new TreeMap<>();
        String key;
        while ((key = p.nextFieldName()) != null) {
            checked(field, key);
            if (p.nextToken() != JsonToken.VALUE_STRING) {
                throw wrongType(field, "an object of strings (tag `" + key + "`)");
            }
            tags.put(key, text(field));
        }
        return tags;
    }

    // ---- enums (exact spellings of spec 1.4) ------------------------------------------------

    private ExecutionPhase phase(String field) throws IOException {
        switch (string(field)) {
            case "train": return ExecutionPhase.TRAIN;
            case "infer": return ExecutionPhase.INFER;
            default: throw unknownVariant(field, "train, infer");
        }
    }

    private ExecutionStep optStep(String field) throws IOException {
        if (p.currentToken() == JsonToken.VALUE_NULL) {
            return null;
        }
        switch (string(field)) {
            case "forward": return ExecutionStep.FORWARD;
            case "backward": return ExecutionStep.BACKWARD;
            case "optimizer": return ExecutionStep.OPTIMIZER;
            default: throw unknownVariant(field, "forward, backward, optimizer");
        }
    }

    private TimingMode timingMode(String field) throws IOException {
        switch (string(field)) {
            case "host": return TimingMode.HOST;
            case "device_synchronized": return TimingMode.DEVICE_SYNCHRONIZED;
            default: throw unknownVariant(field, "host, device_synchronized");
        }
    }

    private SpanKind spanKind(String field) throws IOException {
        switch (string(field)) {
            case "function": return SpanKind.FUNCTION;
            case "op": return SpanKind.OP;
            case "module": return SpanKind.MODULE;
            default: throw unknownVariant(field, "function, op, module");
        }
    }

    private MemoryAction action(String field) throws IOException {
        switch (string(field)) {
            case "alloc": return MemoryAction.ALLOC;
            case "free": return MemoryAction.FREE;
            default: throw unknownVariant(field, "alloc, free");
        }
    }

    private MemoryCategory category(String field) throws IOException {
        switch (string(field)) {
            case "parameter": return MemoryCategory.PARAMETER;
            case "activation": return MemoryCategory.ACTIVATION;
            case "gradient": return MemoryCategory.GRADIENT;
            case "optimizer": return MemoryCategory.OPTIMIZER;
            case "other": return MemoryCategory.OTHER;
            default: throw unknownVariant(field, "parameter, activation, gradient, optimizer, other");
        }
    }

    private GradientState gradientState(String field) throws IOException {
        switch (string(field)) {
            case "present": return GradientState.PRESENT;
            case "missing": return GradientState.MISSING;
            case "zero": return GradientState.ZERO;
            case "non_finite": return GradientState.NON_FINITE;
            default: throw unknownVariant(field, "present, missing, zero, non_finite");
        }
    }

    // ---- errors -----------------------------------------------------------------------------

    private <T> T required(T value, String field) {
        if (value == null) {
            throw missing(field);
        }
        return value;
    }

    private long requiredLong(long value, String field) {
        if (value < 0) {
            throw missing(field);
        }
        return value;
    }

    private DecodeException missing(String field) {
        return new DecodeException(field, kindName + " record is missing required member `" + field + "`");
    }

    private DecodeException unknownVariant(String field, String expected) throws IOException {
        return new DecodeException(field, "member `" + field + "`: unknown value " + quote(p.getText())
                + " (expected one of " + expected + ")");
    }

    private DecodeException wrongType(String field, String expected) throws IOException {
        return new DecodeException(field, "member `" + field + "`: expected " + expected + ", found "
                + describe(p.currentToken()));
    }

    private String describe(JsonToken t) throws IOException {
        if (t == null) {
            return "end of input";
        }
        switch (t) {
            case VALUE_NULL: return "null";
            case VALUE_TRUE: case VALUE_FALSE: return "boolean " + p.getText();
            case VALUE_STRING: return "string " + quote(p.getText());
            case VALUE_NUMBER_INT: return "integer " + abbreviate(p.getText());
            case VALUE_NUMBER_FLOAT: return "number " + abbreviate(p.getText());
            case START_ARRAY: return "an array";
            case START_OBJECT: return "an object";
            default: return t.asString() == null ? t.name() : t.asString();
        }
    }

    static String quote(String s) {
        String shown = abbreviate(s);
        StringBuilder out = new StringBuilder(shown.length() + 2).append('"');
        for (int i = 0; i < shown.length(); i++) {
            char c = shown.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }

    private static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 77) + "...";
    }

    /** A decoding failure within one record; the reader adds the source and line. */
    static final class DecodeException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final String member;

        DecodeException(String member, String message) {
            super(message, null, false, false);
            this.member = member;
        }

        String member() {
            return member;
        }
    }
}
