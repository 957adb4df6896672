package io.tracegraph.json.pytorch;

import static org.assertj.core.api.Assertions.assertThat;

import io.tracegraph.domain.trace.MalformedTraceException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The byte reader of Kineto's common event shape gives what Jackson gives, event by event: the same
 * columns, names in the same order, and the same refusal on the same line.
 */
class ChromeTraceParserTest {
    private static final String[] KEYS = {"ph", "cat", "name", "pid", "tid", "ts", "dur", "id", "args", "bp", "s",
        "p\\u0068", "n\\u00e4me", "Ts"};
    private static final String[] ARGS = {"External id", "external id", "correlation", "Python id",
        "Python parent id", "Input Dims", "Input type", "Bytes", "Addr", "Total Allocated", "Device Type",
        "Device Id", "device", "stream", "Concrete Inputs", "Input Strides", "Ev Idx", "cbid"};
    private static final String[] PHASES = {"\"X\"", "\"X\"", "\"X\"", "\"i\"", "\"I\"", "\"s\"", "\"f\"", "\"t\"",
        "\"M\"", "\"B\"", "\"E\"", "\"\"", "\"XX\"", "\"\\u0058\"", "88", "null"};
    private static final String[] CATEGORIES = {"\"cpu_op\"", "\"kernel\"", "\"python_function\"",
        "\"cuda_runtime\"", "\"gpu_memcpy\"", "\"user_annotation\"", "\"gpu_user_annotation\"", "\"ac2g\"",
        "\"Trace\"", "\"c\\u0070u_op\"", "\"\"", "7"};
    private static final String[] NAMES = {"\"aten::mm\"", "\"aten::add\"", "\"[memory]\"", "\"[OutOfMemory]\"",
        "\"ProfilerStep#3\"", "\"<built-in method size of Tensor object at 0x7f3a12bc>\"", "\"caf\u00e9\"",
        "\"a\\\"b\"", "\"tab\\tbed\"", "\"\"", "\"cudaLaunchKernel\"", "\"\\u005bmemory]\"", "12", "[\"x\"]"};
    private static final String[] NUMBERS = {"0", "1", "7", "-3", "-0", "42", "123456789012345678",
        "-123456789012345678", "1234567890123456789", "12345678901234567890123", "1.5", "-2.25", "0.001",
        "1419247333776.832", "1419247333776.8325", "1419247333776.8335001", "-0.0", "1e3", "1.5E-4", "2E+2",
        "1234567890123456.5", "9223372036854775", "9223372036854776", "2147483647", "2147483648",
        "-2147483648", "-2147483647"};
    private static final String[] OTHERS = {"\"x\"", "\"\"", "\"12\"", "\"-7\"", "\"-\"", "\"stream 7\"",
        "\"0123456789012345678\"", "\"caf\u00e9\"", "\"a\\nb\"", "null", "true", "false", "[]", "{}",
        "[1, [2, 3]]", "{\"k\": [1, {\"z\": null}], \"q\": \"w\"}", "[[1, 2], [], [-1], [3, \"a\"], 5, [1.5], null]",
        "[\"float\", \"\", 3, null, [\"c10::BFloat16\"]]", "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
        "[[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27,"
            + " 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51,"
            + " 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66], [9, 9]]"};
    /** Not JSON, or not what a member takes: each refused, by Jackson's words or the parser's. */
    private static final String[] BROKEN = {"01", "1.", "-", ".5", "1e", "tru", "nul", "nullx", "[1,]",
        "{\"a\": 1,}", "\"\u0001\"", "1x", "NaN", "[1 2]", "{\"a\" 1}", "\"open", "+1", "1e400"};
    private static final String[] SPACES = {" ", " ", "", "\n", "\r\n", "\t", "\r", "\n      "};

    private static String any(Random random, String[] choices) {
        return choices[random.nextInt(choices.length)];
    }

    private static String value(Random random, String key, boolean broken) {
        if (broken) {
            return any(random, BROKEN);
        }
        int pick = random.nextInt(10);
        switch (key) {
            case "ph":
                return pick < 9 ? any(random, PHASES) : any(random, OTHERS);
            case "cat":
                return pick < 9 ? any(random, CATEGORIES) : any(random, OTHERS);
            case "name":
                return pick < 9 ? any(random, NAMES) : any(random, OTHERS);
            case "args":
                return pick < 9 ? null : any(random, OTHERS);
            default:
                return pick < 6 ? any(random, NUMBERS) : any(random, OTHERS);
        }
    }

