package io.tracegraph.json.pytorch;

import io.tracegraph.domain.port.TraceReader;
import io.tracegraph.domain.trace.MalformedTraceException;
import io.tracegraph.domain.trace.TraceDocument;
import io.tracegraph.domain.trace.TraceProblem;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.io.UncheckedIOException;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * Reads a PyTorch profiler (Kineto) trace: Chrome trace-event JSON, a JSON object with
 * {@code traceEvents} or a bare array of events, plain or gzip-compressed (told by its bytes), in
 * today's layout and in the 2021 one. The mapping into tracegraph's model is written down in
 * {@code docs/trace-formats.md}, "PyTorch profiler traces".
 *
 * <p>The file is streamed (Jackson's streaming parser; never a tree of the whole file) into
 * columns of primitive values, assembled into a span tree per thread, and mapped into a
 * {@link TraceDocument}. A malformed trace raises {@link MalformedTraceException} naming the source
 * and the line; corrupt or truncated gzip data is malformed too.
 */
public final class PyTorchTraceReader implements TraceReader {
    private final int threads;

    /** A reader that parses with as many threads as there are processors. */
    public PyTorchTraceReader() {
        this(Runtime.getRuntime().availableProcessors());
    }

    public PyTorchTraceReader(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be positive: " + threads);
        }
        this.threads = threads;
    }

    @Override
    public TraceDocument read(String source, InputStream raw) {
        Witness below = new Witness(raw);
        boolean gzip = false;
        try {
            PushbackInputStream peek = new PushbackInputStream(below, 2);
            int b0 = peek.read();
            int b1 = b0 < 0 ? -1 : peek.read();
            if (b1 >= 0) {
                peek.unread(b1);
            }
            if (b0 >= 0) {
                peek.unread(b0);
            }
            InputStream plain = peek;
            if (b0 == 0x1f && b1 == 0x8b) {
                gzip = true;
                plain = new GZIPInputStream(peek, 1 << 16);
            }
            ContentHash hashed = new ContentHash(plain);
            EventTable events = TraceFraming.read(source, hashed, threads);
            hashed.drain();
            return TorchDocument.map(TorchTrace.assemble(events), "pytorch-" + hashed.hex());
        } catch (IOException e) {
            if (gzip && !below.failed && (e instanceof EOFException || e instanceof ZipException)) {
                throw new MalformedTraceException(new TraceProblem(source, 0, null,
                        "corrupt or truncated gzip data: " + (e.getMessage() == null ? "unexpected end of input"
                                : e.getMessage())));
            }
            throw new UncheckedIOException(source + ": " + e.getMessage(), e);
        }
    }

    /** Whether the stream below failed (a disk or an archive), to tell it from corrupt gzip data. */
    private static final class Witness extends FilterInputStream {
        boolean failed;

        Witness(InputStream in) {
            super(in);
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
        public void close() {
            // The caller owns the stream below.
        }
    }

    /**
     * A 64-bit hash of the plain bytes (CRC-32C and CRC-32 side by side, both intrinsics): the run id
     * of a trace without a {@code trace_id}, the same for the file plain and gzipped.
     */
    private static final class ContentHash extends FilterInputStream {
        private final CRC32C c1 = new CRC32C();
        private final CRC32 c2 = new CRC32();

        ContentHash(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) {
                c1.update(b);
                c2.update(b);
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = in.read(b, off, len);
            if (n > 0) {
                c1.update(b, off, n);
                c2.update(b, off, n);
            }
            return n;
        }

        @Override
        public void close() {
            // Left open: the reader drains it.
        }

        void drain() throws IOException {
            byte[] buf = new byte[8192];
            while (read(buf, 0, buf.length) >= 0) {
                // the hash covers the whole stream
            }
        }

        String hex() {
            return String.format("%08x%08x", c1.getValue(), c2.getValue());
        }
    }
}
