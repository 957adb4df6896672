package io.tracegraph.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.tracegraph.domain.trace.MalformedTraceException;
import io.tracegraph.domain.trace.OpEvent;
import io.tracegraph.domain.trace.Shape;
import io.tracegraph.domain.trace.SpanRecord;
import io.tracegraph.domain.trace.TraceDocument;
import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Traces larger than the reader's 4 MiB block: blocks decoded in parallel must give the document
 * and the error (with its physical line) that a single thread gives.
 */
@Timeout(60)
class JacksonTraceReaderLargeTraceTest {
    private static final int OPS = 52_000;
    private static final int OPS_PER_SPAN = 1000;
    private static final int MAX = JacksonTraceReader.DEFAULT_MAX_LINE_BYTES;
    private static final String META = "{\"kind\":\"meta\",\"schema\":\"candle-graph/trace/6\",\"run_id\":\"big\","
            + "\"correlation_id\":\"big/1\",\"entrypoint\":\"big::run\",\"phase\":\"train\",\"timestamp\":\"t\","
            + "\"capture_step\":1,\"warmup_steps\":0,\"device\":\"cpu\",\"timing_mode\":\"host\",\"tags\":{}}";
    private static final String BIG_PAD = ",\"pad\":\"" + "p".repeat(5 << 20) + "\"";

    @TempDir
    static Path dir;
    /** The physical lines of the generated trace, each with its line break. */
    static String[] lines;
    /** Index in {@link #lines} of the line of each op. */
    static int[] opIndex;
    static Path plain;
    static TraceDocument expected;
    private static byte[] gzipped;

    @BeforeAll
    static void writeTheTrace() throws IOException {
        generate();
        plain = Files.write(dir.resolve("big.jsonl"), join(lines));
        expected = new JacksonTraceReader(1, MAX).read("big.jsonl", open(plain));
    }

    @Test
    void readsTraceOfSeveralBlocksLikeOneThread() throws IOException {
        assertThat(Files.size(plain)).isGreaterThan(2L * JacksonTraceReader.BLOCK);

        assertThat(new JacksonTraceReader(3, MAX).read("big.jsonl", open(plain))).isEqualTo(expected);
    }

    @Test
    void keepsEveryRecordInFileOrder() {
        List<OpEvent> ops = new ArrayList<>(OPS);
        for (int i = 0; i < OPS; i++) {
            ops.add(new OpEvent(spanOf(i), "matmul", List.of("t" + (i - 1), "w"), "t" + i, Shape.of(8, 64), "f32", "cpu",
                    i, 10L * i, 2048L, 0));
        }
        assertThat(expected.ops().equals(ops)).as("ops in file order").isTrue();
        assertThat(expected.spans()).hasSize(1 + OPS / OPS_PER_SPAN).allMatch(SpanRecord::closed);
        assertThat(expected.spans().get(0).id()).isEqualTo("b00000");
        assertThat(expected.spans().get(expected.spans().size() - 1).id()).isEqualTo("root");
    }

    @Test
    void readsGzipCompressedTraceOfSeveralBlocks() throws IOException {
        assertThat(new JacksonTraceReader().read("big.jsonl.gz", new ByteArrayInputStream(gzipped()))).isEqualTo(expected);
    }

    @Test
    void reportsTruncatedGzipOfSeveralBlocksPromptly() throws IOException {
        byte[] gz = gzipped();
        byte[] cut = Arrays.copyOf(gz, gz.length * 3 / 5);

        MalformedTraceException e = catchThrowableOfType(MalformedTraceException.class,
                () -> new JacksonTraceReader().read("cut.jsonl.gz", new ByteArrayInputStream(cut)));

        assertThat(e).hasMessageStartingWith("cut.jsonl.gz: corrupt or truncated gzip data: ");
    }

    @Test
    void reportsDecodeErrorDeepInTheFileAtItsPhysicalLine() throws IOException {
        byte[] trace = variant(Map.of(50_123, op(50_123).replace("\"duration_ns\":50123", "\"duration_ns\":-5")));
        String message = "deep.jsonl:" + lineOf(50_123) + ": member `duration_ns`: integer -5 is out of range "
                + "(0..9223372036854775807)";

        assertThat(lineOf(50_123)).isGreaterThan(50_123 + 100);
        assertThat(failure(new JacksonTraceReader(), "deep.jsonl", trace)).hasMessage(message);
        assertThat(failure(new JacksonTraceReader(1, MAX), "deep.jsonl", trace)).hasMessage(message);
    }

    @Test
    void reportsAssemblyErrorDeepInTheFileAtItsPhysicalLine() {
        byte[] trace = variant(Map.of(41_000, "{\"kind\":\"span_end\",\"id\":\"ghost\"}"));

        assertThat(failure(new JacksonTraceReader(), "a.jsonl", trace))
                .hasMessage("a.jsonl:" + lineOf(41_000) + ": span_end for unknown span `ghost`");
    }

    @Test
    void decodeErrorInALaterBlockBeatsAssemblyErrorInAnEarlierBlock() {
        byte[] trace = variant(Map.of(
                1_500, "{\"kind\":\"span_start\",\"id\":\"root\",\"name\":\"again\",\"start_ns\":0,\"span_kind\":\"function\"}",
                51_000, "{\"kind\":\"op\""));
        String prefix = "p.jsonl:" + lineOf(51_000) + ": invalid JSON: Unexpected end-of-input";

        assertThat(failure(new JacksonTraceReader(), "p.jsonl", trace)).hasMessageStartingWith(prefix);
    }

