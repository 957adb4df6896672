package io.tracegraph.json;

import static io.tracegraph.json.JacksonTraceReaderCorpusTest.bytes;
import static io.tracegraph.json.JacksonTraceReaderCorpusTest.gzip;
import static io.tracegraph.json.JacksonTraceReaderCorpusTest.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.tracegraph.domain.trace.DeviceMemoryEvent;
import io.tracegraph.domain.trace.EdgeEvent;
import io.tracegraph.domain.trace.ExecutionPhase;
import io.tracegraph.domain.trace.ExecutionStep;
import io.tracegraph.domain.trace.GradientEvent;
import io.tracegraph.domain.trace.GradientState;
import io.tracegraph.domain.trace.MalformedTraceException;
import io.tracegraph.domain.trace.MemoryAction;
import io.tracegraph.domain.trace.MemoryCategory;
import io.tracegraph.domain.trace.MemoryEvent;
import io.tracegraph.domain.trace.OpEvent;
import io.tracegraph.domain.trace.RunMeta;
import io.tracegraph.domain.trace.Shape;
import io.tracegraph.domain.trace.SpanKind;
import io.tracegraph.domain.trace.SpanRecord;
import io.tracegraph.domain.trace.TensorEvent;
import io.tracegraph.domain.trace.TimingMode;
import io.tracegraph.domain.trace.TraceDocument;
import io.tracegraph.domain.trace.TraceProblem;
import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class JacksonTraceReaderTest {
    private static final String META = "{\"kind\":\"meta\",\"schema\":\"candle-graph/trace/6\",\"run_id\":\"r\","
            + "\"correlation_id\":\"c\",\"entrypoint\":\"e\",\"phase\":\"infer\",\"timestamp\":\"t\",\"capture_step\":0,"
            + "\"warmup_steps\":0,\"device\":\"cpu\",\"timing_mode\":\"host\",\"tags\":{}";

    private final JacksonTraceReader reader = new JacksonTraceReader();

    @Test
    void readsEveryRecordKindOfTheBaseTrace() throws IOException {
        TraceDocument doc = read(reader, "base.jsonl", bytes("good-traces", "base.jsonl"));

        assertThat(doc).isEqualTo(expectedBaseDocument());
    }

    @Test
    void sortsSpansByCodePointOrderAndKeepsOtherRecordsInFileOrder() throws IOException {
        TraceDocument doc = read(reader, "base.jsonl", bytes("good-traces", "base.jsonl"));

        assertThat(doc.spans()).extracting(SpanRecord::id).containsExactly("s1", "s10", "s2", "s3", "s4");
        assertThat(doc.ops()).extracting(OpEvent::opName).containsExactly("matmul", "sum", "fill");
        assertThat(doc.memory()).extracting(MemoryEvent::timestampNs).containsExactly(300L, 2900L, 2950L);
    }

    @Test
    void resolvesMissingStorageBytesFromShapeAndDtype() throws IOException {
        TraceDocument doc = read(reader, "base.jsonl", bytes("good-traces", "base.jsonl"));

        // kept as recorded; a scalar "F64 " counts one element of 8 bytes; a scalar bool 1 byte
        assertThat(doc.ops()).extracting(OpEvent::storageBytes).containsExactly(2048L, 8L, 1L);
        assertThat(doc.ops().get(1).dtype()).isEqualTo("F64 ");
        assertThat(doc.tensors()).extracting(TensorEvent::storageBytes).containsExactly(2048L, 8192L);
    }

    @Test
    void readsCandleVersionWhenPresent() {
        TraceDocument doc = read(reader, "v.jsonl", (META + ",\"candle_version\":\"0.9.1\"}\n").getBytes(StandardCharsets.UTF_8));

        assertThat(doc.run().candleVersion()).isEqualTo("0.9.1");
        assertThat(doc.run().phase()).isEqualTo(ExecutionPhase.INFER);
    }

    @Test
    void acceptsIntegersUpToTwoToTheSixtyThirdMinusOne() {
        String trace = META + "}\n{\"kind\":\"span_start\",\"id\":\"a\",\"name\":\"n\",\"start_ns\":9223372036854775807,"
                + "\"span_kind\":\"function\"}\n{\"kind\":\"span_end\",\"id\":\"a\",\"duration_ns\":0}\n";

        TraceDocument doc = read(reader, "max.jsonl", trace.getBytes(StandardCharsets.UTF_8));

        assertThat(doc.spans().get(0).startNs()).isEqualTo(Long.MAX_VALUE);
        assertThat(doc.spans().get(0).closed()).isTrue();
    }

    @Test
    void reportsSourceLineAndMemberOfAnOutOfRangeInteger() {
        String trace = META + "}\n\n  \n{\"kind\":\"edge\",\"from_span\":\"a\",\"to_span\":\"b\",\"duration_ns\":9223372036854775808}\n";

        MalformedTraceException e = catchThrowableOfType(MalformedTraceException.class,
                () -> read(reader, "runs/t.jsonl", trace.getBytes(StandardCharsets.UTF_8)));

        assertThat(e.problem()).isEqualTo(new TraceProblem("runs/t.jsonl", 4, "duration_ns",
                "member `duration_ns`: integer 9223372036854775808 is out of range (0..9223372036854775807)"));
        assertThat(e).hasMessage("runs/t.jsonl:4: member `duration_ns`: integer 9223372036854775808 is out of range "
                + "(0..9223372036854775807)");
    }

    @Test
    void detectsGzipByMagicBytesWhateverTheName() throws IOException {
        byte[] plain = bytes("good-traces", "base.jsonl");

        assertThat(read(reader, "trace.jsonl", gzip(plain))).isEqualTo(read(reader, "trace.jsonl", plain));
        assertThat(read(reader, "trace.jsonl.gz", plain)).isEqualTo(read(reader, "trace.jsonl", plain));
    }

    @Test
    void readsGzipWithSeveralMembers() throws IOException {
        byte[] plain = bytes("good-traces", "base.jsonl");
        int half = indexAfterLine(plain, 10);
        byte[] first = gzip(Arrays.copyOfRange(plain, 0, half));
        byte[] second = gzip(Arrays.copyOfRange(plain, half, plain.length));
        byte[] both = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, both, first.length, second.length);

        assertThat(read(reader, "multi.jsonl.gz", both)).isEqualTo(read(reader, "base.jsonl", plain));
    }

    @Test
    @Timeout(10)
    void reportsTruncatedGzipAsAMalformedTraceWithoutALine() throws IOException {
        byte[] gz = gzip(bytes("good-traces", "base.jsonl"));

        for (int cut : new int[] {2, 5, 10, gz.length / 2, gz.length - 8, gz.length - 1}) {
            MalformedTraceException e = catchThrowableOfType(MalformedTraceException.class,
                    () -> read(reader, "t.jsonl.gz", Arrays.copyOf(gz, cut)));
            assertThat(e).as("cut at %d", cut).isNotNull();
            assertThat(e.problem().line()).as("cut at %d", cut).isZero();
            assertThat(e.getMessage()).as("cut at %d", cut).startsWith("t.jsonl.gz: corrupt or truncated gzip data: ")
                    .doesNotContain("null");
        }
    }

    @Test
    void reportsCorruptDeflateDataAsAMalformedTrace() throws IOException {
        byte[] gz = gzip(bytes("good-traces", "base.jsonl"));
        for (int i = 12; i < gz.length - 8; i += 7) {
            gz[i] = (byte) ~gz[i];
        }
        byte[] corrupt = gz;

        assertThatThrownBy(() -> read(reader, "t.jsonl.gz", corrupt)).isInstanceOf(MalformedTraceException.class)
                .hasMessageStartingWith("t.jsonl.gz: corrupt or truncated gzip data: ");
    }

    @Test
    void reportsAStreamFailingBelowTheGzipDataAsAReadFailure() throws IOException {
        byte[] gz = gzip(bytes("good-traces", "base.jsonl"));
        InputStream failing = new InputStream() {
            private int next;

            @Override
            public int read() throws IOException {
                if (next == gz.length / 2) {
                    throw new java.io.EOFException("archive ended early");
                }
                return gz[next++] & 0xff;
            }
        };

        assertThatThrownBy(() -> reader.read("t.jsonl.gz", failing))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessage("t.jsonl.gz: archive ended early");
    }

    @Test
    void reportsAFailingStreamAsAReadFailure() {
        InputStream failing = new InputStream() {
            private int left = 3;

            @Override
            public int read() throws IOException {
                if (left-- > 0) {
                    return '\n';
                }
                throw new IOException("disk on fire");
            }
        };

        assertThatThrownBy(() -> reader.read("t.jsonl", failing))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessage("t.jsonl: disk on fire");
    }

    @Test
    void leavesTheStreamOpen() throws IOException {
        boolean[] closed = new boolean[1];
        for (byte[] bytes : List.of(bytes("good-traces", "base.jsonl"), gzip(bytes("good-traces", "base.jsonl")))) {
            InputStream in = new FilterInputStream(new ByteArrayInputStream(bytes)) {
                @Override
                public void close() {
                    closed[0] = true;
                }
            };
            reader.read("t.jsonl", in);
            assertThat(closed[0]).isFalse();
            assertThat(in.read()).isEqualTo(-1);
        }
    }

    @Test
    void readsTheSameTraceRepeatedlyAndConcurrently() throws Exception {
        byte[] plain = bytes("good-traces", "unknown-members.jsonl");
        TraceDocument expected = read(reader, "t.jsonl", plain);
        List<Thread> threads = new java.util.ArrayList<>();
        List<Throwable> failures = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        for (int t = 0; t < 4; t++) {
            Thread thread = new Thread(() -> {
                for (int i = 0; i < 50; i++) {
                    if (!read(reader, "t.jsonl", plain).equals(expected)) {
                        failures.add(new AssertionError("different document"));
                    }
                }
            });
            thread.setUncaughtExceptionHandler((th, e) -> failures.add(e));
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        assertThat(failures).isEmpty();
    }

    @Test
    void rejectsNonPositiveThreadsOrLineLimit() {
        assertThatThrownBy(() -> new JacksonTraceReader(0, 1024)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new JacksonTraceReader(1, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    private static int indexAfterLine(byte[] bytes, int lines) {
        int seen = 0;
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == '\n' && ++seen == lines) {
                return i + 1;
            }
        }
        throw new IllegalArgumentException("fewer lines");
    }

    /** What {@code good-traces/base.jsonl} holds, built by hand. */
    static TraceDocument expectedBaseDocument() {
        Map<String, String> tags = new TreeMap<>(Map.of("precision", "f32", "seq_len", "16"));
        RunMeta run = new RunMeta("run-7", "demo/update-7", "demo::train::loss", ExecutionPhase.TRAIN,
                "2026-08-04T18:00:00.123Z", 7, 2, "cuda:0", TimingMode.DEVICE_SYNCHRONIZED, tags, null);
        List<SpanRecord> spans = List.of(
                new SpanRecord("s1", null, "demo::train::loss", SpanKind.FUNCTION, false, 0, true, 4100, null),
                new SpanRecord("s10", "s2", "Head::forward", SpanKind.OP, false, 2800, true, 0, ExecutionStep.BACKWARD),
                new SpanRecord("s2", "s1", "train_step", SpanKind.FUNCTION, true, 100, true, 4000, null),
                new SpanRecord("s3", "s2", "Encoder::forward \uD83D\uDE00", SpanKind.MODULE, false, 200, true, 2500,
                        ExecutionStep.FORWARD),
                new SpanRecord("s4", "s1", "unclosed", SpanKind.FUNCTION, false, 4200, false, 0, ExecutionStep.OPTIMIZER));
        List<OpEvent> ops = List.of(
                new OpEvent("s3", "matmul", List.of("x", "w"), "t1", Shape.of(8, 64), "f32", "cuda:0", 2000, 300, 2048L, 512),
                new OpEvent("s3", "sum", List.of("t1"), null, Shape.SCALAR, "F64 ", "cuda:0", 50, 2400, 8L, 2048),
                new OpEvent("s10", "fill", List.of(), null, Shape.SCALAR, "bool", "cpu", 5, 0, 1L, 0));
        List<TensorEvent> tensors = List.of(
                new TensorEvent("s3", "t1", Shape.of(8, 64), "f32", "cuda:0", false, 2048L, MemoryCategory.ACTIVATION),
                new TensorEvent("s3", "w", Shape.of(64, 64), "bf16", "cuda:0", true, 8192L, MemoryCategory.PARAMETER));
        List<MemoryEvent> memory = List.of(
                new MemoryEvent(300, "t1", "s3", "matmul", "cuda:0", 2048, MemoryAction.ALLOC, Shape.of(8, 64), "f32",
                        MemoryCategory.ACTIVATION),
                new MemoryEvent(2900, "t1", "s10", null, "cuda:0", 2048, MemoryAction.FREE, Shape.of(8, 64), "f32",
                        MemoryCategory.ACTIVATION),
                new MemoryEvent(2950, "scratch", "s10", null, "cpu", 16, MemoryAction.ALLOC, Shape.SCALAR, "u8",
                        MemoryCategory.OTHER));
        List<DeviceMemoryEvent> deviceMemory = List.of(new DeviceMemoryEvent(150, "cuda:0", 1000, 9000, 12000L));
        List<GradientEvent> gradients = List.of(
                new GradientEvent("g1", "vb", "enc.weight", GradientState.PRESENT, 0.5),
                new GradientEvent("g2", "vb", "head.bias", GradientState.NON_FINITE, 3.0),
                new GradientEvent("g3", "vb", "head.weight", GradientState.MISSING, null));
        List<EdgeEvent> edges = List.of(new EdgeEvent("s3", "s10", 40));
        return new TraceDocument(TraceDocument.SCHEMA, run, spans, ops, tensors, memory, deviceMemory, gradients, edges);
    }
}
