package io.tracegraph.json.pytorch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;
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