    @Test
    void firstOfTwoDecodeErrorsInDifferentBlocksWins() {
        byte[] trace = variant(Map.of(30_000, "[]", 51_000, "[]"));

        assertThat(failure(new JacksonTraceReader(), "two.jsonl", trace))
                .hasMessage("two.jsonl:" + lineOf(30_000) + ": expected a JSON object, found an array");
    }

    @Test
    void readsLinesLongerThanABlockIncludingAFirstLineAfterAByteOrderMark() {
        String[] copy = lines.clone();
        copy[0] = "\uFEFF" + META.substring(0, META.length() - 1) + BIG_PAD + "}\n";
        copy[opIndex[20_000]] = copy[opIndex[20_000]].replace(op(20_000), withPad(op(20_000)));

        assertThat(new JacksonTraceReader().read("long.jsonl", new ByteArrayInputStream(join(copy)))).isEqualTo(expected);
    }

    @Test
    void countsTheLinesAfterALineLongerThanABlock() {
        byte[] broken = variant(Map.of(20_000, withPad(op(20_000)), 50_000, "{}"));

        assertThat(failure(new JacksonTraceReader(), "long.jsonl", broken))
                .hasMessage("long.jsonl:" + lineOf(50_000) + ": record has no `kind` member");
    }

    @Test
    void rejectsALineOverTheLimitWhereverItFalls() {
        int limit = 1 << 20;
        byte[] longerThanABlock = variant(Map.of(20_000, withPad(op(20_000))));
        byte[] withinABlock = variant(Map.of(30_000, op(30_000).replace("}", ",\"pad\":\"" + "q".repeat(2 << 20) + "\"}")));

        assertThat(failure(new JacksonTraceReader(2, limit), "over.jsonl", longerThanABlock))
                .hasMessage("over.jsonl:" + lineOf(20_000) + ": line is longer than 1048576 bytes");
        assertThat(failure(new JacksonTraceReader(2, limit), "within.jsonl", withinABlock))
                .hasMessage("within.jsonl:" + lineOf(30_000) + ": line is longer than 1048576 bytes");
    }

    private static synchronized byte[] gzipped() throws IOException {
        if (gzipped == null) {
            gzipped = JacksonTraceReaderCorpusTest.gzip(Files.readAllBytes(plain));
        }
        return gzipped;
    }

    private static MalformedTraceException failure(JacksonTraceReader reader, String source, byte[] trace) {
        MalformedTraceException e = catchThrowableOfType(MalformedTraceException.class,
                () -> reader.read(source, new ByteArrayInputStream(trace)));
        assertThat(e).as("error reading %s", source).isNotNull();
        return e;
    }

    private static String withPad(String record) {
        return record.substring(0, record.length() - 1) + BIG_PAD + "}";
    }

    private static String spanOf(int op) {
        return String.format("b%05d", op / OPS_PER_SPAN);
    }

    private static String op(int i) {
        return "{\"kind\":\"op\",\"span_id\":\"" + spanOf(i) + "\",\"op_name\":\"matmul\",\"inputs\":[\"t" + (i - 1)
                + "\",\"w\"],\"output\":\"t" + i + "\",\"shape\":[8,64],\"dtype\":\"f32\",\"device\":\"cpu\",\"duration_ns\":"
                + i + ",\"timestamp_ns\":" + (10L * i) + ",\"input_storage_bytes\":0}";
    }

    /** The 1-based physical line of op {@code i}. */
    private static int lineOf(int i) {
        return opIndex[i] + 1;
    }

    /** The trace with the lines of some ops replaced (same line breaks and padding). */
    private static byte[] variant(Map<Integer, String> replacements) {
        String[] copy = lines.clone();
        replacements.forEach((i, record) -> copy[opIndex[i]] = copy[opIndex[i]].replace(op(i), record));
        return join(copy);
    }

    /**
     * Meta, a root span and {@link #OPS} ops in spans of {@link #OPS_PER_SPAN}, with blank,
     * white-space-only, indented and CRLF lines along the way; no line break at the end.
     */
    private static void generate() {
        List<String> out = new ArrayList<>();
        opIndex = new int[OPS];
        out.add(META + "\n");
        out.add("{\"kind\":\"span_start\",\"id\":\"root\",\"name\":\"big::run\",\"start_ns\":0,\"span_kind\":\"function\","
                + "\"measured\":true}\n");
        for (int i = 0; i < OPS; i++) {
            if (i % OPS_PER_SPAN == 0) {
                out.add("\n");
                out.add("{\"kind\":\"span_start\",\"id\":\"" + spanOf(i) + "\",\"parent_id\":\"root\",\"name\":\"block\","
                        + "\"start_ns\":" + i + ",\"span_kind\":\"module\"}\n");
            }
            opIndex[i] = out.size();
            out.add(i % 7 == 0 ? "  " + op(i) + "\r\n" : i % 11 == 0 ? "\t" + op(i) + " \n" : op(i) + "\n");
            if (i % 11 == 0) {
                out.add(" \t\r\n");
            }
            if (i % OPS_PER_SPAN == OPS_PER_SPAN - 1) {
                out.add("{\"kind\":\"span_end\",\"id\":\"" + spanOf(i) + "\",\"duration_ns\":" + OPS_PER_SPAN + "}\n");
            }
        }
        out.add("{\"kind\":\"span_end\",\"id\":\"root\",\"duration_ns\":" + OPS + "}");
        lines = out.toArray(new String[0]);
    }

    private static byte[] join(String[] parts) {
        return String.join("", parts).getBytes(StandardCharsets.UTF_8);
    }

    private static InputStream open(Path file) {
        try {
            return new BufferedInputStream(Files.newInputStream(file), 1 << 16);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
