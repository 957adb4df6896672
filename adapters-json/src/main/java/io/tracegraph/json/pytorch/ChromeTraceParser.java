package io.tracegraph.json.pytorch;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import io.tracegraph.domain.trace.MalformedTraceException;
import io.tracegraph.domain.trace.TraceProblem;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Streams a Chrome trace-event document (a JSON object with {@code traceEvents}, or a bare array
 * of events) into an {@link EventTable}, with Jackson's streaming parser (and, for the framed
 * blocks of events, a byte reader of Kineto's common event shape in front of it): never a tree of
 * the whole file. Strings come out of the parser's own buffer into the interning table; times are read
 * from the number's text, exactly, as integer nanoseconds.
 *
 * <p>What it refuses (one problem naming the source and line): JSON that is not well formed or is
 * cut short, a complete or memory event without {@code ts}, a complete event without {@code dur}
 * or with a negative one, a {@code ts} or {@code dur} that is not a number or is out of range,
 * nesting deeper than 200, a string longer than 64 MiB, and an event (or a top-level member) longer
 * than 64 MiB. Anything else it does not know is skipped: unknown members, phases and categories,
 * args of unexpected types, integers beyond 64 bits.
 */
final class ChromeTraceParser {
    /** Longest event, top-level member or string accepted. */
    static final int MAX_EVENT_BYTES = 64 << 20;
    private static final long STRING_LANE = EventTable.STRING_KEY;
    private static final long MAX_MICROS = Long.MAX_VALUE / 1000;

