package io.tracegraph.json;

import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import io.tracegraph.domain.graph.DeviceTime;
import io.tracegraph.domain.graph.GraphEdge;
import io.tracegraph.domain.graph.GraphNode;
import io.tracegraph.domain.memory.CategoryBytes;
import io.tracegraph.domain.memory.TimelinePoint;
import io.tracegraph.domain.trace.MemoryCategory;
import io.tracegraph.domain.trace.Shape;

/**
 * Writes the three elements that make up almost all of a big graph (nodes, edges, timeline
 * points) straight into bytes, in exactly the layout {@link GraphJsonWriter} produces through
 * Jackson. It only handles strings that need no escaping (printable ASCII without quotes or
 * backslashes): for any other element it writes nothing and returns {@code false}, and the caller
 * uses the Jackson writers. {@code ParallelGraphWriterTest} holds the two to the same bytes.
 */
final class PlainElementWriter {
    private byte[] buf = new byte[1 << 16];
    private int len;

    /** Moves what was written so far to {@code out}. */
    void writeTo(ByteArrayBuilder out) {
        out.write(buf, 0, len);
        len = 0;
    }

    /** What was written so far, as an array of its own; the writer starts again empty (its buffer kept). */
    byte[] take() {
        byte[] bytes = java.util.Arrays.copyOf(buf, len);
        len = 0;
        return bytes;
    }

    /** Forgets what was written (after a failure half-way through a chunk, say). */
    void clear() {
        len = 0;
    }

    /** Before a list element: a comma unless it is the first, then a new line at the level. */
    void elementSeparator(boolean first, int level) {
        if (!first) {
            raw(',');
        }
        newline(level);
    }

    boolean node(GraphNode n, int level) {
        if (!plain(n.id()) || (n.parentId() != null && !plain(n.parentId())) || !plain(n.name())
                || (n.dtype() != null && !plain(n.dtype())) || (n.device() != null && !plain(n.device()))) {
            return false;
        }
        for (DeviceTime t : n.deviceTimes()) {
            if (!plain(t.device())) {
                return false;
            }
        }
        raw('{');
        stringField(level + 1, "\"id\": ", n.id(), true);
        if (n.parentId() == null) {
            fieldName(level + 1, "\"parent_id\": ");
            ascii("null");
        } else {
            stringField(level + 1, "\"parent_id\": ", n.parentId(), false);
        }
        stringField(level + 1, "\"name\": ", n.name(), false);
        stringField(level + 1, "\"kind\": ", GraphJsonWriter.wire(n.kind()), false);
        numberField(level + 1, "\"start_ns\": ", n.startNs());
        numberField(level + 1, "\"self_time_ns\": ", n.selfTimeNs());
        numberField(level + 1, "\"total_time_ns\": ", n.totalTimeNs());
        if (n.shape() != null) {
            fieldName(level + 1, "\"shape\": ");
            shape(n.shape(), level + 1);
        }
        if (n.dtype() != null) {
            stringField(level + 1, "\"dtype\": ", n.dtype(), false);
        }
        if (n.device() != null) {
            stringField(level + 1, "\"device\": ", n.device(), false);
        }
        numberField(level + 1, "\"bytes\": ", n.bytes());
        numberField(level + 1, "\"peak_bytes\": ", n.peakBytes());
        numberField(level + 1, "\"residual_bytes\": ", n.residualBytes());
        if (n.storageBytes() != null) {
            numberField(level + 1, "\"storage_bytes\": ", n.storageBytes());
        }
        if (!n.deviceTimes().isEmpty()) {
            fieldName(level + 1, "\"device_times\": ");
            raw('[');
            boolean first = true;
            for (DeviceTime t : n.deviceTimes()) {
                if (!first) {
                    raw(',');
                }
                first = false;
                newline(level + 2);
                raw('{');
                stringField(level + 3, "\"device\": ", t.device(), true);
                numberField(level + 3, "\"self_time_ns\": ", t.selfTimeNs());
                numberField(level + 3, "\"total_time_ns\": ", t.totalTimeNs());
                newline(level + 2);
                raw('}');
            }
            newline(level + 1);
            raw(']');
        }
        newline(level);
        raw('}');
        return true;
    }

