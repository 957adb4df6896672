package io.tracegraph.json.pytorch;

import io.tracegraph.domain.trace.MalformedTraceException;
import io.tracegraph.domain.trace.TraceProblem;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Reads a trace-event document with every core: the calling thread reads the bytes and scans their
 * JSON structure (strings, escapes, brackets: no values) to find where each event of
 * {@code traceEvents} begins and ends, and hands blocks of whole events to worker threads, which
 * parse them with Jackson into tables of their own; the calling thread appends the tables in file
 * order. The members around the events are kept apart and parsed at the end.
 *
 * <p>The commas between events are overwritten with spaces, so that a block is a sequence of JSON
 * objects that Jackson reads one after another. Errors name the file and line: the scanner's own
 * (a document cut short, nesting deeper than 200, a string or event longer than 64 MiB, trailing
 * characters) and Jackson's in each block (line offset by the block's first line); the first in the
 * file wins.
 */
final class TraceFraming {
    static final int BLOCK = 4 << 20;
    private static final int MAX_DEPTH = 200;
    private static final byte[] TRACE_EVENTS = "traceEvents".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    /** Byte classes: 0 ordinary, else one of the structural characters below. */
    private static final byte[] CLASS = new byte[256];

    static {
        for (char c : new char[] {'"', '\\', '{', '}', '[', ']', ',', '\n', ':'}) {
            CLASS[c] = 1;
        }
    }

    private enum Mode { BEFORE, OBJECT, EVENTS, AFTER }

    private static final java.lang.invoke.VarHandle LONGS = java.lang.invoke.MethodHandles
            .byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;

    /** Bits 5, 2 and 1 cleared: {@code { } [ ]} all become 0x59 (so do {@code Y _ y}, harmlessly). */
    private static final long BRACKET_MASK = ONES * 0xD9;

    /**
     * The high bit of each of the eight bytes (little-endian) that may be a quote, a backslash or a
     * line feed (SWAR zero-byte test): 0 when none is; the lowest bit set marks the first one exactly
     * (a zero-byte test only errs above a true zero byte).
     */
    private static long inString(long w) {
        long q = w ^ (ONES * '"');
        long s = w ^ (ONES * '\\');
        long n = w ^ (ONES * '\n');
        return (((q - ONES) & ~q) | ((s - ONES) & ~s) | ((n - ONES) & ~n)) & HIGHS;
    }

    /**
     * The same between strings, for the bytes the event scanner acts on there: a quote, a line
     * feed, a comma and the four brackets (with {@code Y _ y} and DEL as harmless false alarms).
     */
    private static long structural(long w) {
        long q = w ^ (ONES * '"');
        long n = w ^ (ONES * '\n');
        long c = w ^ (ONES * ',');
        long b = (w & BRACKET_MASK) ^ (ONES * 0x59);
        return (((q - ONES) & ~q) | ((n - ONES) & ~n) | ((c - ONES) & ~c) | ((b - ONES) & ~b)) & HIGHS;
    }

    private final String source;
    private final InputStream in;
    private final int threads;

    // Scanner state, carried from buffer to buffer.
    private Mode mode = Mode.BEFORE;
    private int depth;
    private boolean inString;
    private boolean escaped;
    private int arrayDepth = -1;
    private boolean expectKey;
    private boolean keyIsTraceEvents;
    private int keyLength;
    private boolean afterTraceEventsKey;
    private long line = 1;
    private long position;
    private long stringStart;
    private long eventStart = -1;
    private final ByteArrayOutputStream header = new ByteArrayOutputStream();

    private TraceFraming(String source, InputStream in, int threads) {
        this.source = source;
        this.in = in;
        this.threads = threads;
    }

    static EventTable read(String source, InputStream in, int threads) throws IOException {
        return new TraceFraming(source, in, threads).run();
    }

    /** A block of whole events handed to a worker. */
    private record Block(byte[] buf, int from, int to, long firstLine) {
    }

    /** The bytes the stream says it holds (a file's size; 0 when it cannot tell or is small). */
    private long expectedBytes;
    /** The bytes of the blocks appended so far. */
    private long appendedBytes;

