package io.tracegraph.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import io.tracegraph.domain.port.TraceReader;
import io.tracegraph.domain.trace.MalformedTraceException;
import io.tracegraph.domain.trace.TraceAssembler;
import io.tracegraph.domain.trace.TraceDocument;
import io.tracegraph.domain.trace.TraceProblem;
import io.tracegraph.domain.trace.TraceSchemas;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.zip.GZIPInputStream;

/**
 * The JSONL trace reader (spec 1–2 with decisions D5–D8), plain or gzip-compressed (detected by
 * its magic bytes), and the whole-document JSON form for sources named {@code *.json[.gz]} (or
 * whichever {@link Form} it is given: input discovery tells the form by the content).
 *
 * <p>The stream is cut into blocks at line boundaries; worker threads decode blocks into records
 * while the calling thread reads ahead and feeds decoded blocks, in order, to the
 * {@link TraceAssembler}. Only the decoded records and a few blocks in flight are in memory.
 *
 * <p>Errors follow the original's precedence: a decoding error anywhere beats an assembly error
 * (the original decodes every line before assembling), and both beat the missing-meta and schema
 * checks. Every error names the source and the physical line.
 */
public final class JacksonTraceReader implements TraceReader {
    /** Default block size handed to one decoding task. */
    static final int BLOCK = 4 << 20;
    /** Default longest accepted line. */
    public static final int DEFAULT_MAX_LINE_BYTES = 64 << 20;

