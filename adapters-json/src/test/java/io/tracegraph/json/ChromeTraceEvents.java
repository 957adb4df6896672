package io.tracegraph.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A Chrome trace-event file read back with plain Jackson, and the format's rules checked on it: the
 * {@code traceEvents} array, complete events with numeric {@code ts}/{@code dur} in microseconds,
 * properly nested per thread, counters with numeric values. Shared with the CLI tests.
 */
public record ChromeTraceEvents(JsonNode root) {
    private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    public static ChromeTraceEvents parse(byte[] json) throws IOException {
        return new ChromeTraceEvents(JSON.readTree(json));
    }

    public List<JsonNode> events(String phase) {
        List<JsonNode> events = new ArrayList<>();
        root.get("traceEvents").forEach(e -> {
            if (phase.equals(e.path("ph").asText())) {
                events.add(e);
            }
        });
        return events;
    }

    /** Thread names by tid. */
    public Map<Integer, String> threadNames() {
        Map<Integer, String> names = new TreeMap<>();
        for (JsonNode m : events("M")) {
            if (m.get("name").asText().equals("thread_name")) {
                names.put(m.get("tid").asInt(), m.get("args").get("name").asText());
            }
        }
        return names;
    }

    /** Nanoseconds of a microsecond field, exactly. */
    public static long nanos(JsonNode micros) {
        return micros.decimalValue().movePointRight(3).longValueExact();
    }

    /** Asserts the format's rules; returns the number of complete events. */
    public int assertWellFormed() {
        assertThat(root.isObject()).as("a JSON object").isTrue();
        assertThat(root.get("traceEvents").isArray()).as("traceEvents").isTrue();
        for (JsonNode e : root.get("traceEvents")) {
            assertThat(e.get("ph").isTextual()).as("ph of %s", e).isTrue();
            assertThat(e.get("pid").isInt()).as("pid of %s", e).isTrue();
            assertThat(e.get("name").isTextual()).as("name of %s", e).isTrue();
        }
        List<JsonNode> complete = events("X");
        Map<Integer, List<JsonNode>> byTid = new TreeMap<>();
        for (JsonNode e : complete) {
            assertThat(e.get("ts").isNumber()).as("ts of %s", e).isTrue();
            assertThat(e.get("dur").isNumber()).as("dur of %s", e).isTrue();
            assertThat(e.get("ts").decimalValue()).as("ts of %s", e).isGreaterThanOrEqualTo(BigDecimal.ZERO);
            assertThat(e.get("dur").decimalValue()).as("dur of %s", e).isGreaterThanOrEqualTo(BigDecimal.ZERO);
            assertThat(e.get("tid").isInt()).as("tid of %s", e).isTrue();
            byTid.computeIfAbsent(e.get("tid").asInt(), t -> new ArrayList<>()).add(e);
        }
        assertThat(threadNames().keySet()).as("every thread is named").containsAll(byTid.keySet());
        byTid.forEach(ChromeTraceEvents::assertNested);
        for (JsonNode c : events("C")) {
            assertThat(c.get("ts").isNumber()).as("ts of %s", c).isTrue();
            c.get("args").forEach(v -> assertThat(v.isNumber()).as("counter value of %s", c).isTrue());
        }
        return complete.size();
    }

    /** On one thread, an event starting inside another must end inside it. */
    private static void assertNested(int tid, List<JsonNode> events) {
        List<long[]> spans = new ArrayList<>();
        for (JsonNode e : events) {
            long ts = nanos(e.get("ts"));
            spans.add(new long[] {ts, ts + nanos(e.get("dur"))});
        }
        spans.sort(Comparator.<long[]>comparingLong(s -> s[0]).thenComparing(s -> -s[1]));
        Deque<long[]> open = new ArrayDeque<>();
        for (long[] s : spans) {
            while (!open.isEmpty() && open.peek()[1] <= s[0]) {
                open.pop();
            }
            if (!open.isEmpty()) {
                assertThat(s[1]).as("tid %d: [%d, %d] inside [%d, %d]", tid, s[0], s[1], open.peek()[0],
                        open.peek()[1]).isLessThanOrEqualTo(open.peek()[1]);
            }
            open.push(s);
        }
    }
}