    private EventTable run() throws IOException {
        EventTable table = new EventTable();
        // A file says how many bytes are left; a gzip stream says 1 (taken as unknown). Asked again
        // after the first block: a stream that starts with bytes already read (input discovery
        // gives the sniffed head back in front of the file) tells only those at first.
        int available = in.available();
        expectedBytes = available >= BLOCK ? available : 0;
        boolean firstBlock = true;
        ExecutorService pool = null;
        ArrayDeque<Future<EventTable>> inFlight = new ArrayDeque<>();
        ArrayDeque<byte[]> inFlightBuffers = new ArrayDeque<>();
        ArrayDeque<Integer> inFlightBytes = new ArrayDeque<>();
        ArrayDeque<byte[]> spare = new ArrayDeque<>();
        MalformedTraceException scanError = null;
        try {
            byte[] buf = new byte[BLOCK];
            int carry = 0;
            boolean eof = false;
            while (!eof) {
                int filled = carry;
                int read;
                while (filled < buf.length && (read = in.read(buf, filled, buf.length - filled)) > 0) {
                    filled += read;
                }
                eof = filled < buf.length;
                if (firstBlock) {
                    firstBlock = false;
                    int more = eof ? 0 : availableOrNone();
                    if (expectedBytes == 0 && more >= BLOCK) {
                        expectedBytes = (long) filled + more;
                    }
                }
                try {
                    scan(buf, carry, filled);
                } catch (MalformedTraceException e) {
                    scanError = e;
                    break;
                }
                if (blockFrom >= 0 && blockTo > blockFrom && hasContent(buf, blockFrom, blockTo)) {
                    Block block = new Block(buf, blockFrom, blockTo, blockLine);
                    if (eof && inFlight.isEmpty()) {
                        append(table, parse(block), blockTo - blockFrom);
                    } else {
                        if (pool == null) {
                            pool = Executors.newFixedThreadPool(threads, TraceFraming::daemon);
                        }
                        inFlight.add(pool.submit(() -> parse(block)));
                        inFlightBuffers.add(buf);
                        inFlightBytes.add(blockTo - blockFrom);
                    }
                }
                while (inFlight.size() > threads) {
                    append(table, await(inFlight.poll()), inFlightBytes.poll());
                    recycle(inFlightBuffers.poll(), spare);
                }
                int rest = filled - keepFrom;
                byte[] next = rest <= BLOCK / 2 && !spare.isEmpty() ? spare.poll() : new byte[Math.max(BLOCK, rest * 2)];
                System.arraycopy(buf, keepFrom, next, 0, rest);
                if (inFlightBuffers.peekLast() != buf) {
                    recycle(buf, spare);
                }
                buf = next;
                carry = rest;
            }
            while (!inFlight.isEmpty()) {
                append(table, await(inFlight.poll()), inFlightBytes.poll());
            }
        } finally {
            for (Future<EventTable> f : inFlight) {
                f.cancel(true);
            }
            if (pool != null) {
                pool.shutdownNow();
            }
        }
        if (scanError != null) {
            throw scanError;
        }
        if (mode != Mode.AFTER) {
            throw problem(mode == Mode.BEFORE ? "the file is empty: expected a JSON object with `traceEvents`, "
                    + "or an array of trace events" : "invalid JSON: unexpected end of input (the file is cut short)");
        }
        if (arrayDepth == 1) {
            return table;
        }
        byte[] h = header.toByteArray();
        ChromeTraceParser.parseHeader(source, h, h.length, table);
        return table;
    }

    /**
     * Appends a parsed block. Once an eighth of a file of known size is in, a column that must grow
     * grows at once to what the whole file will hold at the rate seen so far (plus 5%), instead of
     * by halves: for a 1 GB trace, ~400 MB fewer bytes allocated and copied, in columns so big that
     * each growth is a humongous allocation for G1 (which starts concurrent cycles).
     */
    private void append(EventTable table, EventTable part, int bytes) {
        appendedBytes += bytes;
        if (expectedBytes > 0 && appendedBytes >= expectedBytes / 8) {
            table.reserve(table.size + part.size, table.memSize + part.memSize, table.flowSize + part.flowSize,
                    (double) expectedBytes / appendedBytes * 1.05);
        }
        table.append(part);
    }

