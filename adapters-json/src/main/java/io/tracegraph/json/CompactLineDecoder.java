package io.tracegraph.json;

import io.tracegraph.domain.trace.DataEdgeEvent;
import io.tracegraph.domain.trace.DeviceInterval;
import io.tracegraph.domain.trace.EdgeEvent;
import io.tracegraph.domain.trace.ExecutionStep;
import io.tracegraph.domain.trace.GradientEvent;
import io.tracegraph.domain.trace.GradientState;
import io.tracegraph.domain.trace.MemoryAction;
import io.tracegraph.domain.trace.MemoryCategory;
import io.tracegraph.domain.trace.MemoryEvent;
import io.tracegraph.domain.trace.OpEvent;
import io.tracegraph.domain.trace.Shape;
import io.tracegraph.domain.trace.SpanKind;
import io.tracegraph.domain.trace.SpanStart;
import io.tracegraph.domain.trace.TensorEvent;
import io.tracegraph.domain.trace.TraceSchemas;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The happy path of reading a JSONL trace: decodes the high-volume records (span_start, span_end,
 * op, memory, tensor, gradient, device_interval, typed edges) straight from the line's bytes when
 * they are written the way producers write them — compact JSON, {@code kind} first, known members
 * only, each once, printable ASCII strings without escapes, plain integers — into exactly the
 * records {@link RecordDecoder} makes of them. Anything else (white space between tokens, an
 * escape, an unknown or repeated member, a missing required one, a negative or fractional
 * integer, another kind) is declined with {@code null}, and the line goes to {@link RecordDecoder},
 * which decodes every spelling JSON allows and words every error. So this decoder never rejects
 * anything, and only accepts lines that {@link RecordDecoder} accepts with the same result
 * ({@code CompactLineDecoderTest} holds the two to it).
 *
 * <p>One decoder per thread: like {@link RecordDecoder} it keeps a direct-mapped cache of short
 * strings (looked up by their bytes, so a repeated id or name is neither allocated nor stored
 * twice) and a pool of shapes.
 */
final class CompactLineDecoder {
    private static final int CACHED_TEXT_LENGTH = 64;
    private static final int POOL_LIMIT = 1 << 14;
    private static final byte[] KIND = bytes("{\"kind\":");
    private static final byte[] NULL = bytes("null");
    private static final byte[] TRUE = bytes("true");
    private static final byte[] FALSE = bytes("false");

    // Member types.
    private static final int TEXT = 0;
    private static final int OPT_TEXT = 1;
    /** A storage id: a string, cached apart from the others. */
    private static final int STORAGE_ID = 2;
    private static final int U63 = 3;
    private static final int OPT_U63 = 4;
    private static final int BOOL = 5;
    private static final int SHAPE = 6;
    private static final int STRINGS = 7;
    private static final int OPT_NUMBER = 8;
    /** One of the spec's choices (its index in {@code longs}); {@code OPT_CHOICE} may be {@code null} too. */
    private static final int CHOICE = 9;
    private static final int OPT_CHOICE = 10;

    /**
     * The members of one kind in one revision: names in the order producers write them, their
     * types, and for choices the accepted spellings.
     */
    private static final class Spec {
        final byte[][] names;
        final int[] types;
        final byte[][][] choices;
        /** The member producers write after each one (the first one tried there): the next by default. */
        final int[] next;

        Spec(Object... members) {
            int n = members.length / 2;
            names = new byte[n][];
            types = new int[n];
            choices = new byte[n][][];
            next = new int[n];
            for (int i = 0; i < n; i++) {
                next[i] = i + 1;
                names[i] = bytes((String) members[2 * i]);
                Object type = members[2 * i + 1];
                if (type instanceof Integer t) {
                    types[i] = t;
                } else {
                    String[] options = (String[]) type;
                    boolean optional = options[0].equals("?");
                    types[i] = optional ? OPT_CHOICE : CHOICE;
                    choices[i] = names(optional ? Arrays.copyOfRange(options, 1, options.length) : options);
                }
            }
        }