    boolean edge(GraphEdge e, int level) {
        if (!plain(e.from()) || !plain(e.to()) || (e.label() != null && !plain(e.label()))) {
            return false;
        }
        raw('{');
        stringField(level + 1, "\"from\": ", e.from(), true);
        stringField(level + 1, "\"to\": ", e.to(), false);
        stringField(level + 1, "\"kind\": ", GraphJsonWriter.wire(e.kind()), false);
        numberField(level + 1, "\"duration_ns\": ", e.durationNs());
        if (e.label() != null) {
            stringField(level + 1, "\"label\": ", e.label(), false);
        }
        newline(level);
        raw('}');
        return true;
    }

    boolean timelinePoint(TimelinePoint p, int level) {
        if (!plain(p.device())) {
            return false;
        }
        raw('{');
        numberField(level + 1, "\"timestamp_ns\": ", p.timestampNs(), true);
        stringField(level + 1, "\"device\": ", p.device(), false);
        numberField(level + 1, "\"live_bytes\": ", p.liveBytes());
        numberField(level + 1, "\"heap_bytes\": ", p.heapBytes());
        numberField(level + 1, "\"free_bytes\": ", p.freeBytes());
        fieldName(level + 1, "\"by_category\": ");
        CategoryBytes categories = p.byCategory();
        boolean first = true;
        raw('{');
        for (MemoryCategory category : MemoryCategory.ordered()) {
            if (categories.has(category)) {
                numberField(level + 2, "\"" + GraphJsonWriter.wire(category) + "\": ", categories.get(category), first);
                first = false;
            }
        }
        if (!first) {
            newline(level + 1);
        }
        raw('}');
        newline(level);
        raw('}');
        return true;
    }

    private void shape(Shape shape, int level) {
        raw('[');
        if (shape.rank() == 0) {
            raw(']');
            return;
        }
        for (int i = 0; i < shape.rank(); i++) {
            if (i > 0) {
                raw(',');
            }
            newline(level + 1);
            number(shape.dim(i));
        }
        newline(level);
        raw(']');
    }

    /** Printable ASCII without the two characters JSON escapes. */
    private static boolean plain(String s) {
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c >= 0x7F || c == '"' || c == '\\') {
                return false;
            }
        }
        return true;
    }

    private void stringField(int level, String name, String value, boolean first) {
        fieldName(level, name, first);
        raw('"');
        ascii(value);
        raw('"');
    }

    private void numberField(int level, String name, long value) {
        numberField(level, name, value, false);
    }

    private void numberField(int level, String name, long value, boolean first) {
        fieldName(level, name, first);
        number(value);
    }

    private void fieldName(int level, String name) {
        fieldName(level, name, false);
    }

    private void fieldName(int level, String name, boolean first) {
        if (!first) {
            raw(',');
        }
        newline(level);
        ascii(name);
    }

    private void newline(int level) {
        ensure(1 + 2 * level);
        buf[len++] = '\n';
        for (int i = 0; i < 2 * level; i++) {
            buf[len++] = ' ';
        }
    }

    /** The decimal digits of {@code value}, as {@link Long#toString(long)} spells them, without a String. */
    private void number(long value) {
        if (value == Long.MIN_VALUE) {
            ascii(Long.toString(value));
            return;
        }
        ensure(20);
        if (value < 0) {
            buf[len++] = '-';
            value = -value;
        }
        int end = len + digits(value);
        int at = end;
        do {
            buf[--at] = (byte) ('0' + (int) (value % 10));
            value /= 10;
        } while (value != 0);
        len = end;
    }

    private static int digits(long value) {
        int n = 1;
        for (long v = value; v >= 10; v /= 10) {
            n++;
        }
        return n;
    }

    @SuppressWarnings("deprecation") // the fastest copy of ASCII text into bytes; plain() ensured ASCII
    private void ascii(String s) {
        int n = s.length();
        ensure(n);
        s.getBytes(0, n, buf, len);
        len += n;
    }

    private void raw(char c) {
        ensure(1);
        buf[len++] = (byte) c;
    }

    private void ensure(int extra) {
        if (len + extra > buf.length) {
            buf = java.util.Arrays.copyOf(buf, Math.max(buf.length * 2, len + extra));
        }
    }
}