    /** What the stream says it holds still, 0 when it cannot say (its failure is met by the next read). */
    private int availableOrNone() {
        try {
            return in.available();
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** Keeps a parsed block's buffer for reuse (buffers of the usual size only, a few of them). */
    private static void recycle(byte[] buf, ArrayDeque<byte[]> spare) {
        if (buf != null && buf.length == BLOCK && spare.size() < 4) {
            spare.add(buf);
        }
    }

    private static boolean hasContent(byte[] buf, int from, int to) {
        for (int i = from; i < to; i++) {
            byte b = buf[i];
            if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
                return true;
            }
        }
        return false;
    }

    private EventTable parse(Block b) throws IOException {
        return ChromeTraceParser.parseEvents(source, b.buf, b.from, b.to, b.firstLine);
    }

    private EventTable await(Future<EventTable> f) throws IOException {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("reading " + source);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            if (cause instanceof IOException io) {
                throw io;
            }
            throw new UncheckedIOException(new IOException(cause));
        }
    }

    private static Thread daemon(Runnable r) {
        Thread t = new Thread(r, "pytorch-trace-parser");
        t.setDaemon(true);
        return t;
    }

    // What one scan found: the block of whole events, and where the next buffer starts.
    private int blockFrom;
    private int blockTo;
    private long blockLine;
    private int keepFrom;
    /** The line at keepFrom: the first line of the next buffer. */
    private long keepLine = 1;
    private int lastEventEnd;
    private long lastEventLine;
    private int headerFrom;