        /**
         * The same members written in another order ({@code order}: their indexes as producers
         * write them, the first one first): each name is then found at the first try. The indexes,
         * and so the records, stay as they are.
         */
        Spec writtenIn(int... order) {
            for (int k = 0; k + 1 < order.length; k++) {
                next[order[k]] = order[k + 1];
            }
            next[order[order.length - 1]] = names.length;
            return this;
        }
    }

    private static final String[] ACTIONS = {"alloc", "free"};
    private static final MemoryAction[] ACTION_VALUES = {MemoryAction.ALLOC, MemoryAction.FREE};
    private static final String[] CATEGORIES = {"parameter", "activation", "gradient", "optimizer", "other"};
    private static final MemoryCategory[] CATEGORY_VALUES = {MemoryCategory.PARAMETER, MemoryCategory.ACTIVATION,
        MemoryCategory.GRADIENT, MemoryCategory.OPTIMIZER, MemoryCategory.OTHER};
    private static final SpanKind[] SPAN_KIND_VALUES = {SpanKind.FUNCTION, SpanKind.OP, SpanKind.MODULE};
    private static final ExecutionStep[] STEP_VALUES = {ExecutionStep.FORWARD, ExecutionStep.BACKWARD,
        ExecutionStep.OPTIMIZER};
    private static final GradientState[] STATE_VALUES = {GradientState.PRESENT, GradientState.MISSING,
        GradientState.ZERO, GradientState.NON_FINITE};

    private static final Spec SPAN_START = new Spec("id", TEXT, "parent_id", OPT_TEXT, "name", TEXT, "start_ns", U63,
            "span_kind", new String[] {"function", "op", "module"}, "measured", BOOL,
            "step", new String[] {"?", "forward", "backward", "optimizer"});
    private static final Spec SPAN_END = new Spec("id", TEXT, "duration_ns", U63);
    private static final Spec OP6 = new Spec("span_id", TEXT, "op_name", TEXT, "inputs", STRINGS, "output", OPT_TEXT,
            "shape", SHAPE, "dtype", TEXT, "device", TEXT, "duration_ns", U63, "timestamp_ns", U63,
            "storage_bytes", OPT_U63, "input_storage_bytes", U63);
    private static final Spec OP7 = new Spec("span_id", TEXT, "op_name", TEXT, "inputs", STRINGS, "output", OPT_TEXT,
            "shape", SHAPE, "dtype", TEXT, "device", TEXT, "duration_ns", U63, "timestamp_ns", U63,
            "output_dense_bytes", OPT_U63, "input_dense_bytes", U63);
    private static final Spec MEMORY6 = new Spec("timestamp_ns", U63, "tensor_id", TEXT, "span_id", TEXT,
            "op_name", OPT_TEXT, "device", TEXT, "bytes", U63, "action", ACTIONS, "shape", SHAPE, "dtype", TEXT,
            "category", CATEGORIES);
    private static final Spec MEMORY7 = new Spec("timestamp_ns", U63, "tensor_id", TEXT, "span_id", TEXT,
            "op_name", OPT_TEXT, "device", TEXT, "bytes", U63, "action", ACTIONS, "shape", SHAPE, "dtype", TEXT,
            "category", CATEGORIES, "storage_id", STORAGE_ID)
            // candle-graph 0.8.0 and later write the storage id second.
            .writtenIn(0, 10, 1, 2, 3, 4, 5, 6, 7, 8, 9);
    private static final Spec TENSOR6 = new Spec("span_id", TEXT, "tensor_id", TEXT, "shape", SHAPE, "dtype", TEXT,
            "device", TEXT, "requires_grad", BOOL, "storage_bytes", OPT_U63, "category", CATEGORIES);
    private static final Spec TENSOR7 = new Spec("span_id", TEXT, "tensor_id", TEXT, "shape", SHAPE, "dtype", TEXT,
            "device", TEXT, "requires_grad", BOOL, "dense_bytes", OPT_U63, "category", CATEGORIES,
            "label", OPT_TEXT)
            // and a tensor's label after its id.
            .writtenIn(0, 1, 8, 2, 3, 4, 5, 6, 7);
    private static final Spec GRADIENT = new Spec("event_id", TEXT, "root", TEXT, "key", TEXT,
            "state", new String[] {"present", "missing", "zero", "non_finite"}, "norm", OPT_NUMBER);
    private static final Spec INTERVAL = new Spec("span_id", TEXT, "device", TEXT, "stream_id", TEXT,
            "clock_id", TEXT, "backend", TEXT, "start_ns", U63, "duration_ns", U63);
    private static final Spec EDGE7 = new Spec("edge_kind", new String[] {"call", "data"}, "from_span", TEXT,
            "to_span", TEXT, "host_duration_ns", U63, "from_tensor", TEXT, "to_tensor", TEXT);

