package io.tracegraph.json;

import com.fasterxml.jackson.core.io.NumberOutput;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import io.tracegraph.domain.graph.DeviceTime;
import io.tracegraph.domain.graph.EdgeList;
import io.tracegraph.domain.graph.GraphEdge;
import io.tracegraph.domain.graph.GraphEdgeKind;
import io.tracegraph.domain.graph.GradientRecord;
import io.tracegraph.domain.graph.GraphNode;
import io.tracegraph.domain.graph.TensorRecord;
import io.tracegraph.domain.memory.CategoryBytes;
import io.tracegraph.domain.memory.LiveAllocation;
import io.tracegraph.domain.memory.MemoryTimeline;
import io.tracegraph.domain.memory.TimelinePoint;
import io.tracegraph.domain.trace.MemoryCategory;
import io.tracegraph.domain.trace.Shape;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Writes the elements that make up almost all of a big graph (nodes, edges, timeline points,
 * the peak breakdown's allocations, tensors) straight into bytes, in exactly the layout
 * {@link GraphJsonWriter} produces through Jackson. It only handles strings that need no escaping
 * (printable ASCII without quotes or backslashes): for any other element it writes nothing and
 * returns {@code false}, and the caller uses the Jackson writers. {@code ParallelGraphWriterTest}
 * holds the two to the same bytes.
 *
 * <p>Each element first makes room for the most it can take (its strings' lengths plus a bound
 * per member), and is then written without a capacity check per byte.
 */
final class PlainElementWriter {
    private byte[] buf = new byte[1 << 16];
    private int len;
    /**
     * The last string found plain in each role (a node's parent, name, dtype, device; an edge's
     * from and label; ...): consecutive elements repeat them (edges are sorted by {@code from},
     * an op's nodes follow one another), and the same string found again is not scanned again.
     */
    private final String[] known = new String[ROLES];
    private static final int PARENT = 0;
    private static final int NAME_ROLE = 1;
    private static final int DTYPE_ROLE = 2;
    private static final int DEVICE_ROLE = 3;
    private static final int FROM_ROLE = 4;
    private static final int LABEL_ROLE = 5;
    private static final int SPAN_ROLE = 6;
    private static final int OP_ROLE = 7;
    private static final int ROOT_ROLE = 8;
    private static final int ROLES = 9;

    /** Moves what was written so far to {@code out}. */
    void writeTo(ByteArrayBuilder out) {
        out.write(buf, 0, len);
        len = 0;
    }

    /**
     * Starts again empty in the given buffer (grown as needed); the one written so far is left to
     * whoever took it with {@link #buffer()}, so that a chunk's bytes are handed over, not copied.
     */
    void start(byte[] buffer) {
        buf = buffer;
        len = 0;
    }

    /** The buffer written so far (its first {@link #length()} bytes). */
    byte[] buffer() {
        return buf;
    }

    int length() {
        return len;
    }

    /** Before a list element: a comma unless it is the first, then a new line at the level. */
    void elementSeparator(boolean first, int level) {
        ensure(2 + 2 * level + 1);
        if (!first) {
            raw(',');
        }
        newline(level);
    }

    /**
     * A member name as it stands after the previous member at one nesting level: the comma (unless
     * first), the new line, the indent and {@code "name": }, made once per level instead of byte
     * by byte for every member written.
     */
    private static final class Name {
        private static final int LEVELS = 12;
        private final byte[][] first = new byte[LEVELS][];
        private final byte[][] later = new byte[LEVELS][];

        Name(String name) {
            for (int level = 0; level < LEVELS; level++) {
                String text = "\n" + "  ".repeat(level) + "\"" + name + "\": ";
                first[level] = text.getBytes(StandardCharsets.US_ASCII);
                later[level] = ("," + text).getBytes(StandardCharsets.US_ASCII);
            }
        }

        byte[] at(int level, boolean isFirst) {
            if (level >= LEVELS) {
                String text = "\n" + "  ".repeat(level) + new String(first[0], 1, first[0].length - 1,
                        StandardCharsets.US_ASCII);
                return ((isFirst ? "" : ",") + text).getBytes(StandardCharsets.US_ASCII);
            }
            return isFirst ? first[level] : later[level];
        }
    }

    private static final Name ID = new Name("id");
    private static final Name PARENT_ID = new Name("parent_id");
    private static final Name NAME = new Name("name");
    private static final Name KIND = new Name("kind");
    private static final Name START_NS = new Name("start_ns");
    private static final Name SELF_TIME_NS = new Name("self_time_ns");
    private static final Name TOTAL_TIME_NS = new Name("total_time_ns");
    private static final Name SHAPE = new Name("shape");
    private static final Name DTYPE = new Name("dtype");
    private static final Name DEVICE = new Name("device");
    private static final Name BYTES = new Name("bytes");
    private static final Name PEAK_BYTES = new Name("peak_bytes");
    private static final Name RESIDUAL_BYTES = new Name("residual_bytes");
    private static final Name STORAGE_BYTES = new Name("storage_bytes");
    private static final Name DEVICE_TIMES = new Name("device_times");
    private static final Name FROM = new Name("from");
    private static final Name TO = new Name("to");
    private static final Name DURATION_NS = new Name("duration_ns");
    private static final Name LABEL = new Name("label");
    private static final Name TIMESTAMP_NS = new Name("timestamp_ns");
    private static final Name LIVE_BYTES = new Name("live_bytes");
    private static final Name HEAP_BYTES = new Name("heap_bytes");
    private static final Name FREE_BYTES = new Name("free_bytes");
    private static final Name BY_CATEGORY = new Name("by_category");
    private static final Name TENSOR_ID = new Name("tensor_id");
    private static final Name SPAN_ID = new Name("span_id");
    private static final Name OP_NAME = new Name("op_name");
    private static final Name CATEGORY = new Name("category");
    private static final Name STORAGE_ID = new Name("storage_id");
    private static final Name REQUIRES_GRAD = new Name("requires_grad");
    private static final Name ROOT = new Name("root");
    private static final Name KEY = new Name("key");
    private static final Name STATE = new Name("state");
    private static final Name NORM = new Name("norm");
    private static final Name[] CATEGORIES = new Name[MemoryCategory.ordered().length];
    private static final byte[][] NEWLINES = new byte[16][];
    private static final byte[] NULL = "null".getBytes(StandardCharsets.US_ASCII);
    /** The wire spellings of the edge kinds, by ordinal. */
    private static final String[] EDGE_KINDS = new String[GraphEdgeKind.values().length];
    private static final byte[] TRUE = "true".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] FALSE = "false".getBytes(StandardCharsets.US_ASCII);
    /** The two decimal digits of 0..99. */
    private static final byte[] DIGIT_PAIRS = new byte[200];

    static {
        for (MemoryCategory category : MemoryCategory.ordered()) {
            CATEGORIES[category.ordinal()] = new Name(GraphJsonWriter.wire(category));
        }
        for (GraphEdgeKind kind : GraphEdgeKind.values()) {
            EDGE_KINDS[kind.ordinal()] = GraphJsonWriter.wire(kind);
        }
        for (int level = 0; level < NEWLINES.length; level++) {
            NEWLINES[level] = ("\n" + "  ".repeat(level)).getBytes(StandardCharsets.US_ASCII);
        }
        for (int i = 0; i < 100; i++) {
            DIGIT_PAIRS[2 * i] = (byte) ('0' + i / 10);
            DIGIT_PAIRS[2 * i + 1] = (byte) ('0' + i % 10);
        }
    }

    boolean node(GraphNode n, int level) {
        if (!plain(n.id()) || (n.parentId() != null && !plain(n.parentId(), PARENT)) || !plain(n.name(), NAME_ROLE)
                || (n.dtype() != null && !plain(n.dtype(), DTYPE_ROLE))
                || (n.device() != null && !plain(n.device(), DEVICE_ROLE))) {
            return false;
        }
        int room = ROOM + member(level) + 16 * member(level + 1) + n.id().length() + n.name().length()
                + length(n.parentId()) + length(n.dtype()) + length(n.device());
        if (n.shape() != null) {
            room += n.shape().rank() * member(level + 2);
        }
        List<DeviceTime> times = n.deviceTimes();
        if (!times.isEmpty()) {
            int more = deviceTimesRoom(times, level);
            if (more < 0) {
                return false;
            }
            room += more;
        }
        ensure(room);
        int in = level + 1;
        raw('{');
        stringField(ID.at(in, true), n.id());
        if (n.parentId() == null) {
            bytes(PARENT_ID.at(in, false));
            bytes(NULL);
        } else {
            stringField(PARENT_ID.at(in, false), n.parentId());
        }
        stringField(NAME.at(in, false), n.name());
        stringField(KIND.at(in, false), GraphJsonWriter.wire(n.kind()));
        numberField(START_NS.at(in, false), n.startNs());
        numberField(SELF_TIME_NS.at(in, false), n.selfTimeNs());
        numberField(TOTAL_TIME_NS.at(in, false), n.totalTimeNs());
        if (n.shape() != null) {
            bytes(SHAPE.at(in, false));
            shape(n.shape(), in);
        }
        if (n.dtype() != null) {
            stringField(DTYPE.at(in, false), n.dtype());
        }
        if (n.device() != null) {
            stringField(DEVICE.at(in, false), n.device());
        }
        numberField(BYTES.at(in, false), n.bytes());
        numberField(PEAK_BYTES.at(in, false), n.peakBytes());
        numberField(RESIDUAL_BYTES.at(in, false), n.residualBytes());
        if (n.storageBytes() != null) {
            numberField(STORAGE_BYTES.at(in, false), n.storageBytes());
        }
        if (!times.isEmpty()) {
            deviceTimes(times, level);
        }
        newline(level);
        raw('}');
        return true;
    }

    // A node's device times are written by methods of their own, not in node(): a million op nodes
    // have none, and with the loops inlined node() compiled to nearly twice the code (with a type
    // check more at each list call, as the lists come in two classes) for every node of a trace/7+
    // graph, where a trace/6 graph's nodes met none of it.

    /** The room a node's device times take, or -1 when a device name is not plain. */
    private int deviceTimesRoom(List<DeviceTime> times, int level) {
        int room = 0;
        for (int k = 0; k < times.size(); k++) {
            String device = times.get(k).device();
            if (!plain(device)) {
                return -1;
            }
            room += device.length() + 5 * member(level + 3);
        }
        return room;
    }

    /** The {@code device_times} member of a node at {@code level} (room ensured). */
    private void deviceTimes(List<DeviceTime> times, int level) {
        int in = level + 1;
        bytes(DEVICE_TIMES.at(in, false));
        raw('[');
        for (int k = 0; k < times.size(); k++) {
            DeviceTime t = times.get(k);
            if (k > 0) {
                raw(',');
            }
            newline(level + 2);
            raw('{');
            stringField(DEVICE.at(level + 3, true), t.device());
            numberField(SELF_TIME_NS.at(level + 3, false), t.selfTimeNs());
            numberField(TOTAL_TIME_NS.at(level + 3, false), t.totalTimeNs());
            newline(level + 2);
            raw('}');
        }
        newline(in);
        raw(']');
    }

    boolean edge(GraphEdge e, int level) {
        if (!plain(e.from(), FROM_ROLE) || !plain(e.to()) || (e.label() != null && !plain(e.label(), LABEL_ROLE))) {
            return false;
        }
        ensure(ROOM + member(level) + 6 * member(level + 1) + e.from().length() + e.to().length() + length(e.label()));
        int in = level + 1;
        raw('{');
        stringField(FROM.at(in, true), e.from());
        stringField(TO.at(in, false), e.to());
        stringField(KIND.at(in, false), GraphJsonWriter.wire(e.kind()));
        numberField(DURATION_NS.at(in, false), e.durationNs());
        if (e.label() != null) {
            stringField(LABEL.at(in, false), e.label());
        }
        newline(level);
        raw('}');
        return true;
    }

    /** The edge at {@code index}, read from the edges' columns: the same bytes as {@link #edge(GraphEdge, int)}. */
    boolean edge(EdgeList edges, int index, int level) {
        String from = edges.from(index);
        String to = edges.to(index);
        String label = edges.label(index);
        if (!plain(from, FROM_ROLE) || !plain(to) || (label != null && !plain(label, LABEL_ROLE))) {
            return false;
        }
        ensure(ROOM + member(level) + 6 * member(level + 1) + from.length() + to.length() + length(label));
        int in = level + 1;
        raw('{');
        stringField(FROM.at(in, true), from);
        stringField(TO.at(in, false), to);
        stringField(KIND.at(in, false), EDGE_KINDS[edges.kind(index).ordinal()]);
        numberField(DURATION_NS.at(in, false), edges.durationNs(index));
        if (label != null) {
            stringField(LABEL.at(in, false), label);
        }
        newline(level);
        raw('}');
        return true;
    }

    boolean timelinePoint(TimelinePoint p, int level) {
        if (!plain(p.device(), DEVICE_ROLE)) {
            return false;
        }
        pointHead(p.timestampNs(), p.device(), p.liveBytes(), p.heapBytes(), p.freeBytes(), level);
        CategoryBytes categories = p.byCategory();
        boolean first = true;
        for (MemoryCategory category : MemoryCategory.ordered()) {
            if (categories.has(category)) {
                numberField(CATEGORIES[category.ordinal()].at(level + 2, first), categories.get(category));
                first = false;
            }
        }
        pointTail(first, level);
        return true;
    }

    /**
     * The timeline point at {@code index}, read from the timeline's columns (no point, category
     * map or array made for it): the same bytes as {@link #timelinePoint(TimelinePoint, int)}.
     */
    boolean timelinePoint(MemoryTimeline timeline, int index, int level) {
        String device = timeline.device(index);
        if (!plain(device, DEVICE_ROLE)) {
            return false;
        }
        long live = timeline.liveBytes(index);
        pointHead(timeline.timestampNs(index), device, live, live, timeline.freeBytes(index), level);
        boolean first = true;
        for (MemoryCategory category : MemoryCategory.ordered()) {
            long bytes = timeline.categoryBytes(index, category);
            if (bytes >= 0) {
                numberField(CATEGORIES[category.ordinal()].at(level + 2, first), bytes);
                first = false;
            }
        }
        pointTail(first, level);
        return true;
    }

    /** A timeline point up to its {@code by_category} object's opening brace, room made for all of it. */
    private void pointHead(long timestampNs, String device, long live, long heap, long free, int level) {
        ensure(ROOM + member(level) + 7 * member(level + 1) + CATEGORIES.length * member(level + 2) + device.length());
        int in = level + 1;
        raw('{');
        numberField(TIMESTAMP_NS.at(in, true), timestampNs);
        stringField(DEVICE.at(in, false), device);
        numberField(LIVE_BYTES.at(in, false), live);
        numberField(HEAP_BYTES.at(in, false), heap);
        numberField(FREE_BYTES.at(in, false), free);
        bytes(BY_CATEGORY.at(in, false));
        raw('{');
    }

    /** Closes a timeline point's {@code by_category} object ({@code empty}: no category written) and the point. */
    private void pointTail(boolean empty, int level) {
        if (!empty) {
            newline(level + 1);
        }
        raw('}');
        newline(level);
        raw('}');
    }

    /** An allocation of the peak breakdown, as {@code GraphJsonWriter.allocation} writes it. */
    boolean allocation(LiveAllocation a, int level) {
        if (!plain(a.tensorId()) || !plain(a.spanId(), SPAN_ROLE) || (a.opName() != null && !plain(a.opName(), OP_ROLE))
                || !plain(a.dtype(), DTYPE_ROLE) || !plain(a.device(), DEVICE_ROLE)
                || (a.storageId() != null && !plain(a.storageId()))) {
            return false;
        }
        ensure(ROOM + member(level) + 10 * member(level + 1) + a.shape().rank() * member(level + 2) + a.tensorId().length()
                + a.spanId().length() + length(a.opName()) + a.dtype().length() + a.device().length()
                + length(a.storageId()));
        int in = level + 1;
        raw('{');
        stringField(TENSOR_ID.at(in, true), a.tensorId());
        stringField(SPAN_ID.at(in, false), a.spanId());
        if (a.opName() == null) {
            bytes(OP_NAME.at(in, false));
            bytes(NULL);
        } else {
            stringField(OP_NAME.at(in, false), a.opName());
        }
        numberField(BYTES.at(in, false), a.bytes());
        bytes(SHAPE.at(in, false));
        shape(a.shape(), in);
        stringField(DTYPE.at(in, false), a.dtype());
        stringField(DEVICE.at(in, false), a.device());
        stringField(CATEGORY.at(in, false), GraphJsonWriter.wire(a.category()));
        if (a.storageId() != null) {
            stringField(STORAGE_ID.at(in, false), a.storageId());
        }
        newline(level);
        raw('}');
        return true;
    }

    /**
     * A gradient fact, as {@code GraphJsonWriter.gradient} writes it: its norm spelled by the
     * same Jackson routine the generator uses ({@code USE_FAST_DOUBLE_WRITER}); a norm that is
     * not finite (the generator quotes it) is left to Jackson. (Rendered by Jackson on one thread,
     * the 116k gradients of a 1M-op trace were ~1.5% of a build's samples.)
     */
    boolean gradient(GradientRecord r, int level) {
        Double norm = r.norm();
        if (!plain(r.root(), ROOT_ROLE) || !plain(r.key()) || (norm != null && !Double.isFinite(norm))) {
            return false;
        }
        String normText = norm == null ? null : NumberOutput.toString(norm, true);
        ensure(ROOM + member(level) + 4 * member(level + 1) + r.root().length() + r.key().length() + length(normText));
        int in = level + 1;
        raw('{');
        stringField(ROOT.at(in, true), r.root());
        stringField(KEY.at(in, false), r.key());
        stringField(STATE.at(in, false), GraphJsonWriter.wire(r.state()));
        if (normText != null) {
            bytes(NORM.at(in, false));
            ascii(normText);
        }
        newline(level);
        raw('}');
        return true;
    }

    /** A tensor of the graph, as {@code GraphJsonWriter.tensor} writes it. */
    boolean tensor(TensorRecord t, int level) {
        if (!plain(t.spanId(), SPAN_ROLE) || !plain(t.tensorId()) || (t.label() != null && !plain(t.label()))
                || !plain(t.dtype(), DTYPE_ROLE) || !plain(t.device(), DEVICE_ROLE)) {
            return false;
        }
        ensure(ROOM + member(level) + 10 * member(level + 1) + t.shape().rank() * member(level + 2) + t.spanId().length()
                + t.tensorId().length() + length(t.label()) + t.dtype().length() + t.device().length());
        int in = level + 1;
        raw('{');
        stringField(SPAN_ID.at(in, true), t.spanId());
        stringField(TENSOR_ID.at(in, false), t.tensorId());
        if (t.label() != null) {
            stringField(LABEL.at(in, false), t.label());
        }
        bytes(SHAPE.at(in, false));
        shape(t.shape(), in);
        stringField(DTYPE.at(in, false), t.dtype());
        stringField(DEVICE.at(in, false), t.device());
        bytes(REQUIRES_GRAD.at(in, false));
        bytes(t.requiresGrad() ? TRUE : FALSE);
        numberField(STORAGE_BYTES.at(in, false), t.storageBytes());
        stringField(CATEGORY.at(in, false), GraphJsonWriter.wire(t.category()));
        newline(level);
        raw('}');
        return true;
    }

    /**
     * Room for the opening and closing of an element; and for one member at a level: a comma,
     * the new line and indent, the longest name (14 characters) quoted with its {@code ": "}, and
     * the longest number (20 characters) or a string's quotes, plus slack.
     */
    private static final int ROOM = 64;

    private static int member(int level) {
        return 2 * level + 48;
    }

    private static int length(String s) {
        return s == null ? 0 : s.length();
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

    /** {@link #plain(String)}, remembered for the last string of one role. */
    private boolean plain(String s, int role) {
        if (known[role] == s) {
            return true;
        }
        if (!plain(s)) {
            return false;
        }
        known[role] = s;
        return true;
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

    private void stringField(byte[] name, String value) {
        bytes(name);
        raw('"');
        ascii(value);
        raw('"');
    }

    private void numberField(byte[] name, long value) {
        bytes(name);
        number(value);
    }

    private void bytes(byte[] bytes) {
        System.arraycopy(bytes, 0, buf, len, bytes.length);
        len += bytes.length;
    }

    private void newline(int level) {
        if (level < NEWLINES.length) {
            bytes(NEWLINES[level]);
            return;
        }
        buf[len++] = '\n';
        for (int i = 0; i < 2 * level; i++) {
            buf[len++] = ' ';
        }
    }

    /**
     * The decimal digits of {@code value}, as {@link Long#toString(long)} spells them, without a
     * String. Two digits at a time, in {@code int} arithmetic for all but the top digits of values
     * of more than nine digits (a long division per two digits took most of the writer's time in a
     * JFR profile: a graph's JSON is mostly numbers).
     */
    void number(long value) {
        if (value == Long.MIN_VALUE) {
            ascii(Long.toString(value));
            return;
        }
        if (value < 0) {
            buf[len++] = '-';
            value = -value;
        }
        if (value < EIGHT_DIGITS * 10) {
            positive((int) value);
            return;
        }
        // Nine digits or more: the low eight as an int, zero-padded, after the rest.
        long high = value / EIGHT_DIGITS;
        int low = (int) (value - high * EIGHT_DIGITS);
        if (high < EIGHT_DIGITS * 10) {
            positive((int) high);
        } else {
            long top = high / EIGHT_DIGITS;
            positive((int) top);
            eightDigits((int) (high - top * EIGHT_DIGITS));
        }
        eightDigits(low);
    }

    private static final long EIGHT_DIGITS = 100_000_000L;

    /** The digits of {@code 0 <= v < 10^9}. */
    private void positive(int v) {
        int end = len + digits(v);
        int at = end;
        // Four digits per division by 10^4, their two pairs split apart off that chain: the
        // divisions of one number depend on each other, so halving their chain is what pays
        // (JFR: this loop was the writer's top line, timestamps and sizes of 7-10 digits).
        while (v >= 10_000) {
            int q = v / 10_000;
            at -= 4;
            quad(v - q * 10_000, at);
            v = q;
        }
        while (v >= 100) {
            int q = v / 100;
            int r = (v - q * 100) * 2;
            buf[--at] = DIGIT_PAIRS[r + 1];
            buf[--at] = DIGIT_PAIRS[r];
            v = q;
        }
        if (v >= 10) {
            buf[--at] = DIGIT_PAIRS[2 * v + 1];
            buf[--at] = DIGIT_PAIRS[2 * v];
        } else {
            buf[--at] = (byte) ('0' + v);
        }
        len = end;
    }

    /** The eight digits of {@code 0 <= v < 10^8}, zero-padded. */
    private void eightDigits(int v) {
        int at = len + 8;
        int top = v / 10_000;
        quad(v - top * 10_000, at - 4);
        quad(top, at - 8);
        len += 8;
    }

    /** The four digits of {@code 0 <= v < 10^4}, zero-padded, at {@code at}. */
    private void quad(int v, int at) {
        int high = v / 100;
        int low = (v - high * 100) * 2;
        high *= 2;
        buf[at] = DIGIT_PAIRS[high];
        buf[at + 1] = DIGIT_PAIRS[high + 1];
        buf[at + 2] = DIGIT_PAIRS[low];
        buf[at + 3] = DIGIT_PAIRS[low + 1];
    }

    /** 10^0 .. 10^18. */
    private static final long[] POWERS_OF_TEN = new long[19];

    static {
        POWERS_OF_TEN[0] = 1;
        for (int i = 1; i < POWERS_OF_TEN.length; i++) {
            POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
        }
    }

    /**
     * How many decimal digits a non-negative value has: from its bit length (log10 2 ~ 1233/4096
     * gives the count or one less), corrected by one comparison, instead of a loop of up to 19
     * multiplications for every number written (most of a graph's JSON is numbers).
     */
    static int digits(long value) {
        if (value < 10) {
            return 1;
        }
        int bits = 64 - Long.numberOfLeadingZeros(value);
        int guess = (bits * 1233) >>> 12;
        return value >= POWERS_OF_TEN[guess] ? guess + 1 : guess;
    }

    @SuppressWarnings("deprecation") // the fastest copy of ASCII text into bytes; plain() ensured ASCII
    private void ascii(String s) {
        int n = s.length();
        s.getBytes(0, n, buf, len);
        len += n;
    }

    private void raw(char c) {
        buf[len++] = (byte) c;
    }

    private void ensure(int extra) {
        if (len + extra > buf.length) {
            buf = java.util.Arrays.copyOf(buf, Math.max(buf.length * 2, len + extra));
        }
    }
}