    private static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxStringLength(DEFAULT_MAX_LINE_BYTES).maxNumberLength(1000).maxNestingDepth(200).build())
            .build();

    /** Which form a source is read in: told by its name (today's default), or given. */
    public enum Form {
        /** The whole-document form when the name ends in {@code .json} or {@code .json.gz}, else JSONL. */
        BY_NAME,
        /** JSONL, whatever the name. */
        JSONL,
        /** The whole-document JSON form, whatever the name. */
        DOCUMENT
    }

    private final int threads;
    private final int maxLineBytes;
    private final Form form;
    private final ThreadLocal<RecordDecoder> decoders = ThreadLocal.withInitial(RecordDecoder::new);
    private final ThreadLocal<CompactLineDecoder> compactDecoders = ThreadLocal.withInitial(CompactLineDecoder::new);
    /**
     * Lines of a block that the compact decoder may decline before the rest of the block goes to
     * one Jackson parser (a producer that spells its records otherwise: a parser per line would cost more).
     */
    private static final int MAX_DECLINED = 64;

    /** A reader that decodes with as many threads as there are processors. */
    public JacksonTraceReader() {
        this(Runtime.getRuntime().availableProcessors(), DEFAULT_MAX_LINE_BYTES);
    }

    public JacksonTraceReader(int threads, int maxLineBytes) {
        this(threads, maxLineBytes, Form.BY_NAME);
    }

    /** A reader of one {@code form}, with as many decoding threads as there are processors. */
    public JacksonTraceReader(Form form) {
        this(Runtime.getRuntime().availableProcessors(), DEFAULT_MAX_LINE_BYTES, form);
    }

    public JacksonTraceReader(int threads, int maxLineBytes, Form form) {
        if (threads < 1 || maxLineBytes < 1) {
            throw new IllegalArgumentException("threads and maxLineBytes must be positive");
        }
        this.threads = threads;
        this.maxLineBytes = maxLineBytes;
        this.form = Objects.requireNonNull(form, "form");
    }

    /**
     * {@inheritDoc}
     *
     * <p>Corrupt or truncated gzip data is the trace's own fault (a truncated upload, say), so it is
     * reported as malformed, naming the source without a line; a failure of the stream below the
     * decompressor stays a read failure ({@link UncheckedIOException}).
     */
    @Override
    public TraceDocument read(String source, InputStream raw) {
        boolean gzip = false;
        FailureWitness below = new FailureWitness(raw);
        try {
            InputStream in = decompressIfGzip(below);
            gzip = in instanceof GZIPInputStream;
            if (form == Form.DOCUMENT || (form == Form.BY_NAME && isDocumentForm(source))) {
                return new DocumentReader(FACTORY, decoders.get()).read(source, in);
            }
            return new Session(source, in).run();
        } catch (IOException e) {
            if (!below.failed() && (gzip || e instanceof CorruptGzipException) && isCorruptGzip(e)) {
                throw new MalformedTraceException(new TraceProblem(source, 0, null,
                        "corrupt or truncated gzip data: " + detail(e)));
            }
            throw new UncheckedIOException(source + ": " + detail(e), e);
        }
    }

    private static boolean isCorruptGzip(IOException e) {
        return e instanceof CorruptGzipException || e instanceof java.io.EOFException
                || e instanceof java.util.zip.ZipException;
    }

    /** A one-line reason for a read failure (a truncated gzip stream's EOF has no message). */
    private static String detail(IOException e) {
        if (e instanceof CorruptGzipException) {
            return e.getMessage();
        }
        return e.getMessage() != null ? e.getMessage()
                : e instanceof java.io.EOFException ? "unexpected end of input" : e.getClass().getSimpleName();
    }

    /** A gzip header that cannot be read. */
    private static final class CorruptGzipException extends IOException {
        private static final long serialVersionUID = 1L;

        CorruptGzipException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * Remembers whether the stream below failed, to tell a failing disk or archive (a read
     * failure) from corrupt gzip data (the trace's fault) when the decompressor throws.
     */
    private static final class FailureWitness extends java.io.FilterInputStream {
        private boolean failed;

        FailureWitness(InputStream in) {
            super(in);
        }

        boolean failed() {
            return failed;
        }

        @Override
        public int read() throws IOException {
            try {
                return in.read();
            } catch (IOException | RuntimeException e) {
                failed = true;
                throw e;
            }
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            try {
                return in.read(b, off, len);
            } catch (IOException | RuntimeException e) {
                failed = true;
                throw e;
            }
        }

        @Override
        public int available() throws IOException {
            try {
                return in.available();
            } catch (IOException | RuntimeException e) {
                failed = true;
                throw e;
            }
        }

        @Override
        public void close() {
            // The caller owns the stream below (TraceReader leaves it open).
        }
    }

    static boolean isDocumentForm(String source) {
        String name = source.toLowerCase(java.util.Locale.ROOT);
        return name.endsWith(".json") || name.endsWith(".json.gz");
    }

    private static InputStream decompressIfGzip(InputStream raw) throws IOException {
        PushbackInputStream in = new PushbackInputStream(raw, 2);
        int b0 = in.read();
        int b1 = b0 < 0 ? -1 : in.read();
        if (b1 >= 0) {
            in.unread(b1);
        }
        if (b0 >= 0) {
            in.unread(b0);
        }
        if (b0 == 0x1f && b1 == 0x8b) {
            try {
                return new GZIPInputStream(in, 1 << 16);
            } catch (java.io.EOFException | java.util.zip.ZipException e) {
                throw new CorruptGzipException(e.getMessage() != null ? e.getMessage() : "unexpected end of input", e);
            }
        }
        return in;
    }

    /** Decoded content of one block: records with their block-relative line numbers. */
    private static final class Block {
        Object[] records = new Object[1024];
        int[] lines = new int[1024];
        int count;
        int lineCount;
        int errorLine;
        String errorMember;
        String errorMessage;

        void add(Object record, int line) {
            if (count == records.length) {
                records = Arrays.copyOf(records, count * 2);
                lines = Arrays.copyOf(lines, count * 2);
            }
            records[count] = record;
            lines[count++] = line;
        }
    }

    /** One read of one stream. */
    private final class Session {
        private final String source;
        private final InputStream in;
        private final TraceAssembler assembler;
        private long baseLine;
        private MalformedTraceException pendingAssemblyError;
        /** The revision whose members the blocks are decoded with; 0 until the first record is seen. */
        private volatile int revision;

        Session(String source, InputStream in) {
            this.source = source;
            this.in = in;
            this.assembler = new TraceAssembler(source);
        }

        TraceDocument run() throws IOException {
            ExecutorService pool = null;
            ArrayDeque<Future<Block>> inFlight = new ArrayDeque<>();
            // The buffers of the blocks in flight, in the same order, and those of blocks already
            // consumed, for the next reads: a few 4 MiB buffers instead of one per block (690 MB
            // allocated and zeroed for a 690 MB trace). Decoded records hold no part of a buffer.
            ArrayDeque<byte[]> inFlightBuffers = new ArrayDeque<>();
            ArrayDeque<byte[]> spare = new ArrayDeque<>();
            try {
                byte[] carry = new byte[0];
                int carryLength = 0;
                boolean first = true;
                while (true) {
                    int size = Math.max(BLOCK, carryLength * 2);
                    byte[] buf = size == BLOCK && !spare.isEmpty() ? spare.pop() : new byte[size];
                    System.arraycopy(carry, 0, buf, 0, carryLength);
                    int filled = carryLength;
                    int read;
                    while (filled < buf.length && (read = in.read(buf, filled, buf.length - filled)) > 0) {
                        filled += read;
                    }
                    boolean eof = filled < buf.length;
                    int from = 0;
                    if (first) {
                        first = false;
                        if (filled >= 3 && (buf[0] & 0xff) == 0xEF && (buf[1] & 0xff) == 0xBB
                                && (buf[2] & 0xff) == 0xBF) {
                            from = 3;
                        }
                    }
                    int cut = eof ? filled : lastNewline(buf, filled) + 1;
                    if (cut == 0 && !eof) {
                        // No line break in a whole block: the line keeps growing.
                        if (filled - from > maxLineBytes) {
                            while (!inFlight.isEmpty()) {
                                consume(await(inFlight.poll()));
                            }
                            throw lineTooLong(buf, from, filled);
                        }
                        carry = buf;
                        carryLength = filled;
                        if (from > 0) {
                            carry = Arrays.copyOfRange(buf, from, filled);
                            carryLength = filled - from;
                        }
                        continue;
                    }
                    carryLength = filled - cut;
                    carry = Arrays.copyOfRange(buf, cut, filled);
                    final int start = from;
                    final int end = cut;
                    if (revision == 0) {
                        revision = sniffRevision(buf, start, end);
                    }
                    if (eof && inFlight.isEmpty()) {
                        consume(decodeBlock(buf, start, end));
                        break;
                    }
                    if (pool == null) {
                        pool = Executors.newFixedThreadPool(threads, daemonThreads());
                    }
                    inFlight.add(pool.submit(() -> decodeBlock(buf, start, end)));
                    inFlightBuffers.add(buf);
                    while (inFlight.size() > threads + 1) {
                        consume(await(inFlight.poll()));
                        byte[] done = inFlightBuffers.poll();
                        if (done.length == BLOCK) {
                            spare.push(done);
                        }
                    }
                    if (eof) {
                        break;
                    }
                }
                while (!inFlight.isEmpty()) {
                    consume(await(inFlight.poll()));
                }
            } finally {
                for (Future<Block> f : inFlight) {
                    f.cancel(true);
                }
                if (pool != null) {
                    pool.shutdownNow();
                }
            }
            if (pendingAssemblyError != null) {
                throw pendingAssemblyError;
            }
            return assembler.finish();
        }

        private MalformedTraceException lineTooLong(byte[] buf, int from, int filled) {
            int lines = 0;
            for (int i = from; i < filled; i++) {
                if (buf[i] == '\n') {
                    lines++;
                }
            }
            return new MalformedTraceException(new TraceProblem(source, baseLine + lines + 1, null,
                    "line is longer than " + maxLineBytes + " bytes"));
        }

        private Block await(Future<Block> future) throws IOException {
            return Futures.get(future, "reading " + source);
        }

        private void consume(Block block) {
            if (pendingAssemblyError == null) {
                try {
                    for (int i = 0; i < block.count; i++) {
                        RecordDecoder.feed(assembler, block.records[i], baseLine + block.lines[i]);
                    }
                } catch (MalformedTraceException e) {
                    pendingAssemblyError = e;
                }
            }
            if (block.errorMessage != null) {
                throw new MalformedTraceException(new TraceProblem(source, baseLine + block.errorLine,
                        block.errorMember, block.errorMessage));
            }
            baseLine += block.lineCount;
        }

        private Block decodeBlock(byte[] buf, int from, int to) {
            // A block decoded before the first record is seen holds blank lines only.
            decoders.get().at(Math.max(TraceSchemas.OLDEST, revision));
            Block fast = decodeBlockFast(buf, from, to);
            return fast != null ? fast : decodeBlockByLine(buf, from, to);
        }

        /**
         * The revision of the trace, from its first record (which must be the meta record): the
         * revision its {@code schema} names when it is read; trace/6 for anything else (a first record
         * that is not a meta, cannot be parsed or names an older revision: decoding then finds the
         * problem and words it as for trace/6). A newer revision or a foreign schema is refused here,
         * at the meta line, before anything is decoded with rules it does not follow. 0 when the
         * block holds blank lines only.
         */
        private int sniffRevision(byte[] buf, int from, int to) {
            Lines lines = new Lines(buf, from, to);
            while (lines.next()) {
                if (lines.start < lines.end) {
                    String schema = metaSchema(buf, lines.start, lines.end - lines.start);
                    if (schema == null) {
                        return TraceSchemas.OLDEST;
                    }
                    int r = TraceSchemas.revision(schema);
                    if (r > 0) {
                        return r;
                    }
                    if (TraceSchemas.refusalListsAll(schema)) {
                        throw new MalformedTraceException(new TraceProblem(source, baseLine + lines.line, "schema",
                                TraceAssembler.refusal(schema)));
                    }
                    return TraceSchemas.OLDEST;
                }
            }
            return 0;
        }

        /**
         * The happy path. Each line goes to the compact decoder, which decodes the usual records
         * straight from their bytes; a line it declines (the meta record, a rare kind, another
         * spelling) is decoded by Jackson. When many lines of a block are declined, the rest of the
         * block is read by one Jackson parser ({@link #decodeWithOneParser}). Returns {@code null}
         * at the first anomaly of any kind, and the block is decoded again line by line, which
         * finds the error and words it exactly.
         */
        private Block decodeBlockFast(byte[] buf, int from, int to) {
            Block block = new Block();
            RecordDecoder decoder = decoders.get();
            CompactLineDecoder compact = compactDecoders.get().at(decoder.revision());
            try {
                checkUtf8(buf, from, to);
                Lines lines = new Lines(buf, from, to);
                int declined = 0;
                while (lines.next()) {
                    if (lines.rawLength > maxLineBytes) {
                        return null;
                    }
                    int s = lines.start;
                    int e = lines.end;
                    if (s < e) {
                        Object record = compact.decode(buf, s, e);
                        if (record == null) {
                            if (++declined > MAX_DECLINED) {
                                return decodeWithOneParser(block, buf, lines.lineStart, to, lines.line - 1);
                            }
                            if (buf[s] != '{') {
                                return null;
                            }
                            record = decodeLine(decoder, buf, s, e - s);
                        }
                        block.add(record, lines.line);
                    }
                }
                block.lineCount = lines.line;
                return block;
            } catch (RuntimeException e) {
                return null;
            }
        }

        /**
         * The rest of a block, {@code buf[from, to)} starting after line {@code linesBefore}, with
         * one parser over all of it instead of one per line, checking that every record starts and
         * ends exactly on its own line; {@code null} at the first anomaly.
         */
        private Block decodeWithOneParser(Block block, byte[] buf, int from, int to, int linesBefore) {
            RecordDecoder decoder = decoders.get();
            try (JsonParser p = FACTORY.createParser(buf, from, to - from)) {
                Lines lines = new Lines(buf, from, to);
                lines.line = linesBefore;
                while (lines.next()) {
                    if (lines.rawLength > maxLineBytes) {
                        return null;
                    }
                    int s = lines.start;
                    int e = lines.end;
                    if (s < e) {
                        if (buf[s] != '{' || p.nextToken() != JsonToken.START_OBJECT
                                || p.currentTokenLocation().getByteOffset() != s - from) {
                            return null;
                        }
                        Object record;
                        if ("kind".equals(p.nextFieldName())) {
                            if (p.nextToken() != JsonToken.VALUE_STRING) {
                                return null;
                            }
                            record = decoder.decode(p, p.getText(), true);
                        } else {
                            // `kind` is not first: skip the object here, decode its line on its own.
                            if (p.currentToken() == JsonToken.FIELD_NAME) {
                                do {
                                    p.nextToken();
                                    p.skipChildren();
                                } while (p.nextToken() == JsonToken.FIELD_NAME);
                            }
                            record = decodeLine(decoder, buf, s, e - s);
                        }
                        if (p.currentToken() != JsonToken.END_OBJECT
                                || p.currentLocation().getByteOffset() != e - from) {
                            return null;
                        }
                        block.add(record, lines.line);
                    }
                }
                if (p.nextToken() != null) {
                    return null;
                }
                block.lineCount = lines.line;
                return block;
            } catch (IOException | RuntimeException e) {
                return null;
            }
        }

        private Block decodeBlockByLine(byte[] buf, int from, int to) {
            Block block = new Block();
            RecordDecoder decoder = decoders.get();
            Lines lines = new Lines(buf, from, to);
            while (lines.next()) {
                if (lines.rawLength > maxLineBytes) {
                    block.errorLine = lines.line;
                    block.errorMessage = "line is longer than " + maxLineBytes + " bytes";
                    return block;
                }
                if (lines.start < lines.end) {
                    try {
                        checkUtf8(buf, lines.start, lines.end);
                        block.add(decodeLine(decoder, buf, lines.start, lines.end - lines.start), lines.line);
                    } catch (RecordDecoder.DecodeException ex) {
                        block.errorLine = lines.line;
                        block.errorMember = ex.member();
                        block.errorMessage = ex.getMessage();
                        return block;
                    }
                }
            }
            block.lineCount = lines.line;
            return block;
        }
    }

    /**
     * Walks the lines of a block: after {@link #next()}, {@code line} is the block-relative line
     * number, {@code rawLength} its length without the newline, {@code start..end} its content with
     * JSON white space trimmed (empty for a blank line).
     */
    private static final class Lines {
        private final byte[] buf;
        private final int to;
        private int pos;
        int line;
        /** Where the line begins (before any white space). */
        int lineStart;
        int rawLength;
        int start;
        int end;

        Lines(byte[] buf, int from, int to) {
            this.buf = buf;
            this.pos = from;
            this.to = to;
        }

        boolean next() {
            if (pos >= to) {
                return false;
            }
            lineStart = pos;
            int nl = indexOf(buf, (byte) '\n', pos, to);
            int lineEnd = nl < 0 ? to : nl;
            line++;
            rawLength = lineEnd - pos;
            int s = pos;
            int e = lineEnd;
            while (s < e && isJsonSpace(buf[s])) {
                s++;
            }
            while (e > s && isJsonSpace(buf[e - 1])) {
                e--;
            }
            start = s;
            end = e;
            pos = nl < 0 ? to : nl + 1;
            return true;
        }
    }

    private static ThreadFactoryWithNames daemonThreads() {
        return new ThreadFactoryWithNames();
    }

    private static final class ThreadFactoryWithNames implements java.util.concurrent.ThreadFactory {
        private int next;

        @Override
        public synchronized Thread newThread(Runnable task) {
            Thread thread = new Thread(task, "trace-decoder-" + next++);
            thread.setDaemon(true);
            return thread;
        }
    }

    /** The {@code schema} of a line that is a meta record, or {@code null}. */
    static String metaSchema(byte[] buf, int offset, int length) {
        if (buf[offset] != '{') {
            return null;
        }
        try (JsonParser p = FACTORY.createParser(buf, offset, length)) {
            p.nextToken();
            String kind = null;
            String schema = null;
            String name;
            while ((name = p.nextFieldName()) != null) {
                JsonToken value = p.nextToken();
                if (name.equals("kind") && value == JsonToken.VALUE_STRING) {
                    kind = p.getText();
                } else if (name.equals("schema") && value == JsonToken.VALUE_STRING) {
                    schema = p.getText();
                } else {
                    p.skipChildren();
                }
                if (kind != null && schema != null) {
                    break;    // the producer writes them first: no need to scan the rest of a long meta line
                }
            }
            return "meta".equals(kind) ? schema : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Decodes one trimmed, non-empty line into a record. */
    static Object decodeLine(RecordDecoder decoder, byte[] buf, int offset, int length) {
        // A big gradient manifest is read from its bytes, Jackson reading the rest of the meta line;
        // when the decoder does not take it, or anything fails, the line is read as written (so
        // that an error names the column it has there).
        ManifestSplice splice = ManifestSplice.of(buf, offset, length);
        if (splice != null) {
            decoder.splice(splice);
            try {
                Object record = decodeWhole(decoder, splice.line(), 0, splice.line().length);
                if (splice.taken()) {
                    return record;
                }
            } catch (RecordDecoder.DecodeException e) {
                // read as written below
            } finally {
                decoder.splice(null);
            }
        }
        return decodeWhole(decoder, buf, offset, length);
    }

    /** Decodes one trimmed, non-empty line into a record, all of it through Jackson. */
    private static Object decodeWhole(RecordDecoder decoder, byte[] buf, int offset, int length) {
        if (buf[offset] != '{') {
            if (length >= 3 && (buf[offset] & 0xff) == 0xEF && (buf[offset + 1] & 0xff) == 0xBB
                    && (buf[offset + 2] & 0xff) == 0xBF) {
                throw new RecordDecoder.DecodeException(null,
                        "unexpected byte-order mark (allowed only at the start of the file)");
            }
            throw new RecordDecoder.DecodeException(null, "expected a JSON object, found "
                    + describeStart(buf, offset, length));
        }
        decoder.lineWithoutEscapes(withoutEscapes(buf, offset, length));
        try (JsonParser p = FACTORY.createParser(buf, offset, length)) {
            p.nextToken();
            String first = p.nextFieldName();
            Object record;
            if ("kind".equals(first)) {
                record = decoder.decode(p, kindValue(p), true);
            } else {
                String kind = findKind(buf, offset, length);
                try (JsonParser again = FACTORY.createParser(buf, offset, length)) {
                    again.nextToken();
                    record = decoder.decode(again, kind, false);
                    expectEnd(again);
                }
                return record;
            }
            expectEnd(p);
            return record;
        } catch (JsonProcessingException e) {
            // Constraint violations (nesting depth, number length) carry no location.
            String column = e.getLocation() == null ? "" : " (column " + e.getLocation().getColumnNr() + ")";
            throw new RecordDecoder.DecodeException(null, "invalid JSON: " + RecordDecoder.jacksonMessage(e) + column);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            decoder.lineWithoutEscapes(false);
        }
    }

    /** Whether {@code buf[offset, offset + length)} holds neither a backslash nor a 0xED byte. */
    private static boolean withoutEscapes(byte[] buf, int offset, int length) {
        for (int i = offset, end = offset + length; i < end; i++) {
            byte b = buf[i];
            if (b == '\\' || b == (byte) 0xED) {
                return false;
            }
        }
        return true;
    }

    private static String kindValue(JsonParser p) throws IOException {
        if (p.nextToken() != JsonToken.VALUE_STRING) {
            throw new RecordDecoder.DecodeException("kind", "member `kind` must be a string");
        }
        return p.getText();
    }

    /** Finds the {@code kind} member of a record whose first member is something else. */
    private static String findKind(byte[] buf, int offset, int length) throws IOException {
        try (JsonParser p = FACTORY.createParser(buf, offset, length)) {
            p.nextToken();
            String name;
            while ((name = p.nextFieldName()) != null) {
                if (name.equals("kind")) {
                    return kindValue(p);
                }
                p.nextToken();
                p.skipChildren();
            }
            if (p.currentToken() != JsonToken.END_OBJECT) {
                throw new RecordDecoder.DecodeException(null, "expected a member name or `}`");
            }
            throw new RecordDecoder.DecodeException("kind", "record has no `kind` member");
        }
    }

    private static void expectEnd(JsonParser p) throws IOException {
        if (p.nextToken() != null) {
            throw new RecordDecoder.DecodeException(null,
                    "trailing characters after the JSON object (one record per line)");
        }
    }

    private static String describeStart(byte[] buf, int offset, int length) {
        int c = buf[offset] & 0xff;
        if (c == '[') {
            return "an array";
        }
        if (c == '"') {
            return "a string";
        }
        if (c >= 0x20 && c < 0x7f) {
            return "'" + (char) c + "'";
        }
        return String.format("byte 0x%02X", c);
    }

    /**
     * Rejects a line that is not well-formed UTF-8 (the original reads lines as Rust strings):
     * stray continuation bytes, overlong forms, encoded surrogates, code points above U+10FFFF
     * and truncated sequences. Jackson alone lets some of these through.
     */
    static void checkUtf8(byte[] buf, int from, int to) {
        int i = from;
        while (i < to) {
            // ASCII (almost every byte of a trace) eight bytes at a time: JFR showed the
            // byte-by-byte scan of every block at ~4% of a build's samples.
            while (i <= to - 8 && ((long) EIGHT_BYTES.get(buf, i) & 0x8080808080808080L) == 0) {
                i += 8;
            }
            if (i >= to) {
                break;
            }
            int c = buf[i];
            if (c >= 0) {
                i++;
                continue;
            }
            c &= 0xff;
            int more;
            int lo = 0x80;
            int hi = 0xBF;
            if (c >= 0xC2 && c <= 0xDF) {
                more = 1;
            } else if (c >= 0xE0 && c <= 0xEF) {
                more = 2;
                lo = c == 0xE0 ? 0xA0 : 0x80;
                hi = c == 0xED ? 0x9F : 0xBF;
            } else if (c >= 0xF0 && c <= 0xF4) {
                more = 3;
                lo = c == 0xF0 ? 0x90 : 0x80;
                hi = c == 0xF4 ? 0x8F : 0xBF;
            } else {
                throw invalidUtf8(buf, from, i);
            }
            if (i + more >= to) {
                throw invalidUtf8(buf, from, i);
            }
            int c1 = buf[i + 1] & 0xff;
            if (c1 < lo || c1 > hi) {
                throw invalidUtf8(buf, from, i);
            }
            for (int k = 2; k <= more; k++) {
                if ((buf[i + k] & 0xC0) != 0x80) {
                    throw invalidUtf8(buf, from, i);
                }
            }
            i += more + 1;
        }
    }

    /** Eight bytes of an array read as one long (any byte order: only their top bits are tested). */
    private static final VarHandle EIGHT_BYTES = MethodHandles.byteArrayViewVarHandle(long[].class,
            ByteOrder.LITTLE_ENDIAN);

    private static RecordDecoder.DecodeException invalidUtf8(byte[] buf, int from, int at) {
        return new RecordDecoder.DecodeException(null, String.format("invalid UTF-8: byte 0x%02X (column %d)",
                buf[at] & 0xff, at - from + 1));
    }

    static boolean isJsonSpace(byte b) {
        return b == ' ' || b == '\t' || b == '\r' || b == '\n';
    }

    private static int lastNewline(byte[] buf, int filled) {
        for (int i = filled - 1; i >= 0; i--) {
            if (buf[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    private static int indexOf(byte[] buf, byte b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (buf[i] == b) {
                return i;
            }
        }
        return -1;
    }
}