    private static final byte[][] KINDS = names("memory", "op", "span_start", "span_end", "gradient", "tensor",
            "device_interval", "edge");

    private final String[] textCache = new String[1 << 14];
    /** The hash of each cached string (its {@link String#hashCode()}): most misses are told by it alone. */
    private final int[] textHashes = new int[1 << 14];
    private final String[] storageCache = new String[1 << 12];
    private final int[] storageHashes = new int[1 << 12];
    private final Map<Shape, Shape> shapes = new HashMap<>();
    /**
     * The last shape seen per hash of its dimensions (direct-mapped, before the pool): a shape
     * found here is returned without a {@code Shape} or array allocated and hashed again; most
     * records repeat a handful of shapes.
     */
    private final Shape[] recentShapes = new Shape[1 << 10];
    private long[] dims = new long[8];
    private final String[] pair = new String[2];
    private byte[] b;
    private int pos;
    private int end;
    private int revision = TraceSchemas.OLDEST;

    /** Decodes with the members of {@code revision} (6..10) from now on. */
    CompactLineDecoder at(int revision) {
        this.revision = revision;
        return this;
    }

    /**
     * The record on {@code buf[from, to)} (one trimmed line), or {@code null} when the line is not
     * in the compact spelling of one of the kinds read here.
     */
    Object decode(byte[] buf, int from, int to) {
        if (to - from < KIND.length + 2 || buf[to - 1] != '}') {
            return null;
        }
        this.b = buf;
        this.pos = from;
        this.end = to;
        try {
            if (!literal(KIND)) {
                return null;
            }
            int kind = choice(KINDS);
            if (kind < 0) {
                return null;
            }
            Object record;
            switch (kind) {
                case 0: record = memory(); break;
                case 1: record = op(); break;
                case 2: record = spanStart(); break;
                case 3: record = spanEnd(); break;
                case 4: record = gradient(); break;
                case 5: record = tensor(); break;
                case 6: record = revision >= 7 ? deviceInterval() : null; break;
                default: record = revision >= 7 ? typedEdge() : null;
            }
            return record != null && pos == end ? record : null;
        } finally {
            this.b = null;
        }
    }

    // ---- records (members, defaults and requirements as in RecordDecoder) ---------------------

    /** Per member of the record being read: its object value (or null), its number (or -1). */
    private final Object[] objects = new Object[16];
    private final long[] longs = new long[16];
    /** The members present. */
    private int seen;

    private boolean has(int member) {
        return (seen & 1 << member) != 0;
    }

    /** A string member, {@code null} when absent or null. */
    private String string(int member) {
        return has(member) ? (String) objects[member] : null;
    }

    /** A defaulted number: the member's value, or {@code otherwise} when it is absent. */
    private long number(int member, long otherwise) {
        return has(member) ? longs[member] : otherwise;
    }

    /** An optional number: {@code null} when absent or null. */
    private Long optNumber(int member) {
        return has(member) && longs[member] >= 0 ? longs[member] : null;
    }

