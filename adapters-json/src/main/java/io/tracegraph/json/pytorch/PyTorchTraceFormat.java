package io.tracegraph.json.pytorch;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.tracegraph.domain.port.TraceFormat;
import io.tracegraph.domain.port.TraceReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * PyTorch profiler traces as input discovery tells them by their first bytes: a JSON object with a
 * {@code traceEvents} array (wherever that member comes in the head), or a bare JSON array whose
 * first element is an event object (it has {@code ph}). Specific on purpose: candle-graph's traces,
 * malformed or not, are never taken for one, and keep their messages.
 */
public final class PyTorchTraceFormat implements TraceFormat {
    private static final JsonFactory FACTORY = new JsonFactory();
    private static final byte[] TRACE_EVENTS = "\"traceEvents\"".getBytes(StandardCharsets.US_ASCII);

    private final TraceReader reader;

    public PyTorchTraceFormat() {
        this(new PyTorchTraceReader());
    }

    public PyTorchTraceFormat(TraceReader reader) {
        this.reader = reader;
    }

    @Override
    public String name() {
        return "PyTorch profiler trace";
    }

    @Override
    public TraceReader reader() {
        return reader;
    }

    @Override
    public String toString() {
        return name();
    }

    /** Whether a trace whose plain stream starts with {@code head} (cut anywhere) is a PyTorch trace. */
    @Override
    public boolean recognises(byte[] head) {
        int i = 0;
        if (head.length >= 3 && (head[0] & 0xff) == 0xEF && (head[1] & 0xff) == 0xBB && (head[2] & 0xff) == 0xBF) {
            i = 3;
        }
        while (i < head.length && isSpace(head[i])) {
            i++;
        }
        if (i >= head.length) {
            return false;
        }
        if (head[i] == '[') {
            return firstElementIsEvent(head, i);
        }
        return head[i] == '{' && hasTraceEventsArray(head, i);
    }

    /** The profiler's own file names: {@code *.pt.trace.json}, gzipped or not. */
    @Override
    public boolean claimsName(String source) {
        String name = source.toLowerCase(Locale.ROOT);
        return name.endsWith(".pt.trace.json") || name.endsWith(".pt.trace.json.gz");
    }

    private static boolean isSpace(byte b) {
        return b == ' ' || b == '\t' || b == '\r' || b == '\n';
    }

    /** A {@code "traceEvents"} member at the top level whose value starts an array. */
    private static boolean hasTraceEventsArray(byte[] head, int from) {
        if (!mayName(head, from, TRACE_EVENTS)) {
            return false;
        }
        try (JsonParser p = FACTORY.createParser(head, from, head.length - from)) {
            p.nextToken();
            for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                if (value == null) {
                    return false;
                }
                if (name.equals("traceEvents")) {
                    return value == JsonToken.START_ARRAY;
                }
                p.skipChildren();
            }
        } catch (IOException e) {
            // cut short or malformed: not seen
        }
        return false;
    }

    /**
     * Whether a member of the JSON in {@code head} from {@code from} may be named by
     * {@code quoted} (a name in quotes): it is there as written, or a backslash is (a name may be
     * spelled with escapes), or a NUL byte (the JSON may be in UTF-16 or UTF-32, which Jackson
     * reads). Without any of them no member has that name, and the JSON is not tokenised (a
     * candle-graph trace/9+ meta line goes on with a manifest of megabytes).
     */
    private static boolean mayName(byte[] head, int from, byte[] quoted) {
        for (int i = from, last = head.length - quoted.length; i < head.length; i++) {
            if (head[i] == '\\' || head[i] == 0) {
                return true;
            }
            if (head[i] == '"' && i <= last && Arrays.equals(head, i, i + quoted.length, quoted, 0, quoted.length)) {
                return true;
            }
        }
        return false;
    }

    /** The array's first element is an object with a {@code ph} member. */
    private static boolean firstElementIsEvent(byte[] head, int from) {
        try (JsonParser p = FACTORY.createParser(head, from, head.length - from)) {
            p.nextToken();
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return false;
            }
            for (JsonToken t = p.nextToken(); t == JsonToken.FIELD_NAME; t = p.nextToken()) {
                if (p.currentName().equals("ph")) {
                    return true;
                }
                p.nextToken();
                p.skipChildren();
            }
        } catch (IOException e) {
            // cut short or malformed: not seen
        }
        return false;
    }
}