    private static String event(Random random, double brokenRate) {
        StringBuilder out = new StringBuilder("{");
        String sp = any(random, SPACES);
        List<String> keys = new ArrayList<>(List.of("ph", "cat", "name", "pid", "tid", "ts", "dur", "args"));
        int extra = random.nextInt(4);
        for (int i = 0; i < extra; i++) {
            keys.add(any(random, KEYS));
        }
        if (random.nextInt(4) == 0) {
            java.util.Collections.shuffle(keys, random);
        }
        keys.removeIf(k -> random.nextInt(30) == 0);
        for (int i = 0; i < keys.size(); i++) {
            String key = keys.get(i);
            String v = value(random, key, random.nextDouble() < brokenRate);
            if (key.equals("ts") || key.equals("dur")) {
                v = random.nextInt(60) > 0 ? (random.nextInt(2) == 0 ? "1419247333" + random.nextInt(1000) + "."
                        + random.nextInt(1000) : Integer.toString(random.nextInt(100_000))) : v;
            }
            if (v == null) {
                v = args(random, brokenRate);
            }
            out.append(sp).append('"').append(key).append('"').append(any(random, SPACES)).append(':')
                    .append(any(random, SPACES)).append(v);
            out.append(i + 1 < keys.size() ? "," : "");
        }
        return out.append(any(random, SPACES)).append('}').toString();
    }

    private static String args(Random random, double brokenRate) {
        StringBuilder out = new StringBuilder("{");
        int n = random.nextInt(6);
        for (int i = 0; i < n; i++) {
            String key = any(random, ARGS);
            String v;
            if (random.nextDouble() < brokenRate) {
                v = any(random, BROKEN);
            } else if (key.equals("Input Dims") && random.nextInt(3) > 0) {
                v = "[[1, 512], [], [64, 64, 3], [-1, 2]]";
            } else if (key.equals("Input type") && random.nextInt(3) > 0) {
                v = "[\"c10::BFloat16\", \"\", \"Scalar\"]";
            } else {
                v = random.nextInt(3) > 0 ? any(random, NUMBERS) : any(random, OTHERS);
            }
            out.append(i > 0 ? ", " : "").append(any(random, SPACES)).append('"').append(key).append("\": ").append(v);
        }
        return out.append('}').toString();
    }

    /** What a block gives: its table, or the refusal's line and words. */
    private static Object read(byte[] block, int from, boolean jackson) throws IOException {
        try {
            return jackson ? ChromeTraceParser.parseEventsWithJackson("t.json", block, from, block.length, 7)
                    : ChromeTraceParser.parseEvents("t.json", block, from, block.length, 7);
        } catch (MalformedTraceException e) {
            return e.problem().render();
        }
    }

    @Test
    void readsEventsOfEveryShapeAsJacksonDoes() throws IOException {
        Random random = new Random(15);
        int refused = 0;
        int read = 0;
        for (int round = 0; round < 3000; round++) {
            StringBuilder text = new StringBuilder("xx");
            int events = 1 + random.nextInt(40);
            double brokenRate = round % 3 == 0 ? 0.002 : 0;
            for (int i = 0; i < events; i++) {
                text.append(any(random, SPACES)).append(random.nextInt(200) == 0 ? any(random, OTHERS)
                        : event(random, brokenRate));
            }
            text.append(any(random, SPACES));
            byte[] block = text.toString().getBytes(StandardCharsets.UTF_8);
            Object jackson = read(block, 2, true);
            Object bytes = read(block, 2, false);
            if (jackson instanceof String) {
                assertThat(bytes).as(text.toString()).isEqualTo(jackson);
                refused++;
            } else {
                assertThat(bytes).as(text.toString()).isInstanceOf(EventTable.class);
                assertSameTable((EventTable) bytes, (EventTable) jackson, text.toString());
                read++;
            }
        }
        // Both outcomes are exercised, and the rows are not all empty.
        assertThat(refused).isGreaterThan(100);
        assertThat(read).isGreaterThan(1000);
    }

    @Test
    void readsKinetosOwnLayoutWithoutJacksonAlike() throws IOException {
        String event = "{\n    \"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 19392, \"tid\": 19392,\n"
                + "    \"ts\": 1419247333291.708, \"dur\": 22.51,\n    \"args\": {\n      \"External id\": 2, "
                + "\"Record function id\": 0, \"Concrete Inputs\": [\"\", \"0\"], \"Input type\": [\"float\", "
                + "\"Scalar\"], \"Input Strides\": [[512, 1], []], \"Input Dims\": [[1, 512], []], \"Ev Idx\": 1\n"
                + "    }\n  }\n  ";
        byte[] block = (event + event.replace("22.51", "-1") + event).getBytes(StandardCharsets.UTF_8);
        // The second event's dur is negative: refused on the line of its end, the block's
        // fourteenth from file line 7.
        assertThat(read(block, 0, false)).isEqualTo(read(block, 0, true))
                .isEqualTo("t.json:20: member `dur` is negative: -1 µs");
        byte[] good = (event + event).getBytes(StandardCharsets.UTF_8);
        EventTable table = (EventTable) read(good, 0, false);
        assertSameTable(table, (EventTable) read(good, 0, true), "");
        assertThat(table.size).isEqualTo(2);
        assertThat(table.shapes.get(table.shape[0])).containsExactly(1, 512);
        assertThat(table.names.get(table.dtype[0])).isEqualTo("float");
    }