    private Shape shape(int member, Shape otherwise) {
        // present shapes are never null
        return has(member) ? (Shape) objects[member] : otherwise;
    }

    private <T> T choice(int member, T[] values, T otherwise) {
        return has(member) && longs[member] >= 0 ? values[(int) longs[member]] : otherwise;
    }

    /** Whether all {@code required} members are there (a bit mask). */
    private boolean present(int required) {
        return (seen & required) == required;
    }

    private MemoryEvent memory() {
        boolean later = revision >= 7;
        if (!members(later ? MEMORY7 : MEMORY6) || !present(later ? 0b10101110111 : 0b00101110111)) {
            return null;
        }
        return new MemoryEvent(longs[0], string(1), string(2), string(3), string(4), longs[5],
                ACTION_VALUES[(int) longs[6]], shape(7, Shape.SCALAR), string(8),
                choice(9, CATEGORY_VALUES, MemoryCategory.OTHER), later ? string(10) : null);
    }

    @SuppressWarnings("unchecked")
    private OpEvent op() {
        boolean dense = revision >= 7;
        // span_id, op_name, dtype, device, duration_ns; trace/7: shape and input_dense_bytes too.
        if (!members(dense ? OP7 : OP6) || !present(dense ? 0b10011110011 : 0b00011100011)) {
            return null;
        }
        List<String> inputs = has(2) ? (List<String>) objects[2] : List.of();
        return new OpEvent(string(0), string(1), inputs, string(3), shape(4, Shape.SCALAR), string(5), string(6),
                longs[7], number(8, 0), optNumber(9), number(10, 0));
    }

    private SpanStart spanStart() {
        if (!members(SPAN_START) || !present(0b11101)) {
            return null;
        }
        return new SpanStart(string(0), string(1), string(2), longs[3], SPAN_KIND_VALUES[(int) longs[4]],
                number(5, 0) == 1, choice(6, STEP_VALUES, null));
    }

    private RecordDecoder.SpanEnd spanEnd() {
        if (!members(SPAN_END) || !present(0b1)) {
            return null;
        }
        return new RecordDecoder.SpanEnd(string(0), number(1, 0));
    }

    private GradientEvent gradient() {
        if (!members(GRADIENT) || !present(0b1111)) {
            return null;
        }
        return new GradientEvent(string(0), string(1), string(2), STATE_VALUES[(int) longs[3]],
                has(4) ? (Double) objects[4] : null);
    }

    private TensorEvent tensor() {
        boolean labelled = revision >= 7;
        if (!members(labelled ? TENSOR7 : TENSOR6) || !present(labelled ? 0b11111 : 0b11011)) {
            return null;
        }
        return new TensorEvent(string(0), string(1), shape(2, Shape.SCALAR), string(3), string(4),
                number(5, 0) == 1, optNumber(6), choice(7, CATEGORY_VALUES, MemoryCategory.OTHER),
                labelled ? string(8) : null);
    }

    private DeviceInterval deviceInterval() {
        if (!members(INTERVAL) || !present(0b1111111)) {
            return null;
        }
        return new DeviceInterval(string(0), string(1), string(2), string(3), string(4), longs[5], longs[6]);
    }

    /** A trace/7 edge of either variant, with the members of that variant only. */
    private Object typedEdge() {
        if (!members(EDGE7)) {
            return null;
        }
        if (seen == 0b1111 && longs[0] == 0) {
            return new EdgeEvent(string(1), string(2), longs[3]);
        }
        if (seen == 0b110001 && longs[0] == 1) {
            return new DataEdgeEvent(string(4), string(5));
        }
        return null;
    }

