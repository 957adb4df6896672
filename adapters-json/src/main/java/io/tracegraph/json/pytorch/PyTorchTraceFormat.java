package io.tracegraph.json.pytorch;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Locale;
import java.util.zip.GZIPInputStream;

/**
 * How a PyTorch profiler trace is told by its first bytes: a JSON object with a {@code traceEvents}
 * array (wherever that member comes among the first {@link #HEAD_BYTES}), or a bare JSON array
 * whose first element is an event object (it has {@code ph}). Specific on purpose: candle-graph's
 * traces, malformed or not, are never taken for one.
 */
public final class PyTorchTraceFormat {
    /** How many plain bytes of a trace are looked at. */
    public static final int HEAD_BYTES = 64 * 1024;
    private static final JsonFactory FACTORY = new JsonFactory();

    private PyTorchTraceFormat() {
    }

    /** Whether a trace whose plain stream starts with {@code head} (cut anywhere) is a PyTorch trace. */
    public static boolean recognises(byte[] head) {
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
    public static boolean claimsName(String source) {
        String name = source.toLowerCase(Locale.ROOT);
        return name.endsWith(".pt.trace.json") || name.endsWith(".pt.trace.json.gz");
    }

    /**
     * Reads the first {@link #HEAD_BYTES} plain bytes of a stream (gunzipped when it starts with
     * gzip's magic bytes), reading at most {@code maxRaw} raw bytes; as many as could be had when
     * the stream fails. The stream is left wherever that reading left it.
     */
    public static byte[] head(InputStream raw, int maxRaw) {
        InputStream bounded = new java.io.FilterInputStream(raw) {
            private int left = maxRaw;

            @Override
            public int read() throws IOException {
                if (left <= 0) {
                    return -1;
                }
                int b = in.read();
                if (b >= 0) {
                    left--;
                }
                return b;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (left <= 0) {
                    return -1;
                }
                int n = in.read(b, off, Math.min(len, left));
                if (n > 0) {
                    left -= n;
                }
                return n;
            }

            @Override
            public void close() {
                // not ours
            }
        };
        java.io.PushbackInputStream peek = new java.io.PushbackInputStream(bounded, 2);
        try {
            int b0 = peek.read();
            int b1 = b0 < 0 ? -1 : peek.read();
            if (b1 >= 0) {
                peek.unread(b1);
            }
            if (b0 >= 0) {
                peek.unread(b0);
            }
            InputStream plain = b0 == 0x1f && b1 == 0x8b ? new GZIPInputStream(peek, 1 << 12) : peek;
            byte[] buf = new byte[HEAD_BYTES];
            int n = 0;
            for (int r; n < buf.length && (r = plain.read(buf, n, buf.length - n)) > 0; ) {
                n += r;
            }
            return n == buf.length ? buf : Arrays.copyOf(buf, n);
        } catch (IOException | RuntimeException e) {
            return new byte[0];
        }
    }

    private static boolean isSpace(byte b) {
        return b == ' ' || b == '\t' || b == '\r' || b == '\n';
    }

    /** A {@code "traceEvents"} member at the top level whose value starts an array. */
    private static boolean hasTraceEventsArray(byte[] head, int from) {
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
