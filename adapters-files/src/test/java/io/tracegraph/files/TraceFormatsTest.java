package io.tracegraph.files;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tracegraph.domain.port.TraceFormat;
import io.tracegraph.domain.port.TraceReader;
import io.tracegraph.domain.trace.ExecutionPhase;
import io.tracegraph.domain.trace.RunMeta;
import io.tracegraph.domain.trace.TimingMode;
import io.tracegraph.domain.trace.TraceDocument;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/**
 * Picking a reader by content, with formats of this test's own: each recognises a prefix, claims
 * a name suffix, and reads a trace into a document whose run_id names the format and whose
 * correlation id holds the bytes it was given.
 */
class TraceFormatsTest {
    private static final Format ALPHA = new Format("alpha", "A:", ".a");
    private static final Format BETA = new Format("beta", "B:", ".b");
    /** Recognises what ALPHA does too. */
    private static final Format ALSO_ALPHA = new Format("also-alpha", "A:", ".aa");

    @Test
    void picksTheOneFormatThatRecognisesTheContentWhateverTheName() {
        TraceFormats formats = TraceFormats.of(List.of(ALPHA, BETA));

        assertThat(formats.pick("x.a", bytes("B:1"))).isSameAs(BETA);
        assertThat(formats.pick("x.b", bytes("A:1"))).isSameAs(ALPHA);
        assertThat(formats.pick("x", bytes("B:1"))).isSameAs(BETA);
    }

    @Test
    void letsTheNameDecideWhereNoFormatRecognisesTheContent() {
        TraceFormats formats = TraceFormats.of(List.of(ALPHA, BETA));

        assertThat(formats.pick("x.b", bytes("garbage"))).isSameAs(BETA);
        assertThat(formats.pick("x.a", new byte[0])).isSameAs(ALPHA);
        // Neither content nor name: the first format.
        assertThat(formats.pick("x.txt", bytes("garbage"))).isSameAs(ALPHA);
    }

    @Test
    void letsTheNameDecideAmongTheFormatsThatRecogniseTheContent() {
        TraceFormats formats = TraceFormats.of(List.of(ALPHA, BETA, ALSO_ALPHA));

        assertThat(formats.pick("x.aa", bytes("A:1"))).isSameAs(ALSO_ALPHA);
        assertThat(formats.pick("x.a", bytes("A:1"))).isSameAs(ALPHA);
        // A name that only a format not recognising the content claims does not count.
        assertThat(formats.pick("x.b", bytes("A:1"))).isSameAs(ALPHA);
    }

    @Test
    void readsWithThePickedReaderWhichGetsEveryByteAsItCame() {
        TraceFormats formats = TraceFormats.of(List.of(ALPHA, BETA));
        byte[] big = new byte[3 * TraceFormats.MAX_RAW_BYTES];
        Arrays.fill(big, (byte) 'x');
        System.arraycopy(bytes("B:"), 0, big, 0, 2);

        TraceDocument doc = formats.read("x.a", new ByteArrayInputStream(big));

        assertThat(doc.run().runId()).isEqualTo("beta");
        assertThat(doc.run().correlationId()).isEqualTo(new String(big, UTF_8));
    }

    @Test
    void recognisesGzipByItsMagicBytesAndHandsTheCompressedBytesOn() throws IOException {
        TraceFormats formats = TraceFormats.of(List.of(ALPHA, BETA));
        byte[] compressed = gzip(bytes("B:" + "y".repeat(200_000)));

        TraceDocument doc = formats.read("x.a.gz", new ByteArrayInputStream(compressed));

        assertThat(doc.run().runId()).isEqualTo("beta");
        assertThat(doc.run().correlationId().getBytes(ISO_8859_1))
                .isEqualTo(compressed);
    }

    @Test
    void leavesCorruptGzipToTheReaderTheNameChooses() {
        TraceFormats formats = TraceFormats.of(List.of(ALPHA, BETA));
        byte[] fake = {0x1f, (byte) 0x8b, 'B', ':', 'n', 'o', 'i', 's', 'e'};

        TraceDocument doc = formats.read("x.b", new ByteArrayInputStream(fake));

        assertThat(doc.run().runId()).isEqualTo("beta");
        assertThat(doc.run().correlationId().getBytes(ISO_8859_1)).isEqualTo(fake);
    }

    @Test
    void letsTheReaderMeetAFailureOfTheStreamBelow() {
        TraceFormats formats = TraceFormats.of(List.of(ALPHA, BETA));
        InputStream failing = new InputStream() {
            private int served;

            @Override
            public int read() throws IOException {
                if (served < 2) {
                    return "A:".charAt(served++);
                }
                throw new IOException("disk on fire");
            }
        };

        assertThatThrownBy(() -> formats.read("x.b", failing)).isInstanceOf(UncheckedIOException.class)
                .hasMessage("x.b: disk on fire");
    }

    @Test
    void needsAFormat() {
        assertThatThrownBy(() -> TraceFormats.of(List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(UTF_8);
    }

    private static byte[] gzip(byte[] bytes) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(bytes);
        }
        return out.toByteArray();
    }

    /** A format told by a prefix of its content and a suffix of its name. */
    private record Format(String name, String prefix, String suffix) implements TraceFormat, TraceReader {
        @Override
        public boolean recognises(byte[] head) {
            return new String(head, ISO_8859_1).startsWith(prefix);
        }

        @Override
        public boolean claimsName(String source) {
            return source.endsWith(suffix) || source.endsWith(suffix + ".gz");
        }

        @Override
        public TraceReader reader() {
            return this;
        }

        /** The bytes read (ISO-8859-1, one char a byte) as the run's correlation id; a read failure as the port says. */
        @Override
        public TraceDocument read(String source, InputStream in) {
            byte[] all;
            try {
                all = in.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(source + ": " + e.getMessage(), e);
            }
            RunMeta meta = new RunMeta(name, new String(all, ISO_8859_1), "e",
                    ExecutionPhase.INFER, "t", 0, 0, "cpu", TimingMode.HOST, Map.of(), null);
            return new TraceDocument(TraceDocument.SCHEMA, meta, List.of(), List.of(), List.of(), List.of(), List.of(),
                    List.of(), List.of());
        }
    }
}