    /**
     * Reads the members after {@code kind} up to the closing brace into {@link #objects},
     * {@link #longs} and {@link #seen}; {@code false} when one is unknown, repeated or not spelled
     * plainly. Optional members that are {@code null} are present with a null object and -1.
     */
    private boolean members(Spec spec) {
        seen = 0;
        int hint = 0;
        while (true) {
            int f = nextMember(spec.names, hint);
            if (f == END) {
                return true;
            }
            if (f < 0 || (seen & 1 << f) != 0) {
                return false;
            }
            seen |= 1 << f;
            hint = spec.next[f];
            int type = spec.types[f];
            Object object = null;
            long number = -1;
            boolean ok;
            switch (type) {
                case TEXT: ok = (object = text()) != null; break;
                case OPT_TEXT: ok = isNull() || (object = text()) != null; break;
                case STORAGE_ID: ok = (object = storageId()) != null; break;
                case U63: ok = (number = u63()) >= 0; break;
                case OPT_U63: ok = isNull() || (number = u63()) >= 0; break;
                case BOOL: ok = (number = bool()) >= 0; break;
                case SHAPE: ok = (object = shape()) != null; break;
                case STRINGS: ok = (object = strings()) != null; break;
                case OPT_NUMBER: ok = isNull() || (object = number()) != null; break;
                case CHOICE: ok = (number = choice(spec.choices[f])) >= 0; break;
                default: ok = isNull() || (number = choice(spec.choices[f])) >= 0;
            }
            if (!ok) {
                return false;
            }
            objects[f] = object;
            longs[f] = number;
        }
    }

    // ---- tokens ----------------------------------------------------------------------------

    private static final int END = -2;

    /**
     * After a value: {@code ,"name":} gives the index of the name in {@code names} (-1 when it is
     * not one of them or not spelled plainly), {@code }} gives {@link #END}. {@code hint} is the
     * index tried first (producers write members in one order).
     */
    private int nextMember(byte[][] names, int hint) {
        if (pos >= end) {
            return -1;
        }
        byte c = b[pos++];
        if (c == '}') {
            return END;
        }
        if (c != ',' || pos >= end || b[pos] != '"') {
            return -1;
        }
        int start = pos + 1;
        int close = start;
        while (close < end && b[close] != '"') {
            if (b[close] == '\\') {
                return -1;
            }
            close++;
        }
        if (close + 1 >= end || b[close + 1] != ':') {
            return -1;
        }
        int length = close - start;
        int found = -1;
        if (hint < names.length && equal(names[hint], start, length)) {
            found = hint;
        } else {
            for (int i = 0; i < names.length; i++) {
                if (equal(names[i], start, length)) {
                    found = i;
                    break;
                }
            }
        }
        pos = close + 2;
        return found;
    }

    private boolean equal(byte[] name, int start, int length) {
        if (name.length != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (b[start + i] != name[i]) {
                return false;
            }
        }
        return true;
    }

    private boolean literal(byte[] text) {
        if (end - pos < text.length) {
            return false;
        }
        for (int i = 0; i < text.length; i++) {
            if (b[pos + i] != text[i]) {
                return false;
            }
        }
        pos += text.length;
        return true;
    }

    /** Consumes a {@code null} value if there is one. */
    private boolean isNull() {
        return pos < end && b[pos] == 'n' && literal(NULL);
    }

    /** 1 for true, 0 for false, -1 for anything else. */
    private int bool() {
        if (literal(TRUE)) {
            return 1;
        }
        return literal(FALSE) ? 0 : -1;
    }

    /**
     * The end (exclusive) of a plain string's content starting after its opening quote at
     * {@code pos}, or -1 when it holds an escape, a control character or a non-ASCII byte; on
     * success {@code pos} stands after the closing quote.
     */
    private int plainString() {
        if (pos >= end || b[pos] != '"') {
            return -1;
        }
        int i = pos + 1;
        while (i < end) {
            byte c = b[i];
            if (c == '"') {
                pos = i + 1;
                return i;
            }
            if (c < 0x20 || c == '\\' || c == 0x7F) {    // negative: a non-ASCII byte
                return -1;
            }
            i++;
        }
        return -1;
    }