    static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxStringLength(MAX_EVENT_BYTES).maxNumberLength(1000).maxNestingDepth(200).build())
            .build();

    private final String source;
    private final EventTable table;
    /** The file's line of the parsed bytes' first line, less one (of the Jackson parser's first). */
    private long lineOffset;
    private final Names categories = new Names();
    /** Kind by category id, -1 until first met. */
    private byte[] kindOfCategory = filled(16);
    private int emptyName = -1;
    private JsonParser p;

    // One event's members, reset per event.
    private int ph;
    private int cat;
    private int nameId;
    private long pid;
    private long tid;
    private long ts;
    private long dur;
    private long flowIdValue;
    private long ext;
    private long corr;
    private int pyId;
    private int pyParent;
    private long bytes;
    private long addr;
    private long total;
    private long deviceType;
    private long deviceId;
    private long deviceIndex;
    private long streamIndex;
    private final long[] dims = new long[64];
    private int[] inputStart = new int[16];
    private int[] inputRank = new int[16];
    private int inputs;
    private int[] types = new int[16];
    private int typeCount;

    private ChromeTraceParser(String source, EventTable table, long lineOffset) {
        this.source = source;
        this.table = table;
        this.lineOffset = lineOffset;
    }

    /** Parses a whole document from a stream on the calling thread (small traces, tests). */
    static EventTable parse(String source, InputStream in) throws IOException {
        ChromeTraceParser parser = new ChromeTraceParser(source, new EventTable(), 0);
        try (JsonParser p = FACTORY.createParser(in)) {
            parser.p = p;
            parser.document();
        } catch (JsonProcessingException e) {
            throw parser.invalid(e);
        }
        return parser.table;
    }

    /**
     * Parses a block of events: whole event objects one after another, separated by white space
     * only (the framing replaced the commas between them), whose first line is file line
     * {@code firstLine}. Returns a table of their own (names interned apart from other blocks).
     * Events of Kineto's common shape are read from the bytes, any other by Jackson (see "The
     * common shape of an event" below): ~2x less CPU than Jackson for every event (1 GB trace:
     * the parser threads' 4.2 s against 2.2 s).
     */
    static EventTable parseEvents(String source, byte[] buf, int from, int to, long firstLine) throws IOException {
        // Kineto's events take 250 to 450 bytes: room for the block's events without growing.
        ChromeTraceParser parser = new ChromeTraceParser(source, new EventTable((to - from) / 200), firstLine - 1);
        parser.blockEvents(buf, from, to, firstLine - 1);
        return parser.table;
    }

    /** As {@link #parseEvents}, every event read by Jackson: what the byte reader is tested against. */
    static EventTable parseEventsWithJackson(String source, byte[] buf, int from, int to, long firstLine)
            throws IOException {
        ChromeTraceParser parser = new ChromeTraceParser(source, new EventTable((to - from) / 200), firstLine - 1);
        parser.jacksonEvents(buf, from, to, firstLine - 1);
        return parser.table;
    }

    /**
     * Jackson from {@code from} to the end of the block: the events one after another (the block's
     * file line of {@code from}, less one, is {@code lines}).
     */
    private void jacksonEvents(byte[] buf, int from, int to, long lines) throws IOException {
        lineOffset = lines;
        try (JsonParser jp = FACTORY.createParser(buf, from, to - from)) {
            p = jp;
            JsonToken t;
            while ((t = p.nextToken()) != null) {
                if (t != JsonToken.START_OBJECT) {
                    throw notAnEvent(t);
                }
                // The framing has bounded the event's size already.
                event();
            }
        } catch (JsonProcessingException e) {
            throw invalid(e);
        }
    }

    private MalformedTraceException notAnEvent(JsonToken t) {
        return new MalformedTraceException(new TraceProblem(source,
                lineOffset + Math.max(1, p.currentTokenLocation().getLineNr()), "traceEvents",
                "member `traceEvents` must hold event objects, found " + describe(t)));
    }

    /** Jackson for the one value at {@code from} (an event, or the error it is); returns its end. */
    private int jacksonEvent(byte[] buf, int from, int to, long lines) throws IOException {
        lineOffset = lines;
        try (JsonParser jp = FACTORY.createParser(buf, from, to - from)) {
            p = jp;
            JsonToken t = p.nextToken();
            if (t == null) {
                return to;
            }
            if (t != JsonToken.START_OBJECT) {
                throw notAnEvent(t);
            }
            event();
            return from + (int) p.currentLocation().getByteOffset();
        } catch (JsonProcessingException e) {
            throw invalid(e);
        }
    }

    /**
     * Reads the members of the trace object other than the events (the framing keeps them, with an
     * empty {@code traceEvents}) into {@code table}.
     */
    static void parseHeader(String source, byte[] buf, int length, EventTable table) throws IOException {
        ChromeTraceParser parser = new ChromeTraceParser(source, table, 0);
        try (JsonParser p = FACTORY.createParser(buf, 0, length)) {
            parser.p = p;
            parser.document();
        } catch (JsonProcessingException e) {
            throw parser.invalid(e);
        }
    }

    private MalformedTraceException invalid(JsonProcessingException e) {
        long line = lineOffset + (e.getLocation() != null && e.getLocation().getLineNr() > 0
                ? e.getLocation().getLineNr() : p == null ? 1 : Math.max(1, p.currentLocation().getLineNr()));
        return new MalformedTraceException(new TraceProblem(source, line, null,
                "invalid JSON: " + jacksonMessage(e)));
    }

    private static String jacksonMessage(JsonProcessingException e) {
        String m = e.getOriginalMessage();
        if (m == null) {
            m = e.getClass().getSimpleName();
        }
        int nl = m.indexOf('\n');
        m = nl >= 0 ? m.substring(0, nl) : m;
        int hint = m.indexOf(": enable `");
        return hint >= 0 ? m.substring(0, hint) : m;
    }

    private MalformedTraceException problem(String member, String message) {
        return new MalformedTraceException(new TraceProblem(source,
                lineOffset + Math.max(1, p.currentLocation().getLineNr()), member, message));
    }

    private void document() throws IOException {
        JsonToken first = p.nextToken();
        if (first == JsonToken.START_ARRAY) {
            events();
        } else if (first == JsonToken.START_OBJECT) {
            boolean seenEvents = false;
            String field;
            while ((field = p.nextFieldName()) != null) {
                JsonToken value = p.nextToken();
                if (field.equals("traceEvents")) {
                    if (value != JsonToken.START_ARRAY) {
                        throw problem(field, "member `traceEvents` must be an array of events");
                    }
                    seenEvents = true;
                    events();
                } else {
                    topLevel(field, value);
                }
            }
            if (!seenEvents) {
                throw problem("traceEvents", "not a trace-event document: no member `traceEvents`");
            }
        } else {
            throw problem(null, "expected a JSON object with `traceEvents`, or an array of trace events");
        }
        if (p.nextToken() != null) {
            throw problem(null, "trailing characters after the trace document");
        }
    }

    private void topLevel(String field, JsonToken value) throws IOException {
        long from = offset();
        switch (field) {
            case "baseTimeNanoseconds":
                if (value == JsonToken.VALUE_NUMBER_INT && p.getNumberType() != JsonParser.NumberType.BIG_INTEGER) {
                    table.baseTimeNs = p.getLongValue();
                }
                break;
            case "deviceProperties":
                if (value == JsonToken.START_ARRAY) {
                    deviceProperties();
                } else {
                    p.skipChildren();
                }
                break;
            case "distributedInfo":
                if (value == JsonToken.START_OBJECT) {
                    String key;
                    while ((key = p.nextFieldName()) != null) {
                        JsonToken v = p.nextToken();
                        if (v.isScalarValue()) {
                            table.distributed.put(key, p.getText());
                        } else {
                            p.skipChildren();
                        }
                    }
                } else {
                    p.skipChildren();
                }
                break;
            default:
                if (value.isScalarValue()) {
                    if (value != JsonToken.VALUE_NULL) {
                        table.header.put(field, p.getText());
                    }
                } else {
                    p.skipChildren();
                }
        }
        if (offset() - from > MAX_EVENT_BYTES) {
            throw problem(field, "member `" + field + "` is longer than " + MAX_EVENT_BYTES + " bytes");
        }
    }

    private void deviceProperties() throws IOException {
        while (p.nextToken() == JsonToken.START_OBJECT) {
            long id = EventTable.ABSENT;
            String name = null;
            String key;
            while ((key = p.nextFieldName()) != null) {
                JsonToken v = p.nextToken();
                if (key.equals("id") && v == JsonToken.VALUE_NUMBER_INT) {
                    id = longOr(EventTable.ABSENT);
                } else if (key.equals("name") && v == JsonToken.VALUE_STRING) {
                    name = p.getText();
                } else {
                    p.skipChildren();
                }
            }
            if (id != EventTable.ABSENT && name != null) {
                table.deviceNames.put(id, name);
            }
        }
        if (p.currentToken() != JsonToken.END_ARRAY) {
            p.skipChildren();
            while (p.nextToken() != JsonToken.END_ARRAY) {
                p.skipChildren();
            }
        }
    }

    private long offset() {
        return p.currentLocation().getByteOffset();
    }

    private void events() throws IOException {
        JsonToken t;
        while ((t = p.nextToken()) == JsonToken.START_OBJECT) {
            long from = offset();
            event();
            if (offset() - from > MAX_EVENT_BYTES) {
                throw problem(null, "event is longer than " + MAX_EVENT_BYTES + " bytes");
            }
        }
        if (t != JsonToken.END_ARRAY) {
            if (t == null) {
                throw problem(null, "invalid JSON: unexpected end of input in `traceEvents`");
            }
            throw problem("traceEvents", "member `traceEvents` must hold event objects, found " + describe(t));
        }
    }

    static String describe(JsonToken t) {
        switch (t) {
            case START_ARRAY: return "an array";
            case VALUE_STRING: return "a string";
            case VALUE_NULL: return "null";
            case VALUE_TRUE: case VALUE_FALSE: return "a boolean";
            default: return "a number";
        }
    }

    private void reset() {
        ph = 0;
        cat = -1;
        nameId = -1;
        pid = 0;
        tid = 0;
        ts = EventTable.ABSENT;
        dur = EventTable.ABSENT;
        flowIdValue = EventTable.ABSENT;
        ext = EventTable.ABSENT;
        corr = EventTable.ABSENT;
        pyId = EventTable.NO_ID;
        pyParent = EventTable.NO_ID;
        bytes = EventTable.ABSENT;
        addr = EventTable.ABSENT;
        total = EventTable.ABSENT;
        deviceType = EventTable.ABSENT;
        deviceId = EventTable.ABSENT;
        deviceIndex = EventTable.ABSENT;
        streamIndex = EventTable.ABSENT;
        inputs = 0;
        typeCount = 0;
    }

    private void event() throws IOException {
        reset();
        String field;
        while ((field = p.nextFieldName()) != null) {
            JsonToken v = p.nextToken();
            switch (field) {
                case "ph":
                    if (v == JsonToken.VALUE_STRING && p.getTextLength() > 0) {
                        ph = p.getTextLength() == 1 ? p.getTextCharacters()[p.getTextOffset()] : '?';
                    } else {
                        p.skipChildren();
                    }
                    break;
                case "cat":
                    if (v == JsonToken.VALUE_STRING) {
                        cat = categories.intern(p.getTextCharacters(), p.getTextOffset(), p.getTextLength(), false);
                    } else {
                        p.skipChildren();
                    }
                    break;
                case "name":
                    if (v == JsonToken.VALUE_STRING) {
                        nameId = table.names.intern(p.getTextCharacters(), p.getTextOffset(), p.getTextLength(), true);
                    } else {
                        p.skipChildren();
                    }
                    break;
                case "pid":
                    pid = laneKey(v);
                    break;
                case "tid":
                    tid = laneKey(v);
                    break;
                case "ts":
                    ts = micros(v, "ts");
                    break;
                case "dur":
                    dur = micros(v, "dur");
                    break;
                case "id":
                    if (v == JsonToken.VALUE_NUMBER_INT) {
                        flowIdValue = longOr(EventTable.ABSENT);
                    } else if (v == JsonToken.VALUE_STRING) {
                        flowIdValue = STRING_LANE + table.names.intern(p.getTextCharacters(), p.getTextOffset(),
                                p.getTextLength(), false);
                    } else {
                        p.skipChildren();
                    }
                    break;
                case "args":
                    if (v == JsonToken.START_OBJECT) {
                        args();
                    } else {
                        p.skipChildren();
                    }
                    break;
                default:
                    p.skipChildren();
            }
        }
        store();
    }

    private void store() {
        switch (ph) {
            case 'X': {
                byte kind = kindOf(cat);
                if (kind == EventKind.IGNORED || kind == EventKind.DEVICE_OTHER) {
                    return; // set aside whatever it holds: the profiler's window, GPU annotations, waits
                }
                if (ts == EventTable.ABSENT) {
                    throw problem("ts", "complete event has no `ts`");
                }
                if (dur == EventTable.ABSENT) {
                    throw problem("dur", "complete event has no `dur`");
                }
                if (dur < 0) {
                    throw problem("dur", "member `dur` is negative: " + java.math.BigDecimal.valueOf(dur, 3).stripTrailingZeros()
                            .toPlainString() + " µs");
                }
                int row = table.addComplete();
                table.lane[row] = table.lanes.lane(pid, tid);
                table.start[row] = ts;
                table.dur[row] = dur;
                if (nameId < 0 && emptyName < 0) {
                    emptyName = table.names.intern("");
                }
                table.name[row] = nameId < 0 ? emptyName : nameId;
                table.kind[row] = kind;
                table.externalId[row] = ext;
                table.correlation[row] = corr;
                table.pythonId[row] = pyId;
                table.pythonParent[row] = pyParent;
                table.shape[row] = -1;
                table.dtype[row] = -1;
                if (kind == EventKind.CPU_OP && inputs > 0) {
                    for (int i = 0; i < inputs; i++) {
                        if (inputRank[i] > 0) {
                            table.shape[row] = table.shape(Arrays.copyOfRange(dims, inputStart[i],
                                    inputStart[i] + inputRank[i]), inputRank[i]);
                            table.dtype[row] = i < typeCount ? types[i] : -1;
                            break;
                        }
                    }
                }
                long device = deviceIndex != EventTable.ABSENT ? deviceIndex : pid;
                table.device[row] = device >= 0 && device < Integer.MAX_VALUE ? (int) device : -1;
                long stream = streamIndex != EventTable.ABSENT ? streamIndex : tid;
                table.stream[row] = stream >= 0 && stream < Integer.MAX_VALUE ? (int) stream : -1;
                return;
            }
            case 'i': case 'I': {
                table.instantEvents++;
                String name = nameId < 0 ? "" : table.names.get(nameId);
                if (name.equals("[memory]")) {
                    if (ts == EventTable.ABSENT) {
                        throw problem("ts", "memory event has no `ts`");
                    }
                    if (bytes == EventTable.ABSENT || bytes == 0) {
                        return;
                    }
                    int row = table.addMemory();
                    table.memTs[row] = ts;
                    table.memLane[row] = table.lanes.lane(pid, tid);
                    table.memDevice[row] = table.memoryDevice(deviceType == EventTable.ABSENT ? -1 : deviceType,
                            deviceId == EventTable.ABSENT ? -1 : deviceId);
                    table.memAddr[row] = addr;
                    table.memBytes[row] = bytes;
                    table.memTotal[row] = total;
                } else if (name.equals("[OutOfMemory]")) {
                    table.outOfMemoryEvents++;
                }
                return;
            }
            case 's': case 't': case 'f': {
                if (flowIdValue == EventTable.ABSENT || ts == EventTable.ABSENT) {
                    return;
                }
                int row = table.addFlow();
                table.flowId[row] = flowIdValue;
                table.flowLane[row] = table.lanes.lane(pid, tid);
                table.flowTs[row] = ts;
                table.flowPhase[row] = (byte) ph;
                return;
            }
            case 'B': case 'E':
                table.durationPairEvents++;
                return;
            case 'M':
                table.metadataEvents++;
                return;
            default:
        }
    }

    private byte kindOf(int category) {
        if (category < 0) {
            return EventKind.OTHER;
        }
        if (category >= kindOfCategory.length) {
            byte[] more = filled(Math.max(category + 1, kindOfCategory.length * 2));
            System.arraycopy(kindOfCategory, 0, more, 0, kindOfCategory.length);
            kindOfCategory = more;
        }
        byte k = kindOfCategory[category];
        if (k < 0) {
            k = EventKind.ofCategory(categories.get(category));
            kindOfCategory[category] = k;
        }
        return k;
    }

    private static byte[] filled(int n) {
        byte[] a = new byte[n];
        Arrays.fill(a, (byte) -1);
        return a;
    }

    private void args() throws IOException {
        String key;
        while ((key = p.nextFieldName()) != null) {
            JsonToken v = p.nextToken();
            switch (key) {
                case "External id": case "external id":
                    ext = v == JsonToken.VALUE_NUMBER_INT ? longOr(EventTable.ABSENT) : skip(EventTable.ABSENT);
                    break;
                case "correlation":
                    corr = v == JsonToken.VALUE_NUMBER_INT ? longOr(EventTable.ABSENT) : skip(EventTable.ABSENT);
                    break;
                case "Python id":
                    pyId = intOrAbsent(v);
                    break;
                case "Python parent id":
                    pyParent = intOrAbsent(v);
                    break;
                case "Input Dims":
                    if (v == JsonToken.START_ARRAY) {
                        inputDims();
                    } else {
                        p.skipChildren();
                    }
                    break;
                case "Input type":
                    if (v == JsonToken.START_ARRAY) {
                        inputTypes();
                    } else {
                        p.skipChildren();
                    }
                    break;
                case "Bytes":
                    bytes = v == JsonToken.VALUE_NUMBER_INT ? longOr(EventTable.ABSENT) : skip(EventTable.ABSENT);
                    break;
                case "Addr":
                    addr = v == JsonToken.VALUE_NUMBER_INT ? longOr(EventTable.ABSENT) : skip(EventTable.ABSENT);
                    break;
                case "Total Allocated":
                    total = v == JsonToken.VALUE_NUMBER_INT ? longOr(EventTable.ABSENT) : skip(EventTable.ABSENT);
                    break;
                case "Device Type":
                    deviceType = v == JsonToken.VALUE_NUMBER_INT ? longOr(EventTable.ABSENT) : skip(EventTable.ABSENT);
                    break;
                case "Device Id":
                    deviceId = v == JsonToken.VALUE_NUMBER_INT ? longOr(EventTable.ABSENT) : skip(EventTable.ABSENT);
                    break;
                case "device":
                    deviceIndex = v == JsonToken.VALUE_NUMBER_INT ? longOr(EventTable.ABSENT) : skip(EventTable.ABSENT);
                    break;
                case "stream":
                    streamIndex = v == JsonToken.VALUE_NUMBER_INT ? longOr(EventTable.ABSENT) : skip(EventTable.ABSENT);
                    break;
                default:
                    p.skipChildren();
            }
        }
    }

    private long skip(long value) throws IOException {
        p.skipChildren();
        return value;
    }

    private int intOrAbsent(JsonToken v) throws IOException {
        if (v != JsonToken.VALUE_NUMBER_INT) {
            p.skipChildren();
            return EventTable.NO_ID;
        }
        long value = longOr(EventTable.ABSENT);
        return value > Integer.MIN_VALUE && value <= Integer.MAX_VALUE ? (int) value : EventTable.NO_ID;
    }

    /** A 64-bit integer, or {@code otherwise} for one beyond 64 bits (such as {@code Comms Id}). */
    private long longOr(long otherwise) throws IOException {
        JsonParser.NumberType type = p.getNumberType();
        if (type == JsonParser.NumberType.BIG_INTEGER) {
            return otherwise;
        }
        return p.getLongValue();
    }

    /** Up to 64 dimensions in all; each input's rank (0 for a scalar or a non-tensor). */
    private void inputDims() throws IOException {
        int used = 0;
        JsonToken t;
        while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
            int rank = 0;
            int from = used;
            if (t == JsonToken.START_ARRAY) {
                JsonToken d;
                while ((d = p.nextToken()) != JsonToken.END_ARRAY) {
                    if (d == JsonToken.VALUE_NUMBER_INT && used < dims.length && rank >= 0) {
                        long value = longOr(-1);
                        if (value < 0) {
                            rank = -1;
                        } else {
                            dims[used++] = value;
                            rank++;
                        }
                    } else {
                        p.skipChildren();
                        rank = -1;
                    }
                }
            } else {
                p.skipChildren();
            }
            used = addInput(from, used, rank);
        }
    }

    /**
     * Records an input of {@code rank} whose dimensions are {@code dims[from, used)}, or, when
     * {@code rank} is negative (not a tensor's shape), one of rank 0 without them; returns the
     * dimensions used after it.
     */
    private int addInput(int from, int used, int rank) {
        if (rank < 0) {
            used = from;
            rank = 0;
        }
        if (inputs == inputStart.length) {
            inputStart = Arrays.copyOf(inputStart, inputs * 2);
            inputRank = Arrays.copyOf(inputRank, inputs * 2);
        }
        inputStart[inputs] = from;
        inputRank[inputs] = rank;
        inputs++;
        return used;
    }

    private void inputTypes() throws IOException {
        JsonToken t;
        while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
            if (typeCount == types.length) {
                types = Arrays.copyOf(types, typeCount * 2);
            }
            if (t == JsonToken.VALUE_STRING) {
                types[typeCount++] = table.names.intern(p.getTextCharacters(), p.getTextOffset(), p.getTextLength(),
                        false);
            } else {
                p.skipChildren();
                types[typeCount++] = -1;
            }
        }
    }

    /** What {@link #numericLane} gives for a string that is not a number (never a number's value). */
    private static final long NOT_NUMERIC = Long.MIN_VALUE;

    /**
     * The value of a numeric string of a pid or tid ({@code "25738"}, {@code "-3"}: up to 18 digits,
     * the same thread as the number), or {@link #NOT_NUMERIC}.
     */
    private static long numericLane(char[] c, int off, int len) {
        if (len <= 0 || len > 18) {
            return NOT_NUMERIC;
        }
        long value = 0;
        int i = c[off] == '-' && len > 1 ? 1 : 0;
        for (int k = i; k < len; k++) {
            char ch = c[off + k];
            if (ch < '0' || ch > '9') {
                return NOT_NUMERIC;
            }
            value = value * 10 + (ch - '0');
        }
        return i == 1 ? -value : value;
    }

    private long laneKey(JsonToken v) throws IOException {
        if (v == JsonToken.VALUE_NUMBER_INT) {
            return longOr(STRING_LANE - 1);
        }
        if (v == JsonToken.VALUE_STRING) {
            char[] c = p.getTextCharacters();
            int off = p.getTextOffset();
            int len = p.getTextLength();
            long number = numericLane(c, off, len);
            return number != NOT_NUMERIC ? number : STRING_LANE + table.names.intern(c, off, len, false);
        }
        p.skipChildren();
        return STRING_LANE - 2;
    }

    /**
     * A time in microseconds as integer nanoseconds, read from the number's text: exact for up to
     * three decimals (Kineto writes three), rounded half to even beyond; exponents are read too.
     */
    private long micros(JsonToken v, String member) throws IOException {
        if (v == JsonToken.VALUE_NUMBER_INT) {
            if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
                throw problem(member, "member `" + member + "` is out of range");
            }
            long us = p.getLongValue();
            if (us > MAX_MICROS || us < -MAX_MICROS) {
                throw problem(member, "member `" + member + "` is out of range: " + us);
            }
            return us * 1000;
        }
        if (v == JsonToken.VALUE_NUMBER_FLOAT) {
            long ns = decimalNanos(p.getTextCharacters(), p.getTextOffset(), p.getTextLength());
            if (ns == EventTable.ABSENT) {
                try {
                    java.math.BigDecimal exact = new java.math.BigDecimal(p.getText()).movePointRight(3)
                            .setScale(0, java.math.RoundingMode.HALF_EVEN);
                    return exact.longValueExact();
                } catch (ArithmeticException | NumberFormatException e) {
                    throw problem(member, "member `" + member + "` is out of range: " + p.getText());
                }
            }
            return ns;
        }
        if (v == JsonToken.VALUE_NULL) {
            return EventTable.ABSENT;
        }
        p.skipChildren();
        throw problem(member, "member `" + member + "` must be a number, found " + describe(v));
    }

    /** Plain decimals ({@code -12.345}) with up to 15 integer digits; ABSENT for anything else. */
    static long decimalNanos(char[] c, int off, int len) {
        int i = off;
        int end = off + len;
        boolean negative = false;
        if (i < end && c[i] == '-') {
            negative = true;
            i++;
        }
        long whole = 0;
        int digits = 0;
        while (i < end && c[i] >= '0' && c[i] <= '9') {
            whole = whole * 10 + (c[i++] - '0');
            if (++digits > 15) {
                return EventTable.ABSENT;
            }
        }
        long frac = 0;
        int fracDigits = 0;
        boolean roundUp = false;
        boolean sticky = false;
        int firstDropped = -1;
        if (i < end && c[i] == '.') {
            i++;
            while (i < end && c[i] >= '0' && c[i] <= '9') {
                int d = c[i++] - '0';
                if (fracDigits < 3) {
                    frac = frac * 10 + d;
                    fracDigits++;
                } else if (firstDropped < 0) {
                    firstDropped = d;
                } else if (d != 0) {
                    sticky = true;
                }
            }
        }
        if (i != end || digits == 0) {
            return EventTable.ABSENT;
        }
        while (fracDigits < 3) {
            frac *= 10;
            fracDigits++;
        }
        long ns = whole * 1000 + frac;
        if (firstDropped > 5 || (firstDropped == 5 && (sticky || (ns & 1) == 1))) {
            roundUp = true;
        }
        if (roundUp) {
            ns++;
        }
        return negative ? -ns : ns;
    }

    // ---- The common shape of an event, read from its bytes --------------------------------------
    //
    // Kineto writes every event the same way: a flat object of ASCII strings without escapes,
    // plain integers and decimals, and `args` of small arrays. Such an event is read here straight
    // from the block's bytes into the members above, the same values Jackson's tokens give; at the
    // first byte of anything else (an escape, a byte beyond ASCII, an integer of more than 18 digits,
    // deep nesting, a value a member refuses, any JSON error) the event is read
    // again from its start by Jackson, which gives the values or the error exactly as before. The
    // names are interned in the order Jackson meets them, so an event read again interns the same
    // names in the same order: their ids do not change.

    /** Events read again by Jackson in a block, beyond which Jackson reads the rest of it. */
    private static final int MAX_FALLBACKS = 256;
    private static final byte BAD = 0;
    private static final byte INT = 1;
    private static final byte FLOAT = 2;
    private static final byte STRING = 3;
    private static final byte LITERAL_NULL = 4;
    private static final byte OTHER = 5;
    /** Bytes a fast string may hold: printable ASCII but the quote and the backslash. */
    private static final boolean[] PLAIN = new boolean[256];

    static {
        for (int c = 0x20; c < 0x80; c++) {
            PLAIN[c] = c != '"' && c != '\\';
        }
    }

    private static final java.lang.invoke.VarHandle LONGS = java.lang.invoke.MethodHandles
            .byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;

    private byte[] b;
    private int end;
    private int pos;
    /** Line breaks (as Jackson counts them: LF, CR, CR LF) from the block's start to {@link #pos}. */
    private long breaks;
    /** The last string's bytes: {@code b[strFrom, strFrom + strLen)}. */
    private int strFrom;
    private int strLen;
    /** The last integer's value, or the last decimal's bytes from {@link #strFrom}. */
    private long intValue;
    private char[] chars = new char[256];
    /** Ids of names already met, by their bytes: event names (addresses dropped), other names, categories. */
    private final ByteIds eventNames = new ByteIds();
    private final ByteIds otherNames = new ByteIds();
    private final ByteIds categoryNames = new ByteIds();

    /**
     * The names id of the last string: looked up by its bytes, or interned from its characters the
     * first time (as Jackson's characters would be, so in the same order and to the same id).
     */
    private int intern(ByteIds known, Names names, boolean dropAddresses) {
        int h = known.hash(b, strFrom, strLen);
        int id = known.get(b, strFrom, strLen, h);
        if (id < 0) {
            id = names.intern(stringChars(), 0, strLen, dropAddresses);
            known.put(b, strFrom, strLen, h, id);
        }
        return id;
    }

    /** Ids by byte strings: an open-addressing table in front of a {@link Names}. */
    private static final class ByteIds {
        private byte[][] keys = new byte[1024][];
        private int[] ids = new int[1024];
        private int[] hashes = new int[1024];
        private int count;

        int hash(byte[] buf, int from, int length) {
            long h = length;
            int i = from;
            int to = from + length;
            for (; i + 8 <= to; i += 8) {
                h = (h ^ (long) LONGS.get(buf, i)) * 0x9E3779B97F4A7C15L;
            }
            long tail = 0;
            for (; i < to; i++) {
                tail = (tail << 8) | (buf[i] & 0xff);
            }
            h = (h ^ tail) * 0x9E3779B97F4A7C15L;
            return (int) (h ^ (h >>> 32));
        }

        int get(byte[] buf, int from, int length, int h) {
            int mask = keys.length - 1;
            for (int slot = h & mask; ; slot = (slot + 1) & mask) {
                byte[] key = keys[slot];
                if (key == null) {
                    return -1;
                }
                if (hashes[slot] == h && Arrays.equals(key, 0, key.length, buf, from, from + length)) {
                    return ids[slot];
                }
            }
        }

        void put(byte[] buf, int from, int length, int h, int id) {
            if ((count + 1) * 2 > keys.length) {
                byte[][] oldKeys = keys;
                int[] oldIds = ids;
                int[] oldHashes = hashes;
                keys = new byte[oldKeys.length * 2][];
                ids = new int[keys.length];
                hashes = new int[keys.length];
                for (int k = 0; k < oldKeys.length; k++) {
                    if (oldKeys[k] != null) {
                        insert(oldKeys[k], oldHashes[k], oldIds[k]);
                    }
                }
            }
            insert(Arrays.copyOfRange(buf, from, from + length), h, id);
            count++;
        }

        private void insert(byte[] key, int h, int id) {
            int mask = keys.length - 1;
            int slot = h & mask;
            while (keys[slot] != null) {
                slot = (slot + 1) & mask;
            }
            keys[slot] = key;
            hashes[slot] = h;
            ids[slot] = id;
        }
    }

    private void blockEvents(byte[] buf, int from, int to, long lines) throws IOException {
        b = buf;
        end = to;
        pos = from;
        breaks = 0;
        int fallbacks = 0;
        while (ws()) {
            int start = pos;
            long startBreaks = breaks;
            if (b[pos] == '{' && fastEvent()) {
                continue;
            }
            pos = start;
            breaks = startBreaks;
            if (++fallbacks > MAX_FALLBACKS) {
                jacksonEvents(buf, start, to, lines + breaks);
                return;
            }
            int after = jacksonEvent(buf, start, to, lines + breaks);
            countBreaks(start, after);
            pos = after;
        }
    }

    /** Counts the line breaks of {@code b[from, to)}, JSON that Jackson read (no raw breaks in strings). */
    private void countBreaks(int from, int to) {
        for (int i = from; i < to; i++) {
            byte c = b[i];
            if (c == '\n') {
                breaks++;
            } else if (c == '\r') {
                breaks++;
                if (i + 1 < to && b[i + 1] == '\n') {
                    i++;
                }
            }
        }
    }

    /** Skips white space; whether a byte follows in the block. */
    private boolean ws() {
        int i = pos;
        while (i < end) {
            byte c = b[i];
            if (c == ' ') {
                // A run of spaces (Kineto's indentation) eight at a time.
                i++;
                while (i + 8 <= end) {
                    long x = (long) LONGS.get(b, i) ^ (ONES * ' ');
                    if (x != 0) {
                        i += Long.numberOfTrailingZeros(x) >>> 3;
                        break;
                    }
                    i += 8;
                }
            } else if (c == '\t') {
                i++;
            } else if (c == '\n') {
                breaks++;
                i++;
            } else if (c == '\r') {
                breaks++;
                i++;
                if (i < end && b[i] == '\n') {
                    i++;
                }
            } else {
                break;
            }
        }
        pos = i;
        return i < end;
    }

    /** A string at {@link #pos} (its quote): its bytes in strFrom/strLen; false if not plain. */
    private boolean string() {
        int i = pos + 1;
        int from = i;
        // Eight bytes at a time to the first that may not be plain (a quote, a backslash, a
        // control character, a byte beyond ASCII), then byte by byte.
        while (i + 8 <= end) {
            long w = (long) LONGS.get(b, i);
            long q = w ^ (ONES * '"');
            long s = w ^ (ONES * '\\');
            long m = (((q - ONES) & ~q) | ((s - ONES) & ~s) | ((w - ONES * 0x20) & ~w) | w) & HIGHS;
            if (m != 0) {
                i += Long.numberOfTrailingZeros(m) >>> 3;
                break;
            }
            i += 8;
        }
        while (i < end && PLAIN[b[i] & 0xff]) {
            i++;
        }
        if (i >= end || b[i] != '"') {
            return false;
        }
        strFrom = from;
        strLen = i - from;
        pos = i + 1;
        return true;
    }

    private static boolean delimiter(byte c) {
        return c == ',' || c == '}' || c == ']' || c == ' ' || c == '\n' || c == '\r' || c == '\t';
    }

    /**
     * A number at {@link #pos}: INT (value in intValue, at most 18 digits), FLOAT (a decimal or a
     * number with an exponent, its bytes in strFrom/strLen) or BAD (more digits, not JSON).
     */
    private byte number() {
        int i = pos;
        int from = i;
        boolean negative = false;
        if (b[i] == '-') {
            negative = true;
            i++;
        }
        if (i >= end) {
            return BAD;
        }
        long value = 0;
        int digitsFrom = i;
        byte c = b[i];
        if (c == '0') {
            i++;
        } else if (c >= '1' && c <= '9') {
            while (i < end && (c = b[i]) >= '0' && c <= '9') {
                value = value * 10 + (c - '0');
                i++;
                if (i - digitsFrom > 18) {
                    return BAD;
                }
            }
        } else {
            return BAD;
        }
        boolean decimal = false;
        if (i < end && b[i] == '.') {
            i++;
            int fraction = i;
            while (i < end && (c = b[i]) >= '0' && c <= '9') {
                i++;
            }
            if (i == fraction || i - from > 64) {
                return BAD;
            }
            decimal = true;
        }
        if (i < end && (b[i] == 'e' || b[i] == 'E')) {
            i++;
            if (i < end && (b[i] == '+' || b[i] == '-')) {
                i++;
            }
            int exponent = i;
            while (i < end && (c = b[i]) >= '0' && c <= '9') {
                i++;
            }
            if (i == exponent || i - from > 64) {
                return BAD;
            }
            decimal = true;
        }
        if (i >= end || !delimiter(b[i])) {
            return BAD;
        }
        pos = i;
        if (decimal) {
            strFrom = from;
            strLen = i - from;
            return FLOAT;
        }
        intValue = negative ? -value : value;
        return INT;
    }

    /** {@code true}, {@code false} or {@code null} at {@link #pos}: LITERAL_NULL, OTHER or BAD. */
    private byte literal() {
        byte c = b[pos];
        int n = c == 'f' ? 5 : 4;
        if (pos + n >= end) {
            return BAD;
        }
        boolean match = c == 't' ? b[pos + 1] == 'r' && b[pos + 2] == 'u' && b[pos + 3] == 'e'
                : c == 'n' ? b[pos + 1] == 'u' && b[pos + 2] == 'l' && b[pos + 3] == 'l'
                : b[pos + 1] == 'a' && b[pos + 2] == 'l' && b[pos + 3] == 's' && b[pos + 4] == 'e';
        if (!match || !delimiter(b[pos + n])) {
            return BAD;
        }
        pos += n;
        return c == 'n' ? LITERAL_NULL : OTHER;
    }

    /** The scalar at {@link #pos}, read; or OTHER at a `{` or `[` (not consumed); or BAD. */
    private byte scalar() {
        byte c = b[pos];
        if (c == '"') {
            return string() ? STRING : BAD;
        }
        if (c == '{' || c == '[') {
            return OTHER;
        }
        if (c == 't' || c == 'f' || c == 'n') {
            return literal();
        }
        return number();
    }

    /** Skips the value at {@link #pos}, whatever it is; false if it is not of the plain kind. */
    private boolean skipValue(int depth) {
        byte c = b[pos];
        if (c == '{' || c == '[') {
            return depth < 32 && skipContainer(depth + 1);
        }
        return scalar() != BAD;
    }

    private boolean skipContainer(int depth) {
        boolean object = b[pos] == '{';
        byte close = object ? (byte) '}' : (byte) ']';
        pos++;
        if (!ws()) {
            return false;
        }
        if (b[pos] == close) {
            pos++;
            return true;
        }
        while (true) {
            if (object) {
                if (b[pos] != '"' || !string() || !ws() || b[pos] != ':') {
                    return false;
                }
                pos++;
                if (!ws()) {
                    return false;
                }
            }
            if (!skipValue(depth)) {
                return false;
            }
            int next = next(close);
            if (next <= 0) {
                return next == 0;
            }
        }
    }

    /**
     * After a value in an array or object: 1 at a comma (then at the next value), 0 at {@code close}
     * (then past it), -1 at anything else or the block's end (Jackson reads the event).
     */
    private int next(byte close) {
        if (!ws()) {
            return -1;
        }
        byte c = b[pos++];
        if (c == close) {
            return 0;
        }
        return c == ',' && ws() ? 1 : -1;
    }

    /** The last string's bytes as characters in {@link #chars} (ASCII: one char a byte). */
    private char[] stringChars() {
        if (chars.length < strLen) {
            chars = new char[Math.max(strLen, chars.length * 2)];
        }
        for (int k = 0; k < strLen; k++) {
            chars[k] = (char) b[strFrom + k];
        }
        return chars;
    }

    /** The first sixteen bytes of a key, little-endian, as two longs (zero past its end). */
    private static long pack(String key, int from) {
        long w = 0;
        for (int k = Math.min(key.length(), from + 8) - 1; k >= from; k--) {
            w = (w << 8) | key.charAt(k);
        }
        return w;
    }

    /** Bytes {@code b[from, from + n)}, {@code n <= 8}, little-endian as a long (zero past them). */
    private long word(int from, int n) {
        if (n <= 0) {
            return 0;
        }
        if (n > 8) {
            n = 8;
        }
        if (from + 8 <= end) {
            long w = (long) LONGS.get(b, from);
            return n == 8 ? w : w & ((1L << (n << 3)) - 1);
        }
        long w = 0;
        for (int k = n - 1; k >= 0; k--) {
            w = (w << 8) | (b[from + k] & 0xff);
        }
        return w;
    }

    private static final long PH = pack("ph", 0);
    private static final long CAT = pack("cat", 0);
    private static final long NAME = pack("name", 0);
    private static final long PID = pack("pid", 0);
    private static final long TID = pack("tid", 0);
    private static final long TS = pack("ts", 0);
    private static final long DUR = pack("dur", 0);
    private static final long ID = pack("id", 0);
    private static final long ARGS_KEY = pack("args", 0);
    private static final long[] EXTERNAL_ID = {pack("External id", 0), pack("External id", 8)};
    private static final long[] EXTERNAL_ID_LOWER = {pack("external id", 0), pack("external id", 8)};
    private static final long[] CORRELATION = {pack("correlation", 0), pack("correlation", 8)};
    private static final long[] DEVICE_TYPE = {pack("Device Type", 0), pack("Device Type", 8)};
    private static final long[] PYTHON_ID = {pack("Python id", 0), pack("Python id", 8)};
    private static final long[] DEVICE_ID = {pack("Device Id", 0), pack("Device Id", 8)};
    private static final long[] PYTHON_PARENT = {pack("Python parent id", 0), pack("Python parent id", 8)};
    private static final long[] INPUT_DIMS = {pack("Input Dims", 0), pack("Input Dims", 8)};
    private static final long[] INPUT_TYPE = {pack("Input type", 0), pack("Input type", 8)};
    private static final long BYTES = pack("Bytes", 0);
    private static final long ADDR = pack("Addr", 0);
    private static final long[] TOTAL = {pack("Total Allocated", 0), pack("Total Allocated", 8)};
    private static final long DEVICE = pack("device", 0);
    private static final long STREAM = pack("stream", 0);

    /** The key just read ({@link #strLen} bytes), packed: its first eight bytes and the next eight. */
    private long key0;
    private long key1;

    private boolean keyIs(long[] key) {
        return key0 == key[0] && key1 == key[1];
    }

    /**
     * An object's members at {@link #pos} (its `{`), each handed to {@code member} with the key in
     * strFrom/strLen and {@link #pos} at the value; false at anything not plain.
     */
    private boolean members(boolean event) {
        pos++;
        if (!ws()) {
            return false;
        }
        if (b[pos] == '}') {
            pos++;
            return true;
        }
        while (true) {
            if (b[pos] != '"' || !string()) {
                return false;
            }
            key0 = word(strFrom, strLen);
            key1 = word(strFrom + 8, strLen - 8);
            int n = strLen;
            if (!ws() || b[pos] != ':') {
                return false;
            }
            pos++;
            if (!ws()) {
                return false;
            }
            if (!(event ? eventMember(n) : argsMember(n))) {
                return false;
            }
            int next = next((byte) '}');
            if (next <= 0) {
                return next == 0;
            }
        }
    }

    /** One event at {@link #pos} (its `{`), stored; false (nothing stored) if Jackson must read it. */
    private boolean fastEvent() throws IOException {
        reset();
        if (!members(true)) {
            return false;
        }
        // What store() would refuse: Jackson reads the event again and words the problem.
        if (ph == 'X') {
            byte kind = kindOf(cat);
            if (kind != EventKind.IGNORED && kind != EventKind.DEVICE_OTHER
                    && (ts == EventTable.ABSENT || dur == EventTable.ABSENT || dur < 0)) {
                return false;
            }
        } else if ((ph == 'i' || ph == 'I') && ts == EventTable.ABSENT && nameId >= 0
                && table.names.get(nameId).equals("[memory]")) {
            return false;
        }
        store();
        return true;
    }

    private boolean eventMember(int n) {
        if (n == 2 && key0 == PH) {
            byte v = scalar();
            if (v == STRING) {
                if (strLen > 0) {
                    ph = strLen == 1 ? b[strFrom] : '?';
                }
                return true;
            }
            return skipRest(v);
        }
        if (n == 3 && key0 == CAT) {
            byte v = scalar();
            if (v == STRING) {
                cat = intern(categoryNames, categories, false);
                return true;
            }
            return skipRest(v);
        }
        if (n == 4 && key0 == NAME) {
            byte v = scalar();
            if (v == STRING) {
                nameId = intern(eventNames, table.names, true);
                return true;
            }
            return skipRest(v);
        }
        if (n == 3 && key0 == PID) {
            long lane = fastLaneKey();
            pid = lane;
            return lane != EventTable.ABSENT;
        }
        if (n == 3 && key0 == TID) {
            long lane = fastLaneKey();
            tid = lane;
            return lane != EventTable.ABSENT;
        }
        if (n == 2 && key0 == TS) {
            long v = fastMicros();
            ts = v;
            return v != BAD_MICROS;
        }
        if (n == 3 && key0 == DUR) {
            long v = fastMicros();
            dur = v;
            return v != BAD_MICROS;
        }
        if (n == 2 && key0 == ID) {
            byte v = scalar();
            if (v == INT) {
                flowIdValue = intValue;
                return true;
            }
            if (v == STRING) {
                flowIdValue = STRING_LANE + intern(otherNames, table.names, false);
                return true;
            }
            return skipRest(v);
        }
        if (n == 4 && key0 == ARGS_KEY) {
            if (b[pos] == '{') {
                return members(false);
            }
            return skipValue(0);
        }
        return skipValue(0);
    }

    /** After {@link #scalar}: a container still to skip, or whether the scalar was plain. */
    private boolean skipRest(byte v) {
        return v == OTHER && (b[pos] == '{' || b[pos] == '[') ? skipValue(0) : v != BAD;
    }

    /** A member that is a 64-bit integer or ABSENT; BAD_MICROS when not plain. */
    private long fastLong() {
        byte v = scalar();
        if (v == INT) {
            return intValue;
        }
        return skipRest(v) ? EventTable.ABSENT : BAD_MICROS;
    }

    private static final long BAD_MICROS = Long.MIN_VALUE + 1;

    private boolean argsMember(int n) {
        long v;
        switch (n) {
            case 11:
                if (keyIs(EXTERNAL_ID) || keyIs(EXTERNAL_ID_LOWER)) {
                    return (ext = fastLong()) != BAD_MICROS;
                }
                if (keyIs(CORRELATION)) {
                    return (corr = fastLong()) != BAD_MICROS;
                }
                if (keyIs(DEVICE_TYPE)) {
                    return (deviceType = fastLong()) != BAD_MICROS;
                }
                break;
            case 9:
                if (keyIs(PYTHON_ID)) {
                    v = fastLong();
                    pyId = v > Integer.MIN_VALUE && v <= Integer.MAX_VALUE ? (int) v : EventTable.NO_ID;
                    return v != BAD_MICROS;
                }
                if (keyIs(DEVICE_ID)) {
                    return (deviceId = fastLong()) != BAD_MICROS;
                }
                break;
            case 16:
                if (keyIs(PYTHON_PARENT)) {
                    v = fastLong();
                    pyParent = v > Integer.MIN_VALUE && v <= Integer.MAX_VALUE ? (int) v : EventTable.NO_ID;
                    return v != BAD_MICROS;
                }
                break;
            case 10:
                if (keyIs(INPUT_DIMS)) {
                    return b[pos] == '[' ? fastInputDims() : skipValue(0);
                }
                if (keyIs(INPUT_TYPE)) {
                    return b[pos] == '[' ? fastInputTypes() : skipValue(0);
                }
                break;
            case 5:
                if (key0 == BYTES) {
                    return (bytes = fastLong()) != BAD_MICROS;
                }
                break;
            case 4:
                if (key0 == ADDR) {
                    return (addr = fastLong()) != BAD_MICROS;
                }
                break;
            case 15:
                if (keyIs(TOTAL)) {
                    return (total = fastLong()) != BAD_MICROS;
                }
                break;
            case 6:
                if (key0 == DEVICE) {
                    return (deviceIndex = fastLong()) != BAD_MICROS;
                }
                if (key0 == STREAM) {
                    return (streamIndex = fastLong()) != BAD_MICROS;
                }
                break;
            default:
                break;
        }
        return skipValue(0);
    }

    /** As {@link #inputDims}: the array at {@link #pos}. */
    private boolean fastInputDims() {
        int used = 0;
        pos++;
        if (!ws()) {
            return false;
        }
        boolean first = true;
        while (true) {
            if (b[pos] == ']' && first) {
                pos++;
                return true;
            }
            first = false;
            int rank = 0;
            int from = used;
            if (b[pos] == '[') {
                pos++;
                if (!ws()) {
                    return false;
                }
                if (b[pos] == ']') {
                    pos++;
                } else {
                    while (true) {
                        byte d = scalar();
                        if (d == INT && used < dims.length && rank >= 0) {
                            if (intValue < 0) {
                                rank = -1;
                            } else {
                                dims[used++] = intValue;
                                rank++;
                            }
                        } else {
                            if (!skipRest(d)) {
                                return false;
                            }
                            rank = -1;
                        }
                        int next = next((byte) ']');
                        if (next < 0) {
                            return false;
                        }
                        if (next == 0) {
                            break;
                        }
                    }
                }
            } else if (!skipValue(0)) {
                return false;
            }
            used = addInput(from, used, rank);
            int next = next((byte) ']');
            if (next <= 0) {
                return next == 0;
            }
        }
    }

    /** As {@link #inputTypes}: the array at {@link #pos}. */
    private boolean fastInputTypes() {
        pos++;
        if (!ws()) {
            return false;
        }
        if (b[pos] == ']') {
            pos++;
            return true;
        }
        while (true) {
            if (typeCount == types.length) {
                types = Arrays.copyOf(types, typeCount * 2);
            }
            byte v = scalar();
            if (v == STRING) {
                types[typeCount++] = intern(otherNames, table.names, false);
            } else {
                if (!skipRest(v)) {
                    return false;
                }
                types[typeCount++] = -1;
            }
            int next = next((byte) ']');
            if (next <= 0) {
                return next == 0;
            }
        }
    }

    /** As {@link #laneKey}; ABSENT when Jackson must read the event. */
    private long fastLaneKey() {
        byte v = scalar();
        if (v == INT) {
            return intValue;
        }
        if (v == STRING) {
            char[] c = stringChars();
            int len = strLen;
            long number = numericLane(c, 0, len);
            return number != NOT_NUMERIC ? number : STRING_LANE + table.names.intern(c, 0, len, false);
        }
        return skipRest(v) ? STRING_LANE - 2 : EventTable.ABSENT;
    }

    /** As {@link #micros}; BAD_MICROS where Jackson must read the event (or refuse it). */
    private long fastMicros() {
        byte v = scalar();
        if (v == INT) {
            return intValue > MAX_MICROS || intValue < -MAX_MICROS ? BAD_MICROS : intValue * 1000;
        }
        if (v == FLOAT) {
            long ns = decimalNanos(stringChars(), 0, strLen);
            return ns == EventTable.ABSENT ? BAD_MICROS : ns;
        }
        if (v == LITERAL_NULL) {
            return EventTable.ABSENT;
        }
        return BAD_MICROS;
    }
}
