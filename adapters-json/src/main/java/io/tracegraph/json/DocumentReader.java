package io.tracegraph.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import io.tracegraph.domain.trace.MalformedTraceException;
import io.tracegraph.domain.trace.RunMeta;
import io.tracegraph.domain.trace.SpanRecord;
import io.tracegraph.domain.trace.TraceAssembler;
import io.tracegraph.domain.trace.TraceDocument;
import io.tracegraph.domain.trace.TraceProblem;
import io.tracegraph.domain.trace.TraceSchemas;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads the whole-document JSON form of spec 2.2: one object with {@code schema}, {@code run} and
 * the record lists (each defaulting to empty). Records decode with the same member rules as in
 * JSONL; op and tensor storage bytes are resolved as at import; spans keep their given order.
 * From trace/7 on the document also has {@code device_intervals}, {@code tensor_stats} (trace/10)
 * and the required {@code terminal} object, as candle-graph's {@code TraceDocument} serializes.
 * The schema may stand anywhere, so the document is read twice: once for its schema, once with the
 * members of that revision.
 */
final class DocumentReader {
    private final JsonFactory factory;
    private final RecordDecoder decoder;

    DocumentReader(JsonFactory factory, RecordDecoder decoder) {
        this.factory = factory;
        this.decoder = decoder;
    }

    TraceDocument read(String source, InputStream in) throws IOException {
        byte[] bytes = in.readAllBytes();
        decoder.at(revisionOf(bytes));
        JsonParser p = factory.createParser(bytes);
        try {
            return document(source, p);
        } catch (RecordDecoder.DecodeException e) {
            throw new MalformedTraceException(new TraceProblem(source, line(p), e.member(), e.getMessage()));
        } catch (JsonProcessingException e) {
            // Constraint violations (nesting depth, number length) carry no location of their own.
            long line = e.getLocation() != null ? Math.max(1, e.getLocation().getLineNr()) : line(p);
            throw new MalformedTraceException(new TraceProblem(source, line, null,
                    "invalid JSON: " + RecordDecoder.jacksonMessage(e)));
        }
    }

    /**
     * The revision named by the document's top-level {@code schema} (a first pass that skips
     * everything else), trace/6 rules when it names none that is read: the second pass then reports
     * the document's problems as for trace/6, and the assembler refuses the schema.
     */
    private int revisionOf(byte[] bytes) {
        try (JsonParser p = factory.createParser(bytes)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return TraceSchemas.OLDEST;
            }
            String name;
            while ((name = p.nextFieldName()) != null) {
                JsonToken value = p.nextToken();
                if (name.equals("schema") && value == JsonToken.VALUE_STRING) {
                    int r = TraceSchemas.revision(p.getText());
                    return r > 0 ? r : TraceSchemas.OLDEST;
                }
                p.skipChildren();
            }
        } catch (IOException | RuntimeException e) {
            // The second pass finds and words the problem.
        }
        return TraceSchemas.OLDEST;
    }

    private static long line(JsonParser p) {
        return Math.max(1, p.currentLocation().getLineNr());
    }

    private TraceDocument document(String source, JsonParser p) throws IOException {
        if (p.nextToken() != JsonToken.START_OBJECT) {
            throw new RecordDecoder.DecodeException(null, "expected a JSON object (a whole trace document)");
        }
        String schema = null;
        long schemaLine = 1;
        RunMeta run = null;
        List<SpanRecord> spans = new ArrayList<>();
        // Records wait for the end: the assembler takes the meta first, and `run` may come last.
        List<Object> records = new ArrayList<>();
        Object terminal = null;
        long terminalLine = 0;
        Set<String> seen = new HashSet<>();
        String field;
        while ((field = p.nextFieldName()) != null) {
            if (!seen.add(field)) {
                throw new RecordDecoder.DecodeException(field, "duplicate member `" + field + "`");
            }
            JsonToken value = p.nextToken();
            switch (field) {
                case "schema":
                    if (value != JsonToken.VALUE_STRING) {
                        throw new RecordDecoder.DecodeException(field, "member `schema` must be a string");
                    }
                    schema = p.getText();
                    schemaLine = line(p);
                    break;
                case "run":
                    expectObject(p, field);
                    run = decoder.documentRun(p);
                    break;
                case "spans":
                    for (expectArray(p, field); p.nextToken() == JsonToken.START_OBJECT; ) {
                        spans.add(decoder.documentSpan(p));
                    }
                    expectArrayEnd(p, field);
                    break;
                case "terminal":
                    if (revision() < 7) {
                        p.skipChildren();
                        break;
                    }
                    expectObject(p, field);
                    terminalLine = line(p);
                    terminal = decoder.decode(p, "terminal", false);
                    break;
                case "tensor_stats": case "device_intervals":
                    if (revision() < (field.equals("tensor_stats") ? 9 : 7)) {
                        p.skipChildren();
                        break;
                    }
                    // fall through: a record list like the others
                case "ops": case "tensors": case "memory": case "device_memory": case "gradients": case "edges":
                    String kind = recordKind(field);
                    for (expectArray(p, field); p.nextToken() == JsonToken.START_OBJECT; ) {
                        records.add(decoder.decode(p, kind, false));
                    }
                    expectArrayEnd(p, field);
                    break;
                default:
                    p.skipChildren();
            }
        }
        if (p.nextToken() != null) {
            throw new RecordDecoder.DecodeException(null, "trailing characters after the document");
        }
        if (schema == null || run == null) {
            throw new RecordDecoder.DecodeException(schema == null ? "schema" : "run",
                    "document is missing required member `" + (schema == null ? "schema" : "run") + "`");
        }
        TraceAssembler assembler = new TraceAssembler(source);
        assembler.meta(schemaLine, schema, run);
        for (Object record : records) {
            RecordDecoder.feed(assembler, record, schemaLine);
        }
        if (terminal != null) {
            RecordDecoder.feed(assembler, terminal, terminalLine);
        }
        TraceDocument assembled = assembler.finish();
        return new TraceDocument(schema, run, spans, assembled.ops(), assembled.tensors(), assembled.memory(),
                assembled.deviceMemory(), assembled.gradients(), assembled.edges(), assembled.dataEdges(),
                assembled.deviceIntervals(), assembled.tensorStats(), assembled.outcome());
    }

    private int revision() {
        return decoder.revision();
    }

    private static String recordKind(String listName) {
        switch (listName) {
            case "ops": return "op";
            case "tensors": return "tensor";
            case "gradients": return "gradient";
            case "edges": return "edge";
            case "device_intervals": return "device_interval";
            default: return listName;
        }
    }

    private static void expectObject(JsonParser p, String field) {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            throw new RecordDecoder.DecodeException(field, "member `" + field + "` must be an object");
        }
    }

    private static void expectArray(JsonParser p, String field) {
        if (p.currentToken() != JsonToken.START_ARRAY) {
            throw new RecordDecoder.DecodeException(field, "member `" + field + "` must be an array of objects");
        }
    }

    private static void expectArrayEnd(JsonParser p, String field) {
        if (p.currentToken() != JsonToken.END_ARRAY) {
            throw new RecordDecoder.DecodeException(field, "member `" + field + "` must be an array of objects");
        }
    }
}