    /** A string, from the cache when it is short. */
    private String text() {
        return cached(textCache, textHashes);
    }

    /** A string, from {@code cache} (slots by hash, {@code hashes} beside) when it is short. */
    private String cached(String[] cache, int[] hashes) {
        // The string's end found and its hash taken in one pass, as plainString() would find it
        // (the two passes were most of the decoders' samples in this method: ids, names, dtypes).
        if (pos >= end || b[pos] != '"') {
            return null;
        }
        int start = pos + 1;
        int hash = 0;
        int i = start;
        while (true) {
            if (i >= end) {
                return null;
            }
            byte c = b[i];
            if (c == '"') {
                break;
            }
            if (c < 0x20 || c == '\\' || c == 0x7F) {    // negative: a non-ASCII byte
                return null;
            }
            hash = 31 * hash + c;
            i++;
        }
        int length = i - start;
        pos = i + 1;
        if (length > CACHED_TEXT_LENGTH) {
            return new String(b, start, length, StandardCharsets.ISO_8859_1);
        }
        int slot = (hash ^ (hash >>> 15)) & (cache.length - 1);
        if (hashes[slot] == hash) {
            String cached = cache[slot];
            if (cached != null && cached.length() == length && sameBytes(cached, start)) {
                return cached;
            }
        }
        String text = new String(b, start, length, StandardCharsets.ISO_8859_1);
        cache[slot] = text;
        hashes[slot] = hash;
        return text;
    }

