package io.tracegraph.json.pytorch;

import static io.tracegraph.json.pytorch.TorchTraces.trace;
import static io.tracegraph.json.pytorch.TorchTraces.x;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tracegraph.domain.trace.MalformedTraceException;
import io.tracegraph.domain.trace.TraceDocument;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Hostile and broken PyTorch traces are refused with one line naming the file and the line, never a
 * crash: what {@code build}, {@code check} and {@code import} print (docs/reliability.md).
 */
class PyTorchHostileTracesTest {
    private static final String GOOD = x("cpu_op", "aten::add", 1, 1, 1, 1, "");

    private static String refusal(byte[] trace) {
        try {
            TraceDocument doc = new PyTorchTraceReader().read("bad.json", new ByteArrayInputStream(trace));
            throw new AssertionError("read: " + doc.spans().size() + " spans");
        } catch (MalformedTraceException e) {
            String line = e.problem().render();
            assertThat(line).doesNotContain("\n");
            return line;
        }
    }

    private static String refusal(String trace) {
        return refusal(trace.getBytes(StandardCharsets.UTF_8));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            an event without ts | {"ph": "X", "cat": "cpu_op", "name": "a", "pid": 1, "tid": 1, "dur": 1} | bad.json:3: complete event has no `ts`
            an event without dur | {"ph": "X", "cat": "cpu_op", "name": "a", "pid": 1, "tid": 1, "ts": 1} | bad.json:3: complete event has no `dur`
            a negative dur | {"ph": "X", "cat": "cpu_op", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": -2.5} | bad.json:3: member `dur` is negative: -2.5 µs
            a ts that is a string | {"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": "12", "dur": 1} | bad.json:3: member `ts` must be a number, found a string
            NaN | {"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": NaN, "dur": 1} | bad.json:3: invalid JSON: Non-standard token 'NaN'
            Infinity | {"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": -Infinity} | bad.json:3: invalid JSON: Non-standard token '-Infinity'
            a time beyond 64 bits | {"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1e400, "dur": 1} | bad.json:3: member `ts` is out of range: 1e400
            a memory event without ts | {"ph": "i", "name": "[memory]", "pid": 1, "tid": 1, "args": {"Bytes": 4}} | bad.json:3: memory event has no `ts`
            an element that is not an event | 42 | bad.json:3: member `traceEvents` must hold event objects, found a number
            """)
    void refusesABadEventNamingItsLine(String what, String event, String expected) {
        assertThat(refusal(trace(GOOD, event))).isEqualTo(expected);
    }

    @Test
    void refusesJsonCutShort() {
        assertThat(refusal("{\"traceEvents\": [\n" + GOOD + ",\n{\"ph\": \"X\", \"na"))
                .isEqualTo("bad.json:3: invalid JSON: unexpected end of input (the file is cut short)");
        assertThat(refusal("{\"traceEvents\": [\n" + GOOD + "\n"))
                .isEqualTo("bad.json:3: invalid JSON: unexpected end of input (the file is cut short)");
    }

    @Test
    void refusesWhatIsNotATraceEventDocument() {
        assertThat(refusal("")).isEqualTo(
                "bad.json:1: the file is empty: expected a JSON object with `traceEvents`, or an array of trace events");
        assertThat(refusal("\u0000\u0001ELF")).isEqualTo(
                "bad.json:1: expected a JSON object with `traceEvents`, or an array of trace events");
        assertThat(refusal("{\"schemaVersion\": 1}")).isEqualTo(
                "bad.json:1: not a trace-event document: no member `traceEvents`");
        assertThat(refusal("{\"traceEvents\": 5}")).isEqualTo(
                "bad.json:1: member `traceEvents` must be an array of events");
        assertThat(refusal(trace(GOOD) + " {}")).isEqualTo(
                "bad.json:3: trailing characters after the trace document");
    }

    @Test
    void refusesNestingDeeperThanTwoHundredLevels() {
        String deep = "[".repeat(300) + "]".repeat(300);
        assertThat(refusal(trace(GOOD, x("cpu_op", "a", 1, 1, 1, 1, "\"deep\": " + deep))))
                .isEqualTo("bad.json:3: invalid JSON: nesting deeper than 200 levels");
    }

    @Test
    void refusesAHundredMegabyteStringWithoutHoldingIt() throws IOException {
        byte[] head = ("{\"traceEvents\": [\n" + GOOD + ",\n{\"ph\": \"X\", \"name\": \"").getBytes(StandardCharsets.UTF_8);
        InputStream endless = new InputStream() {
            private long left = 100L << 20;

            @Override
            public int read() {
                return left-- > 0 ? 'a' : -1;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (left <= 0) {
                    return -1;
                }
                int n = (int) Math.min(len, left);
                Arrays.fill(b, off, off + n, (byte) 'a');
                left -= n;
                return n;
            }
        };
        InputStream in = new SequenceInputStream(new ByteArrayInputStream(head), endless);
        assertThatThrownBy(() -> new PyTorchTraceReader().read("bad.json", in))
                .isInstanceOf(MalformedTraceException.class)
                .hasMessage("bad.json:3: string is longer than 67108864 bytes");
    }

    @Test
    void refusesCorruptAndTruncatedGzip() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(bytes)) {
            gz.write(trace(GOOD, GOOD, GOOD).getBytes(StandardCharsets.UTF_8));
        }
        byte[] whole = bytes.toByteArray();
        assertThat(refusal(Arrays.copyOf(whole, whole.length - 12))).startsWith("bad.json: corrupt or truncated gzip data");
        byte[] corrupt = whole.clone();
        corrupt[12] ^= 0x55;
        assertThat(refusal(corrupt)).startsWith("bad.json: corrupt or truncated gzip data");
    }

    @Test
    void anErrorInALaterBlockNamesItsLineInTheFile() {
        StringBuilder events = new StringBuilder("{\"traceEvents\": [\n");
        int lines = 80_000;
        for (int i = 0; i < lines; i++) {
            events.append(x("cpu_op", "aten::add", 1, 1, i, 0.5, "\"External id\": " + i)).append(",\n");
        }
        events.append("{\"ph\": \"X\", \"name\": \"late\", \"pid\": 1, \"tid\": 1, \"dur\": 1}\n]}\n");
        assertThat(events.length()).isGreaterThan(2 * TraceFraming.BLOCK);
        assertThat(refusal(events.toString())).isEqualTo("bad.json:" + (lines + 2) + ": complete event has no `ts`");
    }

    @Test
    void unknownCategoriesPhasesArgsAndHugeIntegersAreRead() {
        TraceDocument doc = new PyTorchTraceReader().read("odd.json", new ByteArrayInputStream(trace(
                x("cpu_op", "record_param_comms", 1, 1, 1, 5, "\"Comms Id\": 10159970886766084423, \"External id\": \"x\""),
                x("my_category", "thing", 1, 1, 2, 1, ""),
                "{\"ph\": \"C\", \"name\": \"counter\", \"pid\": 1, \"ts\": 3, \"args\": {\"v\": 1}}",
                "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 1, \"tid\": 1, \"args\": {\"name\": \"main\"}}",
                "{\"ph\": \"X\", \"name\": \"no category\", \"pid\": \"Spans\", \"tid\": \"PyTorch Profiler\", "
                        + "\"ts\": 0, \"dur\": 9}").getBytes(StandardCharsets.UTF_8)));
        assertThat(doc.spans()).extracting(s -> s.name()).containsExactly("torch.profiler", "record_param_comms",
                "thing");
        assertThat(doc.ops()).isEmpty();
    }
}