    /**
     * Scans {@code buf[from, to)}; {@code buf[0, from)} was carried over from the buffer before
     * (part of an event, scanned then). Sets the block of whole events found ({@link #blockFrom}
     * to {@link #blockTo}, first line {@link #blockLine}) and where the bytes to carry on start
     * ({@link #keepFrom}); bytes outside the events array go to the header.
     */
    private void scan(byte[] buf, int from, int to) {
        blockFrom = mode == Mode.EVENTS ? 0 : -1;
        blockTo = -1;
        blockLine = keepLine;
        lastEventEnd = -1;
        lastEventLine = keepLine;
        headerFrom = mode == Mode.OBJECT ? from : -1;
        int i = from;
        if (mode == Mode.BEFORE && position == 0 && to - i >= 3 && (buf[i] & 0xff) == 0xEF
                && (buf[i + 1] & 0xff) == 0xBB && (buf[i + 2] & 0xff) == 0xBF) {
            i += 3;
        }
        long base = position - from;
        for (; i < to; i++) {
            if (mode == Mode.EVENTS) {
                i = scanEvents(buf, i, to, base);
                if (i >= to) {
                    break;
                }
                continue; // i is the array's `]`, consumed
            }
            byte b = buf[i];
            if (CLASS[b & 0xff] == 0) {
                if (inString) {
                    if (escaped) {
                        escaped = false;
                        keyIsTraceEvents = false;
                    } else if (keyLength >= 0) {
                        keyIsTraceEvents = keyIsTraceEvents && keyLength < TRACE_EVENTS.length
                                && TRACE_EVENTS[keyLength] == b;
                        keyLength++;
                    }
                } else if (mode != Mode.EVENTS && b != ' ' && b != '\t' && b != '\r') {
                    if (mode == Mode.BEFORE || mode == Mode.AFTER) {
                        position = base + i;
                        throw problem(mode == Mode.BEFORE
                                ? "expected a JSON object with `traceEvents`, or an array of trace events"
                                : "trailing characters after the trace document");
                    }
                    afterTraceEventsKey = false;
                }
                continue;
            }
            if (b == '\n') {
                line++;
                continue;
            }
            if (inString) {
                if (escaped) {
                    escaped = false;
                    keyIsTraceEvents = false;
                } else if (b == '\\') {
                    escaped = true;
                } else if (b == '"') {
                    inString = false;
                    if (base + i - stringStart > ChromeTraceParser.MAX_EVENT_BYTES) {
                        position = base + i;
                        throw problem("string is longer than " + ChromeTraceParser.MAX_EVENT_BYTES + " bytes");
                    }
                    if (keyLength >= 0) {
                        keyIsTraceEvents = keyIsTraceEvents && keyLength == TRACE_EVENTS.length;
                        keyLength = -1;
                        expectKey = false;
                    }
                } else if (keyLength >= 0) {
                    keyIsTraceEvents = false;
                    keyLength++;
                }
                continue;
            }
            switch (b) {
                case '"':
                    inString = true;
                    escaped = false;
                    stringStart = base + i;
                    keyLength = -1;
                    if (mode == Mode.OBJECT && depth == 1 && expectKey) {
                        keyLength = 0;
                        keyIsTraceEvents = true;
                    } else if (mode == Mode.BEFORE || mode == Mode.AFTER) {
                        position = base + i;
                        throw problem(mode == Mode.BEFORE
                                ? "expected a JSON object with `traceEvents`, or an array of trace events"
                                : "trailing characters after the trace document");
                    } else {
                        afterTraceEventsKey = false;
                    }
                    break;
                case ':':
                    if (mode == Mode.OBJECT && depth == 1 && keyIsTraceEvents) {
                        if (arrayDepth >= 0) {
                            position = base + i;
                            throw problem("duplicate member `traceEvents`");
                        }
                        afterTraceEventsKey = true;
                    }
                    keyIsTraceEvents = false;
                    break;
                case ',':
                    if (mode == Mode.EVENTS && depth == arrayDepth) {
                        buf[i] = ' ';
                    } else if (mode == Mode.OBJECT && depth == 1) {
                        expectKey = true;
                        afterTraceEventsKey = false;
                    }
                    break;
                case '{': case '[':
                    if (mode == Mode.AFTER) {
                        position = base + i;
                        throw problem("trailing characters after the trace document");
                    }
                    if (mode == Mode.BEFORE) {
                        depth = 1;
                        if (b == '[') {
                            arrayDepth = 1;
                            mode = Mode.EVENTS;
                            blockFrom = i + 1;
                            blockLine = line;
                        } else {
                            mode = Mode.OBJECT;
                            expectKey = true;
                            headerFrom = i;
                        }
                        break;
                    }
                    depth++;
                    if (depth > MAX_DEPTH + 2) {
                        position = base + i;
                        throw problem("invalid JSON: nesting deeper than " + MAX_DEPTH + " levels");
                    }
                    if (mode == Mode.OBJECT && depth == 2 && afterTraceEventsKey && b == '[') {
                        mode = Mode.EVENTS;
                        arrayDepth = 2;
                        header.write(buf, headerFrom, i + 1 - headerFrom);
                        headerFrom = -1;
                        blockFrom = i + 1;
                        blockLine = line;
                    } else if (mode == Mode.EVENTS && depth == arrayDepth + 1) {
                        eventStart = base + i;
                    }
                    afterTraceEventsKey = false;
                    break;
                case '}': case ']':
                    if (mode == Mode.BEFORE || mode == Mode.AFTER) {
                        position = base + i;
                        throw problem(mode == Mode.BEFORE
                                ? "expected a JSON object with `traceEvents`, or an array of trace events"
                                : "trailing characters after the trace document");
                    }
                    depth--;
                    if (mode == Mode.EVENTS) {
                        if (depth == arrayDepth) {
                            if (base + i + 1 - eventStart > ChromeTraceParser.MAX_EVENT_BYTES) {
                                position = base + i;
                                throw problem("event is longer than " + ChromeTraceParser.MAX_EVENT_BYTES
                                        + " bytes");
                            }
                            lastEventEnd = i + 1;
                            lastEventLine = line;
                            eventStart = -1;
                        } else if (depth < arrayDepth) {
                            // The end of traceEvents: what follows belongs to the header.
                            blockTo = i;
                            if (arrayDepth == 1) {
                                mode = Mode.AFTER;
                            } else {
                                mode = Mode.OBJECT;
                                headerFrom = i;
                            }
                        }
                    } else if (depth == 0) {
                        mode = Mode.AFTER;
                        header.write(buf, headerFrom, i + 1 - headerFrom);
                        headerFrom = -1;
                    }
                    break;
                default:
                    // A backslash outside a string: the JSON parser words the error.
                    break;
            }
        }
        position = base + to;
        if (inString && position - stringStart > ChromeTraceParser.MAX_EVENT_BYTES) {
            throw problem("string is longer than " + ChromeTraceParser.MAX_EVENT_BYTES + " bytes");
        }
        if (eventStart >= 0 && position - eventStart > ChromeTraceParser.MAX_EVENT_BYTES) {
            throw problem("event is longer than " + ChromeTraceParser.MAX_EVENT_BYTES + " bytes");
        }
        if (headerFrom >= 0) {
            header.write(buf, headerFrom, to - headerFrom);
            if (header.size() > ChromeTraceParser.MAX_EVENT_BYTES) {
                throw problem("the members besides `traceEvents` are longer than "
                        + ChromeTraceParser.MAX_EVENT_BYTES + " bytes");
            }
        }
        if (mode == Mode.EVENTS) {
            blockTo = lastEventEnd >= 0 ? lastEventEnd : blockFrom;
            keepFrom = blockTo;
            keepLine = lastEventEnd >= 0 ? lastEventLine : blockLine;
        } else {
            keepFrom = to;
            keepLine = line;
        }
    }

