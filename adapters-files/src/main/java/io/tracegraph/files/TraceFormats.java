package io.tracegraph.files;

import io.tracegraph.domain.port.TraceFormat;
import io.tracegraph.domain.port.TraceReader;
import io.tracegraph.domain.trace.TraceDocument;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.zip.GZIPInputStream;

/**
 * Which reader a trace needs, told by its content: each trace's first bytes (decompressed when they
 * are gzip, known by its magic bytes) are shown to every {@link TraceFormat}, in the order given.
 * The one format that recognises them reads the trace; where none does, or several do, the first of
 * them (of all formats, when none did) whose name claim fits the source's name; failing that, the
 * first of them.
 *
 * <p>As a {@link TraceReader} it reads any of its formats: the chosen reader gets the stream as it
 * came (the bytes looked at are given back in front of the rest), so what it reports of a malformed
 * or corrupt trace is what it reports when called alone.
 */
public final class TraceFormats implements TraceReader {
    /**
     * The most bytes of a stream looked at to find its first {@link TraceFormat#HEAD_BYTES}
     * decompressed bytes (gzip headers may carry long names and comments).
     */
    static final int MAX_RAW_BYTES = 1 << 20;

    private final List<TraceFormat> formats;

    private TraceFormats(List<TraceFormat> formats) {
        this.formats = formats;
    }

    /** The formats in order of preference: on a tie, the first one wins. */
    public static TraceFormats of(List<TraceFormat> formats) {
        List<TraceFormat> copy = List.copyOf(formats);
        if (copy.isEmpty()) {
            throw new IllegalArgumentException("no trace formats");
        }
        return new TraceFormats(copy);
    }

    /** The formats, in order of preference. */
    public List<TraceFormat> formats() {
        return formats;
    }

    /** The format of a trace named {@code source} whose plain stream starts with {@code head}. */
    public TraceFormat pick(String source, byte[] head) {
        Objects.requireNonNull(source, "source");
        List<TraceFormat> recognising = formats.stream().filter(f -> f.recognises(head)).toList();
        if (recognising.size() == 1) {
            return recognising.get(0);
        }
        List<TraceFormat> candidates = recognising.isEmpty() ? formats : recognising;
        return candidates.stream().filter(f -> f.claimsName(source)).findFirst().orElse(candidates.get(0));
    }

    @Override
    public TraceDocument read(String source, InputStream in) {
        Recording recorded = new Recording(in);
        byte[] head = head(recorded);
        InputStream whole = new SequenceInputStream(new ByteArrayInputStream(recorded.bytes()), in);
        return pick(source, head).reader().read(source, whole);
    }

    /**
     * The first {@link TraceFormat#HEAD_BYTES} plain bytes read through {@code raw}, gunzipped when
     * they start with gzip's magic bytes; as many as could be had when the stream or its gzip data
     * fails (the reader chosen meets the failure again, and reports it as it always did).
     */
    private static byte[] head(Recording raw) {
        byte[] start = readUpTo(raw, TraceFormat.HEAD_BYTES);
        if (start.length < 2 || (start[0] & 0xff) != 0x1f || (start[1] & 0xff) != 0x8b) {
            return start;
        }
        InputStream compressed = new SequenceInputStream(new ByteArrayInputStream(start), raw);
        try (GZIPInputStream gzip = new GZIPInputStream(compressed, 1 << 12)) {
            return readUpTo(gzip, TraceFormat.HEAD_BYTES);
        } catch (IOException | RuntimeException e) {
            return new byte[0];
        }
    }

    /** Up to {@code max} bytes of {@code in}: fewer at its end, and those read before a failure. */
    private static byte[] readUpTo(InputStream in, int max) {
        byte[] buffer = new byte[max];
        int n = 0;
        try {
            for (int r; n < max && (r = in.read(buffer, n, max - n)) > 0; ) {
                n += r;
            }
        } catch (IOException | RuntimeException e) {
            // as many as there were
        }
        return n == max ? buffer : Arrays.copyOf(buffer, n);
    }

    /**
     * Keeps every byte read through it, to give them back; ends (as if the stream did) after
     * {@link #MAX_RAW_BYTES}; never closes the stream below (its owner does).
     */
    private static final class Recording extends FilterInputStream {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        Recording(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int room = MAX_RAW_BYTES - bytes.size();
            if (room <= 0) {
                return -1;
            }
            int n = in.read(b, off, Math.min(len, room));
            if (n > 0) {
                bytes.write(b, off, n);
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            int step = (int) Math.min(Math.max(n, 0), 4096);
            return Math.max(read(new byte[step], 0, step), 0);
        }

        @Override
        public int available() {
            return 0;
        }

        @Override
        public boolean markSupported() {
            return false;
        }

        @Override
        public void close() {
            // the stream below belongs to the caller
        }

        byte[] bytes() {
            return bytes.toByteArray();
        }
    }
}
