package io.tracegraph.json;

import com.fasterxml.jackson.core.JsonToken;
import io.tracegraph.domain.port.TraceFormat;
import io.tracegraph.domain.port.TraceReader;
import java.util.List;

/**
 * candle-graph's two trace forms, as input discovery recognises them: JSONL (each line a record
 * with its {@code kind}) and the whole-document JSON form (one object with {@code schema},
 * {@code run} and the record lists). The content tells them apart; a name ending in {@code .json}
 * or {@code .json.gz} chooses the document form only where it cannot (empty, binary or malformed
 * content, which the reader then rejects as it always did).
 */
public final class CandleTraceFormats {
    /** The record lists of the document form. */
    private static final List<String> DOCUMENT_LISTS = List.of("spans", "ops", "tensors", "memory", "device_memory",
            "gradients", "edges");

    private CandleTraceFormats() {
    }

    /** Both forms, JSONL first (the form of every name that does not end in {@code .json[.gz]}). */
    public static List<TraceFormat> all() {
        return List.of(jsonl(), document());
    }

    /** candle-graph JSONL: the first line is an object with a string {@code kind}. */
    public static TraceFormat jsonl() {
        return new Form("candle-graph JSONL", new JacksonTraceReader(JacksonTraceReader.Form.JSONL)) {
            @Override
            public boolean recognises(byte[] head) {
                return FirstObject.of(head).has("kind", JsonToken.VALUE_STRING);
            }

            @Override
            public boolean claimsName(String source) {
                return !isDocumentName(source);
            }
        };
    }

    /**
     * candle-graph's whole-document JSON: an object without {@code kind} whose {@code run} is an
     * object or one of whose record lists is an array.
     */
    public static TraceFormat document() {
        return new Form("candle-graph JSON document", new JacksonTraceReader(JacksonTraceReader.Form.DOCUMENT)) {
            @Override
            public boolean recognises(byte[] head) {
                FirstObject first = FirstObject.of(head);
                if (!first.object() || first.members().containsKey("kind")) {
                    return false;
                }
                return first.has("run", JsonToken.START_OBJECT)
                        || DOCUMENT_LISTS.stream().anyMatch(list -> first.has(list, JsonToken.START_ARRAY));
            }

            @Override
            public boolean claimsName(String source) {
                return isDocumentName(source);
            }
        };
    }

    private static boolean isDocumentName(String source) {
        return JacksonTraceReader.isDocumentForm(source);
    }

    /** A form with its name and reader; what it recognises is its own. */
    private abstract static class Form implements TraceFormat {
        private final String name;
        private final TraceReader reader;

        Form(String name, TraceReader reader) {
            this.name = name;
            this.reader = reader;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public TraceReader reader() {
            return reader;
        }

        @Override
        public String toString() {
            return name;
        }
    }
}
