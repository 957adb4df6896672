package io.tracegraph.json;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.tracegraph.domain.trace.DeviceMemoryEvent;
import io.tracegraph.domain.trace.EdgeEvent;
import io.tracegraph.domain.trace.GradientEvent;
import io.tracegraph.domain.trace.MemoryEvent;
import io.tracegraph.domain.trace.OpEvent;
import io.tracegraph.domain.trace.RunMeta;
import io.tracegraph.domain.trace.Shape;
import io.tracegraph.domain.trace.SpanRecord;
import io.tracegraph.domain.trace.TensorEvent;
import io.tracegraph.domain.trace.TraceDocument;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.Map;

/** Writes a {@link TraceDocument} in the whole-document JSON form of spec 2.2 (test fixture). */
final class TraceDocumentJson {
    private TraceDocumentJson() {
    }

    static byte[] write(TraceDocument doc) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator g = new JsonFactory().createGenerator(out, JsonEncoding.UTF8)) {
            g.useDefaultPrettyPrinter();
            g.writeStartObject();
            g.writeStringField("schema", doc.schema());
            g.writeFieldName("run");
            run(g, doc.run());
            g.writeArrayFieldStart("spans");
            for (SpanRecord s : doc.spans()) {
                span(g, s);
            }
            g.writeEndArray();
            g.writeArrayFieldStart("ops");
            for (OpEvent op : doc.ops()) {
                op(g, op);
            }
            g.writeEndArray();
            g.writeArrayFieldStart("tensors");
            for (TensorEvent t : doc.tensors()) {
                tensor(g, t);
            }
            g.writeEndArray();
            g.writeArrayFieldStart("memory");
            for (MemoryEvent m : doc.memory()) {
                memory(g, m);
            }
            g.writeEndArray();
            g.writeArrayFieldStart("device_memory");
            for (DeviceMemoryEvent d : doc.deviceMemory()) {
                g.writeStartObject();
                g.writeNumberField("timestamp_ns", d.timestampNs());
                g.writeStringField("device", d.device());
                g.writeNumberField("used_bytes", d.usedBytes());
                g.writeNumberField("free_bytes", d.freeBytes());
                if (d.reservedBytes() != null) {
                    g.writeNumberField("reserved_bytes", d.reservedBytes());
                }
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeArrayFieldStart("gradients");
            for (GradientEvent e : doc.gradients()) {
                g.writeStartObject();
                g.writeStringField("event_id", e.eventId());
                g.writeStringField("root", e.root());
                g.writeStringField("key", e.key());
                g.writeStringField("state", wire(e.state()));
                if (e.norm() != null) {
                    g.writeNumberField("norm", e.norm());
                }
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeArrayFieldStart("edges");
            for (EdgeEvent e : doc.edges()) {
                g.writeStartObject();
                g.writeStringField("from_span", e.fromSpan());
                g.writeStringField("to_span", e.toSpan());
                g.writeNumberField("duration_ns", e.durationNs());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static void run(JsonGenerator g, RunMeta run) throws IOException {
        g.writeStartObject();
        g.writeStringField("run_id", run.runId());
        g.writeStringField("correlation_id", run.correlationId());
        g.writeStringField("entrypoint", run.entrypoint());
        g.writeStringField("phase", wire(run.phase()));
        g.writeStringField("timestamp", run.timestamp());
        g.writeNumberField("capture_step", run.captureStep());
        g.writeNumberField("warmup_steps", run.warmupSteps());
        g.writeStringField("device", run.device());
        g.writeStringField("timing_mode", wire(run.timingMode()));
        g.writeObjectFieldStart("tags");
        for (Map.Entry<String, String> tag : run.tags().entrySet()) {
            g.writeStringField(tag.getKey(), tag.getValue());
        }
        g.writeEndObject();
        if (run.candleVersion() != null) {
            g.writeStringField("candle_version", run.candleVersion());
        }
        g.writeEndObject();
    }

    private static void span(JsonGenerator g, SpanRecord s) throws IOException {
        g.writeStartObject();
        g.writeStringField("id", s.id());
        if (s.parentId() != null) {
            g.writeStringField("parent_id", s.parentId());
        }
        g.writeStringField("name", s.name());
        g.writeStringField("kind", wire(s.kind()));
        g.writeBooleanField("measured", s.measured());
        g.writeNumberField("start_ns", s.startNs());
        g.writeBooleanField("closed", s.closed());
        g.writeNumberField("duration_ns", s.durationNs());
        if (s.step() != null) {
            g.writeStringField("step", wire(s.step()));
        }
        g.writeEndObject();
    }

    private static void op(JsonGenerator g, OpEvent op) throws IOException {
        g.writeStartObject();
        g.writeStringField("span_id", op.spanId());
        g.writeStringField("op_name", op.opName());
        g.writeArrayFieldStart("inputs");
        for (String input : op.inputs()) {
            g.writeString(input);
        }
        g.writeEndArray();
        if (op.output() != null) {
            g.writeStringField("output", op.output());
        }
        shape(g, op.shape());
        g.writeStringField("dtype", op.dtype());
        g.writeStringField("device", op.device());
        g.writeNumberField("duration_ns", op.durationNs());
        g.writeNumberField("timestamp_ns", op.timestampNs());
        if (op.storageBytes() != null) {
            g.writeNumberField("storage_bytes", op.storageBytes());
        }
        g.writeNumberField("input_storage_bytes", op.inputStorageBytes());
        g.writeEndObject();
    }

    private static void tensor(JsonGenerator g, TensorEvent t) throws IOException {
        g.writeStartObject();
        g.writeStringField("span_id", t.spanId());
        g.writeStringField("tensor_id", t.tensorId());
        shape(g, t.shape());
        g.writeStringField("dtype", t.dtype());
        g.writeStringField("device", t.device());
        g.writeBooleanField("requires_grad", t.requiresGrad());
        if (t.storageBytes() != null) {
            g.writeNumberField("storage_bytes", t.storageBytes());
        }
        g.writeStringField("category", wire(t.category()));
        g.writeEndObject();
    }

    private static void memory(JsonGenerator g, MemoryEvent m) throws IOException {
        g.writeStartObject();
        g.writeNumberField("timestamp_ns", m.timestampNs());
        g.writeStringField("tensor_id", m.tensorId());
        g.writeStringField("span_id", m.spanId());
        if (m.opName() != null) {
            g.writeStringField("op_name", m.opName());
        }
        g.writeStringField("device", m.device());
        g.writeNumberField("bytes", m.bytes());
        g.writeStringField("action", wire(m.action()));
        shape(g, m.shape());
        g.writeStringField("dtype", m.dtype());
        g.writeStringField("category", wire(m.category()));
        g.writeEndObject();
    }

    /** The wire spelling of the trace enums (spec 1.4): the constant's name in lower case. */
    private static String wire(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }

    private static void shape(JsonGenerator g, Shape shape) throws IOException {
        g.writeArrayFieldStart("shape");
        for (int i = 0; i < shape.rank(); i++) {
            g.writeNumber(shape.dim(i));
        }
        g.writeEndArray();
    }
}