    private boolean sameBytes(String s, int start) {
        for (int i = 0, n = s.length(); i < n; i++) {
            if (s.charAt(i) != b[start + i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * A storage id, from a small cache of its own: an id repeats only once, at its free, which in
     * training traces mostly comes within a few hundred records of the allocation (two thirds of
     * the frees of a generated 1M-op trace) and then shares the allocation's string; in the shared
     * cache the ids that never repeat would evict the names that do.
     */
    private String storageId() {
        return cached(storageCache, storageHashes);
    }

    /** A string that must be one of {@code options}: its index, or -1. */
    private int choice(byte[][] options) {
        int start = pos + 1;
        int close = plainString();
        if (close < 0) {
            return -1;
        }
        for (int i = 0; i < options.length; i++) {
            if (equal(options[i], start, close - start)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * A JSON integer in 0..10^18 spelled plainly (no sign, no leading zero, no fraction or
     * exponent), or -1 for anything else, which {@link RecordDecoder} then reads or refuses.
     */
    private long u63() {
        int start = pos;
        long value = 0;
        int i = pos;
        while (i < end) {
            int d = b[i] - '0';
            if (d < 0 || d > 9) {
                break;
            }
            value = value * 10 + d;
            i++;
        }
        int digits = i - start;
        if (digits == 0 || digits > 18 || (digits > 1 && b[start] == '0') || i >= end) {
            return -1;
        }
        byte next = b[i];
        if (next != ',' && next != '}' && next != ']') {
            return -1;
        }
        pos = i;
        return value;
    }

    /**
     * A JSON number spelled plainly (integer, fraction, exponent; at most 24 characters), parsed as
     * Jackson parses it ({@link Double#parseDouble}), or {@code null}. Infinite values are
     * declined: {@link RecordDecoder} refuses them.
     */
    private Double number() {
        int start = pos;
        int i = pos;
        if (i < end && b[i] == '-') {
            i++;
        }
        int intStart = i;
        while (i < end && b[i] >= '0' && b[i] <= '9') {
            i++;
        }
        int intDigits = i - intStart;
        if (intDigits == 0 || (intDigits > 1 && b[intStart] == '0')) {
            return null;
        }
        if (i < end && b[i] == '.') {
            int fracStart = ++i;
            while (i < end && b[i] >= '0' && b[i] <= '9') {
                i++;
            }
            if (i == fracStart) {
                return null;
            }
        }
        if (i < end && (b[i] == 'e' || b[i] == 'E')) {
            i++;
            if (i < end && (b[i] == '+' || b[i] == '-')) {
                i++;
            }
            int expStart = i;
            while (i < end && b[i] >= '0' && b[i] <= '9') {
                i++;
            }
            if (i == expStart) {
                return null;
            }
        }
        if (i - start > 24 || i >= end || (b[i] != ',' && b[i] != '}')) {
            return null;
        }
        if (i - intStart == intDigits) {
            // An integer: Jackson reads it as one and converts it (so "-0" is 0.0).
            if (b[start] == '-' || intDigits > 18) {
                return null;
            }
            pos = start;
            return (double) u63();
        }
        double value = Double.parseDouble(new String(b, start, i - start, StandardCharsets.ISO_8859_1));
        if (Double.isInfinite(value)) {
            return null;
        }
        pos = i;
        return value;
    }

    /** An array of plain strings, as an immutable list, or {@code null}. */
    private List<String> strings() {
        if (pos >= end || b[pos] != '[') {
            return null;
        }
        pos++;
        if (pos < end && b[pos] == ']') {
            pos++;
            return List.of();
        }
        String[] values = pair;
        String[] more = null;
        int n = 0;
        while (true) {
            String s = text();
            if (s == null) {
                return null;
            }
            if (n < 2) {
                values[n] = s;
            } else {
                if (more == null) {
                    more = Arrays.copyOf(values, 8);
                } else if (n == more.length) {
                    more = Arrays.copyOf(more, n * 2);
                }
                more[n] = s;
            }
            n++;
            if (pos >= end) {
                return null;
            }
            byte c = b[pos++];
            if (c == ']') {
                break;
            }
            if (c != ',') {
                return null;
            }
        }
        if (n == 1) {
            return List.of(values[0]);
        }
        if (n == 2) {
            return List.of(values[0], values[1]);
        }
        return List.of(Arrays.copyOf(more, n));
    }

    /** An array of plain integers as a pooled shape, or {@code null}. */
    private Shape shape() {
        if (pos >= end || b[pos] != '[') {
            return null;
        }
        pos++;
        if (pos < end && b[pos] == ']') {
            pos++;
            return Shape.SCALAR;
        }
        int n = 0;
        int hash = 1;
        while (true) {
            long d = u63();
            if (d < 0) {
                return null;
            }
            if (n == dims.length) {
                dims = Arrays.copyOf(dims, n * 2);
            }
            dims[n++] = d;
            hash = 31 * hash + Long.hashCode(d);
            byte c = b[pos++];
            if (c == ']') {
                break;
            }
            if (c != ',') {
                return null;
            }
        }
        int slot = (hash ^ (hash >>> 16)) & (recentShapes.length - 1);
        Shape recent = recentShapes[slot];
        if (recent != null && sameDims(recent, n)) {
            return recent;
        }
        Shape shape = Shape.of(Arrays.copyOf(dims, n));
        // computeIfAbsent, not putIfAbsent: a result that is never null. putIfAbsent's null for a
        // shape not met before came seldom enough for C2 to bet on "never", and each new shape late
        // in a trace then threw the compiled record decoder away (twice per 1M-op trace/10 build,
        // and the member loop compiled again with it).
        Shape pooled = shapes.computeIfAbsent(shape, s -> s);
        if (pooled == shape && shapes.size() > POOL_LIMIT) {
            shapes.clear();
        }
        recentShapes[slot] = pooled;
        return pooled;
    }

    /** Whether {@code shape} has the {@code n} dimensions just read. */
    private boolean sameDims(Shape shape, int n) {
        if (shape.rank() != n) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (shape.dim(i) != dims[i]) {
                return false;
            }
        }
        return true;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[][] names(String... names) {
        byte[][] result = new byte[names.length][];
        for (int i = 0; i < names.length; i++) {
            result[i] = bytes(names[i]);
        }
        return result;
    }
}
