package io.tracegraph.json.pytorch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Reading with every core gives the events a single streaming parse of the file gives, in file order. */
class TraceFramingTest {
    static java.util.stream.Stream<Path> traces() throws IOException {
        return PyTorchRealTracesTest.traces();
    }

    private static InputStream open(Path trace) throws IOException {
        InputStream in = Files.newInputStream(trace);
        return trace.toString().endsWith(".gz") ? new GZIPInputStream(in) : in;
    }

    @ParameterizedTest
    @MethodSource("traces")
    void readsTheSameEventsAsOneStreamingParse(Path trace) throws IOException {
        EventTable one;
        EventTable framed;
        try (InputStream in = open(trace)) {
            one = ChromeTraceParser.parse(trace.toString(), in);
        }
        try (InputStream in = open(trace)) {
            framed = TraceFraming.read(trace.toString(), in, 3);
        }
        assertSameEvents(framed, one);
    }

    /**
     * A stream that tells its size (a file; here its bytes in memory) lets the columns grow once to
     * the rows expected: the events are the same, and the columns are not oversized.
     */
    @ParameterizedTest
    @MethodSource("traces")
    void readsAStreamOfKnownSizeAlike(Path trace) throws IOException {
        byte[] bytes;
        try (InputStream in = open(trace)) {
            bytes = in.readAllBytes();
        }
        EventTable one = ChromeTraceParser.parse(trace.toString(), new ByteArrayInputStream(bytes));
        EventTable framed = TraceFraming.read(trace.toString(), new ByteArrayInputStream(bytes), 3);
        assertSameEvents(framed, one);
        if (bytes.length >= 8 * TraceFraming.BLOCK) {
            assertThat(framed.lane.length).isBetween(framed.size, framed.size + framed.size / 4 + 1024);
        }
    }

    /**
     * Input discovery hands the reader the sniffed head in front of the file's stream (a
     * {@code SequenceInputStream}, which tells only the head's bytes at first): the size is asked
     * again after the first block, so the columns grow once to the rows expected, as for a stream
     * that tells its size from the start, not by halves ~20 times as for one that cannot tell.
     */
    @Test
    void aFileBehindItsSniffedHeadIsReadAsOfKnownSize() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes("{\"traceEvents\": [\n".getBytes(StandardCharsets.UTF_8));
        for (int i = 0; out.size() < 9 * TraceFraming.BLOCK; i++) {
            out.writeBytes(("  {\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 1, \"tid\": 1, "
                    + "\"ts\": " + (i * 10) + ".5, \"dur\": 2.25, \"args\": {\"External id\": " + i + "}},\n")
                    .getBytes(StandardCharsets.UTF_8));
        }
        out.writeBytes("  {\"ph\": \"i\", \"name\": \"end\", \"pid\": 1, \"tid\": 1, \"ts\": 1}\n]}\n"
                .getBytes(StandardCharsets.UTF_8));
        byte[] bytes = out.toByteArray();
        int head = 8192;
        EventTable known = TraceFraming.read("known", new ByteArrayInputStream(bytes), 2);
        EventTable sniffed = TraceFraming.read("sniffed", new SequenceInputStream(
                new ByteArrayInputStream(bytes, 0, head), new ByteArrayInputStream(bytes, head, bytes.length - head)), 2);
        EventTable unknown = TraceFraming.read("unknown", new FilterInputStream(new ByteArrayInputStream(bytes)) {
            @Override
            public int available() {
                return 0;
            }
        }, 2);
        assertThat(sniffed.size).isEqualTo(known.size).isEqualTo(unknown.size).isGreaterThan(250_000);
        assertThat(Arrays.copyOf(sniffed.start, sniffed.size)).isEqualTo(Arrays.copyOf(unknown.start, unknown.size));
        assertThat(sniffed.completeGrowths).isEqualTo(known.completeGrowths).isLessThan(unknown.completeGrowths - 3);
        assertThat(sniffed.lane.length).isBetween(sniffed.size, sniffed.size + sniffed.size / 4 + 1024);
    }

    private static void assertSameEvents(EventTable framed, EventTable one) {
        assertThat(framed.size).isEqualTo(one.size);
        assertThat(framed.memSize).isEqualTo(one.memSize);
        assertThat(framed.flowSize).isEqualTo(one.flowSize);
        for (int r = 0; r < one.size; r++) {
            assertThat(framed.names.get(framed.name[r])).isEqualTo(one.names.get(one.name[r]));
            assertThat(new long[] {framed.start[r], framed.dur[r], framed.kind[r], framed.externalId[r],
                framed.correlation[r], framed.pythonId[r], framed.pythonParent[r], framed.lanes.pid(framed.lane[r]),
                framed.lanes.tid(framed.lane[r]), framed.device[r], framed.stream[r]})
                    .isEqualTo(new long[] {one.start[r], one.dur[r], one.kind[r], one.externalId[r], one.correlation[r],
                        one.pythonId[r], one.pythonParent[r], one.lanes.pid(one.lane[r]), one.lanes.tid(one.lane[r]),
                        one.device[r], one.stream[r]});
        }
        for (int r = 0; r < one.memSize; r++) {
            assertThat(new long[] {framed.memTs[r], framed.memAddr[r], framed.memBytes[r], framed.memTotal[r]})
                    .isEqualTo(new long[] {one.memTs[r], one.memAddr[r], one.memBytes[r], one.memTotal[r]});
        }
        assertThat(framed.header).isEqualTo(one.header);
        assertThat(framed.baseTimeNs).isEqualTo(one.baseTimeNs);
        assertThat(framed.deviceNames).isEqualTo(one.deviceNames);
        assertThat(framed.distributed).isEqualTo(one.distributed);
    }
}