    /**
     * The hot loop: scans events from {@code i} until the array ends (returns the index of its
     * {@code ]}, with the mode switched) or the buffer does (returns {@code to}). Local variables
     * hold the state. Eight bytes are read at once, inside strings and between them, and the scan
     * jumps to the first that may matter there ({@link #inString}, {@link #structural}): Kineto's
     * indentation, numbers and names are mostly skipped a word at a time instead of byte by byte.
     */
    private int scanEvents(byte[] buf, int i, int to, long base) {
        int d = depth;
        long ln = line;
        boolean str = inString;
        int lastEnd = lastEventEnd;
        long lastLine = lastEventLine;
        final int events = arrayDepth;
        if (str && escaped && i < to) {
            escaped = false;
            if (buf[i] == '\n') {
                ln++;
            }
            i++;
        }
        try {
            while (i < to) {
                if (str) {
                    // Eight bytes at a time, straight to the next quote, backslash or line feed.
                    if (i + 8 <= to) {
                        long m = inString((long) LONGS.get(buf, i));
                        if (m == 0) {
                            i += 8;
                            continue;
                        }
                        i += Long.numberOfTrailingZeros(m) >>> 3;
                    }
                    byte b = buf[i++];
                    if (b == '"') {
                        str = false;
                        if (base + i - stringStart > ChromeTraceParser.MAX_EVENT_BYTES) {
                            position = base + i;
                            line = ln;
                            throw problem("string is longer than " + ChromeTraceParser.MAX_EVENT_BYTES + " bytes");
                        }
                    } else if (b == '\\') {
                        if (i < to) {
                            if (buf[i] == '\n') {
                                ln++;
                            }
                            i++;
                        } else {
                            escaped = true;
                        }
                    } else if (b == '\n') {
                        ln++;
                    }
                    continue;
                }
                // Between strings likewise, to the next byte that may be structural (white space,
                // numbers and literals are skipped eight bytes at a time).
                if (i + 8 <= to) {
                    long m = structural((long) LONGS.get(buf, i));
                    if (m == 0) {
                        i += 8;
                        continue;
                    }
                    i += Long.numberOfTrailingZeros(m) >>> 3;
                }
                byte b = buf[i];
                switch (b) {
                    case '"':
                        str = true;
                        stringStart = base + i;
                        break;
                    case '\n':
                        ln++;
                        break;
                    case ',':
                        if (d == events) {
                            buf[i] = ' ';
                        }
                        break;
                    case '{': case '[':
                        d++;
                        if (d == events + 1) {
                            eventStart = base + i;
                        } else if (d > MAX_DEPTH + 2) {
                            position = base + i;
                            line = ln;
                            throw problem("invalid JSON: nesting deeper than " + MAX_DEPTH + " levels");
                        }
                        break;
                    case '}': case ']':
                        d--;
                        if (d == events) {
                            if (base + i + 1 - eventStart > ChromeTraceParser.MAX_EVENT_BYTES) {
                                position = base + i;
                                line = ln;
                                throw problem("event is longer than " + ChromeTraceParser.MAX_EVENT_BYTES + " bytes");
                            }
                            lastEnd = i + 1;
                            lastLine = ln;
                            eventStart = -1;
                        } else if (d < events) {
                            // The end of traceEvents: what follows belongs to the header.
                            blockTo = i;
                            if (events == 1) {
                                mode = Mode.AFTER;
                            } else {
                                mode = Mode.OBJECT;
                                headerFrom = i;
                            }
                            return i;
                        }
                        break;
                    default:
                        break;
                }
                i++;
            }
            if (d == events && !str) {
                // Between events: what was scanned is whole (white space is not carried on).
                lastEnd = to;
                lastLine = ln;
            }
            return to;
        } finally {
            depth = d;
            line = ln;
            inString = str;
            lastEventEnd = lastEnd;
            lastEventLine = lastLine;
        }
    }

    private MalformedTraceException problem(String message) {
        return new MalformedTraceException(new TraceProblem(source, line, null, message));
    }
}