    private static void assertSameTable(EventTable a, EventTable b, String text) {
        assertThat(new long[] {a.size, a.memSize, a.flowSize, a.names.size(), a.lanes.size(), a.shapes.size(),
            a.memoryDevices.size(), a.instantEvents, a.metadataEvents, a.durationPairEvents, a.outOfMemoryEvents})
                .as(text).isEqualTo(new long[] {b.size, b.memSize, b.flowSize, b.names.size(), b.lanes.size(),
                    b.shapes.size(), b.memoryDevices.size(), b.instantEvents, b.metadataEvents, b.durationPairEvents,
                    b.outOfMemoryEvents});
        for (int i = 0; i < a.names.size(); i++) {
            assertThat(a.names.get(i)).as(text).isEqualTo(b.names.get(i));
        }
        for (int l = 0; l < a.lanes.size(); l++) {
            assertThat(new long[] {a.lanes.pid(l), a.lanes.tid(l)}).as(text)
                    .isEqualTo(new long[] {b.lanes.pid(l), b.lanes.tid(l)});
        }
        for (int s = 0; s < a.shapes.size(); s++) {
            assertThat(a.shapes.get(s)).as(text).isEqualTo(b.shapes.get(s));
        }
        for (int d = 0; d < a.memoryDevices.size(); d++) {
            assertThat(a.memoryDevices.get(d)).as(text).isEqualTo(b.memoryDevices.get(d));
        }
        int n = a.size;
        assertThat(Arrays.copyOf(a.lane, n)).as(text).isEqualTo(Arrays.copyOf(b.lane, n));
        assertThat(Arrays.copyOf(a.start, n)).as(text).isEqualTo(Arrays.copyOf(b.start, n));
        assertThat(Arrays.copyOf(a.dur, n)).as(text).isEqualTo(Arrays.copyOf(b.dur, n));
        assertThat(Arrays.copyOf(a.name, n)).as(text).isEqualTo(Arrays.copyOf(b.name, n));
        assertThat(Arrays.copyOf(a.kind, n)).as(text).isEqualTo(Arrays.copyOf(b.kind, n));
        assertThat(Arrays.copyOf(a.externalId, n)).as(text).isEqualTo(Arrays.copyOf(b.externalId, n));
        assertThat(Arrays.copyOf(a.correlation, n)).as(text).isEqualTo(Arrays.copyOf(b.correlation, n));
        assertThat(Arrays.copyOf(a.pythonId, n)).as(text).isEqualTo(Arrays.copyOf(b.pythonId, n));
        assertThat(Arrays.copyOf(a.pythonParent, n)).as(text).isEqualTo(Arrays.copyOf(b.pythonParent, n));
        assertThat(Arrays.copyOf(a.shape, n)).as(text).isEqualTo(Arrays.copyOf(b.shape, n));
        assertThat(Arrays.copyOf(a.dtype, n)).as(text).isEqualTo(Arrays.copyOf(b.dtype, n));
        assertThat(Arrays.copyOf(a.device, n)).as(text).isEqualTo(Arrays.copyOf(b.device, n));
        assertThat(Arrays.copyOf(a.stream, n)).as(text).isEqualTo(Arrays.copyOf(b.stream, n));
        int m = a.memSize;
        assertThat(Arrays.copyOf(a.memTs, m)).as(text).isEqualTo(Arrays.copyOf(b.memTs, m));
        assertThat(Arrays.copyOf(a.memLane, m)).as(text).isEqualTo(Arrays.copyOf(b.memLane, m));
        assertThat(Arrays.copyOf(a.memDevice, m)).as(text).isEqualTo(Arrays.copyOf(b.memDevice, m));
        assertThat(Arrays.copyOf(a.memAddr, m)).as(text).isEqualTo(Arrays.copyOf(b.memAddr, m));
        assertThat(Arrays.copyOf(a.memBytes, m)).as(text).isEqualTo(Arrays.copyOf(b.memBytes, m));
        assertThat(Arrays.copyOf(a.memTotal, m)).as(text).isEqualTo(Arrays.copyOf(b.memTotal, m));
        int f = a.flowSize;
        assertThat(Arrays.copyOf(a.flowId, f)).as(text).isEqualTo(Arrays.copyOf(b.flowId, f));
        assertThat(Arrays.copyOf(a.flowLane, f)).as(text).isEqualTo(Arrays.copyOf(b.flowLane, f));
        assertThat(Arrays.copyOf(a.flowTs, f)).as(text).isEqualTo(Arrays.copyOf(b.flowTs, f));
        assertThat(Arrays.copyOf(a.flowPhase, f)).as(text).isEqualTo(Arrays.copyOf(b.flowPhase, f));
    }
}
