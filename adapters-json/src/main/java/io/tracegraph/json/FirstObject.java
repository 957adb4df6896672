package io.tracegraph.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * The top-level members of the first JSON object in a trace's first bytes, as far as they go:
 * what the recognisers of candle-graph's JSON forms look at. The bytes may be cut anywhere; members
 * after the cut, or after malformed JSON, are not seen, and neither are members after {@code kind}.
 *
 * @param members the members seen, each with the token its value starts with (a string, an object,
 *                an array...), in no particular order
 * @param object  whether the bytes start (after a byte order mark and white space) with an object
 */
record FirstObject(Map<String, JsonToken> members, boolean object) {
    private static final JsonFactory FACTORY = new JsonFactory();
    private static final FirstObject NONE = new FirstObject(Map.of(), false);

    static FirstObject of(byte[] head) {
        Map<String, JsonToken> members = new HashMap<>();
        try (JsonParser p = FACTORY.createParser(head)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return NONE;
            }
            for (JsonToken token = p.nextToken(); token == JsonToken.FIELD_NAME; token = p.nextToken()) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                if (value == null) {
                    break;
                }
                members.putIfAbsent(name, value);
                if (name.equals("kind")) {
                    // What both candle-graph forms ask is settled (JSONL: a string kind; the
                    // document: no kind), and a trace/9+ meta line goes on with a manifest of
                    // megabytes: its first 64 KiB were tokenised for nothing, which alone made
                    // Jackson's token methods hot enough for C2.
                    break;
                }
                p.skipChildren();
            }
        } catch (IOException e) {
            // Cut short or malformed: what was seen before is all there is.
        }
        return new FirstObject(Map.copyOf(members), true);
    }

    /** Whether member {@code name} was seen with a value starting with {@code token}. */
    boolean has(String name, JsonToken token) {
        return members.get(name) == token;
    }
}
