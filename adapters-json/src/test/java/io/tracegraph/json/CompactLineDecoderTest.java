package io.tracegraph.json;

import static org.assertj.core.api.Assertions.assertThat;

import io.tracegraph.domain.trace.MemoryAction;
import io.tracegraph.domain.trace.MemoryEvent;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The compact decoder accepts only what {@link RecordDecoder} accepts, with the same record, and
 * declines the rest: for every line of generated traces of every revision and for lines spelled
 * in every other way JSON allows or that are wrong, its record equals Jackson's or it declines.
 */
class CompactLineDecoderTest {

    /** Decodes a line both ways: the compact record (or null) and Jackson's (or its error). */
    private static Object[] both(int revision, String line) {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        Object compact = new CompactLineDecoder().at(revision).decode(bytes, 0, bytes.length);
        Object jackson;
        try {
            jackson = JacksonTraceReader.decodeLine(new RecordDecoder().at(revision), bytes, 0, bytes.length);
        } catch (RecordDecoder.DecodeException e) {
            jackson = e;
        }
        return new Object[] {compact, jackson};
    }

    private static void assertAgrees(int revision, String line) {
        Object[] r = both(revision, line);
        if (r[0] != null) {
            assertThat(r[0]).as("trace/%d line %s", revision, line).isEqualTo(r[1]);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {6, 7, 8, 9, 10})
    void decodesEveryGeneratedRecordOfTheHotKindsAsJacksonDoes(int revision) {
        StringWriter out = new StringWriter();
        try {
            SyntheticTrace.training().ops(600).seed(3).schema(revision).writeTo(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, Integer> accepted = new HashMap<>();
        for (String line : out.toString().split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            Object[] r = both(revision, line);
            String kind = line.substring(9, line.indexOf('"', 9));
            if (r[0] != null) {
                assertThat(r[0]).as("trace/%d line %s", revision, line).isEqualTo(r[1]);
                accepted.merge(kind, 1, Integer::sum);
            } else {
                assertThat(kind).as("declined %s", line).isIn("meta", "device_memory", "tensor_stats", "terminal",
                        "edge");
            }
        }
        assertThat(accepted).containsKeys("span_start", "span_end", "op", "memory", "tensor", "gradient");
        if (revision >= 7) {
            assertThat(accepted).containsKeys("device_interval", "edge");
        }
    }

    @Test
    void readsTrace7MembersInTheProducersOrderAndInAnyOtherAsJacksonDoes() {
        String[] memory = {
            "{\"kind\":\"memory\",\"timestamp_ns\":5,\"storage_id\":\"st9\",\"tensor_id\":\"t9\",\"span_id\":\"s1\","
                    + "\"device\":\"cpu\",\"bytes\":8,\"action\":\"alloc\",\"shape\":[2],\"dtype\":\"f32\","
                    + "\"category\":\"activation\"}",
            "{\"kind\":\"memory\",\"timestamp_ns\":5,\"tensor_id\":\"t9\",\"span_id\":\"s1\",\"device\":\"cpu\","
                    + "\"bytes\":8,\"action\":\"alloc\",\"shape\":[2],\"dtype\":\"f32\",\"category\":\"activation\","
                    + "\"storage_id\":\"st9\"}",
            "{\"kind\":\"memory\",\"timestamp_ns\":5,\"tensor_id\":\"t9\",\"span_id\":\"s1\",\"device\":\"cpu\","
                    + "\"storage_id\":\"st9\",\"bytes\":8,\"action\":\"alloc\",\"shape\":[2],\"dtype\":\"f32\","
                    + "\"category\":\"activation\"}",
        };
        String[] tensor = {
            "{\"kind\":\"tensor\",\"span_id\":\"s1\",\"tensor_id\":\"t9\",\"label\":\"act/x\",\"shape\":[2],"
                    + "\"dtype\":\"f32\",\"device\":\"cpu\",\"requires_grad\":false,\"dense_bytes\":8,"
                    + "\"category\":\"activation\"}",
            "{\"kind\":\"tensor\",\"span_id\":\"s1\",\"tensor_id\":\"t9\",\"shape\":[2],\"dtype\":\"f32\","
                    + "\"device\":\"cpu\",\"requires_grad\":false,\"dense_bytes\":8,\"category\":\"activation\","
                    + "\"label\":\"act/x\"}",
        };
        for (String[] spellings : new String[][] {memory, tensor}) {
            Object first = both(7, spellings[0])[0];
            assertThat(first).as(spellings[0]).isNotNull().isEqualTo(both(7, spellings[0])[1]);
            for (String line : spellings) {
                Object[] r = both(7, line);
                assertThat(r[0]).as(line).isEqualTo(r[1]).isEqualTo(first);
            }
        }
    }

    @Test
    void aFreeSharesTheStorageIdStringOfItsRecentAllocation() {
        CompactLineDecoder decoder = new CompactLineDecoder().at(10);
        String alloc = "{\"kind\":\"memory\",\"timestamp_ns\":5,\"storage_id\":\"st42\",\"tensor_id\":\"t42\","
                + "\"span_id\":\"s1\",\"device\":\"cpu\",\"bytes\":8,\"action\":\"alloc\",\"shape\":[2],"
                + "\"dtype\":\"f32\",\"category\":\"activation\"}";
        String other = alloc.replace("st42", "st43").replace("t42", "t43");
        String free = alloc.replace("\"timestamp_ns\":5", "\"timestamp_ns\":9").replace("alloc", "free");
        MemoryEvent allocated = (MemoryEvent) decode(decoder, alloc);
        decode(decoder, other);
        MemoryEvent freed = (MemoryEvent) decode(decoder, free);
        assertThat(freed.action()).isEqualTo(MemoryAction.FREE);
        assertThat(freed.storageId()).isEqualTo("st42").isSameAs(allocated.storageId());
    }

    private static Object decode(CompactLineDecoder decoder, String line) {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        return decoder.decode(bytes, 0, bytes.length);
    }

    @Test
    void agreesWithJacksonOnEverySpellingOfAStorageId() {
        String head = "{\"kind\":\"memory\",\"timestamp_ns\":5,\"storage_id\":";
        String tail = ",\"tensor_id\":\"t9\",\"span_id\":\"s1\",\"device\":\"cuda:0\",\"bytes\":8,"
                + "\"action\":\"alloc\",\"shape\":[2],\"dtype\":\"f32\",\"category\":\"activation\"}";
        List<String> ids = List.of("\"st9\"", "\"\"", "\"st\\n9\"", "\"st\\u00e99\"", "\"st\u00e99\"",
                "\"" + "s".repeat(65) + "\"", "\"" + "s".repeat(64) + "\"", "9", "null", "\"st9");
        for (String id : ids) {
            for (int revision : new int[] {7, 10}) {
                assertAgrees(revision, head + id + tail);
            }
        }
        Object[] plain = both(10, head + "\"st9\"" + tail);
        assertThat(plain[0]).as("the fast decoder reads a plain storage id").isNotNull();
        assertThat(((MemoryEvent) plain[0]).storageId()).isEqualTo("st9");
        Object[] long65 = both(10, head + "\"" + "s".repeat(65) + "\"" + tail);
        assertThat(((MemoryEvent) long65[0]).storageId()).isEqualTo("s".repeat(65));
    }

    @Test
    void declinesOrAgreesOnOtherSpellingsAndMistakes() {
        List<String> lines = List.of(
                "{\"kind\":\"span_end\",\"id\":\"s1\",\"duration_ns\":5}",
                "{\"kind\":\"span_end\",\"id\":\"s1\"}",
                "{\"kind\":\"span_end\",\"duration_ns\":5}",
                "{\"kind\":\"span_end\",\"id\":\"s1\",\"duration_ns\":05}",
                "{\"kind\":\"span_end\",\"id\":\"s1\",\"duration_ns\":-5}",
                "{\"kind\":\"span_end\",\"id\":\"s1\",\"duration_ns\":5.0}",
                "{\"kind\":\"span_end\",\"id\":\"s1\",\"duration_ns\":5e3}",
                "{\"kind\":\"span_end\",\"id\":\"s1\",\"duration_ns\":99999999999999999999}",
                "{\"kind\":\"span_end\",\"id\":\"s1\",\"duration_ns\":999999999999999999}",
                "{\"kind\":\"span_end\",\"id\":\"s1\",\"duration_ns\":9223372036854775807}",
                "{\"kind\":\"span_end\",\"id\":\"s1\",\"id\":\"s2\"}",
                "{\"kind\":\"span_end\",\"kind\":\"span_end\",\"id\":\"s2\"}",
                "{\"kind\":\"span_end\",\"id\":\"s\\u0031\"}",
                "{\"kind\":\"span_end\",\"id\":\"s\\ud800\"}",
                "{\"kind\":\"span_end\",\"id\":\"s\u00e9\"}",
                "{\"kind\":\"span_end\",\"id\":\"s1\",\"extra\":[1,{\"a\":2}]}",
                "{\"kind\":\"span_end\",\"id\":\"s1\",\"duration_ns\":5,}",
                "{\"kind\":\"span_end\",\"id\":\"s1\",\"duration_ns\":5}}",
                "{\"kind\":\"span_end\",\"id\":\"s1\",\"duration_ns\":5",
                "{\"kind\":\"span_end\" ,\"id\":\"s1\"}",
                "{\"kind\": \"span_end\", \"id\": \"s1\"}",
                "{\"kind\":\"span_end\",\"id\":s1}",
                "{\"kind\":\"span_end\",\"id\":null}",
                "{\"kind\":\"span_end\",\"id\":1}",
                "{\"kind\":\"span_start\",\"id\":\"s1\",\"name\":\"n\",\"start_ns\":0,\"span_kind\":\"function\"}",
                "{\"kind\":\"span_start\",\"id\":\"s1\",\"parent_id\":null,\"name\":\"n\",\"start_ns\":0,"
                        + "\"span_kind\":\"module\",\"measured\":true,\"step\":null}",
                "{\"kind\":\"span_start\",\"id\":\"s1\",\"parent_id\":\"s0\",\"name\":\"n\",\"start_ns\":0,"
                        + "\"span_kind\":\"op\",\"measured\":false,\"step\":\"backward\"}",
                "{\"kind\":\"span_start\",\"id\":\"s1\",\"name\":\"n\",\"start_ns\":0,\"span_kind\":\"Function\"}",
                "{\"kind\":\"span_start\",\"id\":\"s1\",\"name\":\"n\",\"start_ns\":0,\"span_kind\":\"function\","
                        + "\"measured\":1}",
                "{\"kind\":\"span_start\",\"id\":\"s1\",\"name\":\"n\",\"start_ns\":0,\"span_kind\":\"function\","
                        + "\"measured\":truex}",
                "{\"kind\":\"span_start\",\"id\":\"s1\",\"name\":\"n\",\"span_kind\":\"function\"}",
                "{\"kind\":\"span_start\",\"id\":\"s1\",\"name\":\"n\",\"start_ns\":0,\"span_kind\":\"function\","
                        + "\"step\":\"sideways\"}",
                "{\"kind\":\"op\",\"span_id\":\"s1\",\"op_name\":\"matmul\",\"dtype\":\"f32\",\"device\":\"cpu\","
                        + "\"duration_ns\":3}",
                "{\"kind\":\"op\",\"span_id\":\"s1\",\"op_name\":\"matmul\",\"inputs\":[\"a\",\"b\",\"c\"],"
                        + "\"output\":null,\"shape\":[],\"dtype\":\"f32\",\"device\":\"cpu\",\"duration_ns\":3,"
                        + "\"storage_bytes\":null,\"input_storage_bytes\":7}",
                "{\"kind\":\"op\",\"span_id\":\"s1\",\"op_name\":\"matmul\",\"inputs\":[\"a\",1],\"dtype\":\"f32\","
                        + "\"device\":\"cpu\",\"duration_ns\":3}",
                "{\"kind\":\"op\",\"span_id\":\"s1\",\"op_name\":\"matmul\",\"inputs\":[],\"shape\":[2,-3],"
                        + "\"dtype\":\"f32\",\"device\":\"cpu\",\"duration_ns\":3}",
                "{\"kind\":\"op\",\"span_id\":\"s1\",\"op_name\":\"matmul\",\"shape\":[2,3,],\"dtype\":\"f32\","
                        + "\"device\":\"cpu\",\"duration_ns\":3}",
                "{\"kind\":\"op\",\"span_id\":\"s1\",\"op_name\":\"matmul\",\"dtype\":\"f32\",\"device\":\"cpu\"}",
                "{\"kind\":\"memory\",\"timestamp_ns\":1,\"tensor_id\":\"t1\",\"span_id\":\"s1\",\"device\":\"cpu\","
                        + "\"bytes\":4,\"action\":\"alloc\",\"dtype\":\"f32\"}",
                "{\"kind\":\"memory\",\"timestamp_ns\":1,\"tensor_id\":\"t1\",\"span_id\":\"s1\",\"op_name\":null,"
                        + "\"device\":\"cpu\",\"bytes\":4,\"action\":\"free\",\"shape\":[1],\"dtype\":\"f32\","
                        + "\"category\":\"gradient\"}",
                "{\"kind\":\"memory\",\"timestamp_ns\":1,\"tensor_id\":\"t1\",\"span_id\":\"s1\",\"device\":\"cpu\","
                        + "\"bytes\":4,\"action\":\"realloc\",\"dtype\":\"f32\"}",
                "{\"kind\":\"memory\",\"timestamp_ns\":1,\"tensor_id\":\"t1\",\"span_id\":\"s1\",\"device\":\"cpu\","
                        + "\"bytes\":4,\"action\":\"alloc\",\"dtype\":\"f32\",\"storage_id\":\"st1\"}",
                "{\"kind\":\"gradient\",\"event_id\":\"g1\",\"root\":\"r\",\"key\":\"k\",\"state\":\"present\","
                        + "\"norm\":1.5}",
                "{\"kind\":\"gradient\",\"event_id\":\"g1\",\"root\":\"r\",\"key\":\"k\",\"state\":\"present\","
                        + "\"norm\":-0}",
                "{\"kind\":\"gradient\",\"event_id\":\"g1\",\"root\":\"r\",\"key\":\"k\",\"state\":\"present\","
                        + "\"norm\":-0.0}",
                "{\"kind\":\"gradient\",\"event_id\":\"g1\",\"root\":\"r\",\"key\":\"k\",\"state\":\"present\","
                        + "\"norm\":12}",
                "{\"kind\":\"gradient\",\"event_id\":\"g1\",\"root\":\"r\",\"key\":\"k\",\"state\":\"present\","
                        + "\"norm\":1e400}",
                "{\"kind\":\"gradient\",\"event_id\":\"g1\",\"root\":\"r\",\"key\":\"k\",\"state\":\"present\","
                        + "\"norm\":2.5E-3}",
                "{\"kind\":\"gradient\",\"event_id\":\"g1\",\"root\":\"r\",\"key\":\"k\",\"state\":\"present\","
                        + "\"norm\":.5}",
                "{\"kind\":\"gradient\",\"event_id\":\"g1\",\"root\":\"r\",\"key\":\"k\",\"state\":\"zero\","
                        + "\"norm\":null}",
                "{\"kind\":\"tensor\",\"span_id\":\"s1\",\"tensor_id\":\"t1\",\"dtype\":\"f32\",\"device\":\"cpu\","
                        + "\"requires_grad\":true,\"storage_bytes\":4,\"category\":\"parameter\"}",
                "{\"kind\":\"tensor\",\"span_id\":\"s1\",\"tensor_id\":\"t1\",\"label\":\"x\",\"shape\":[2],"
                        + "\"dtype\":\"f32\",\"device\":\"cpu\",\"dense_bytes\":null}",
                "{\"kind\":\"device_interval\",\"span_id\":\"s1\",\"device\":\"cuda:0\",\"stream_id\":\"7\","
                        + "\"clock_id\":\"c\",\"backend\":\"cuda\",\"start_ns\":1,\"duration_ns\":2}",
                "{\"kind\":\"device_interval\",\"span_id\":\"s1\",\"device\":\"cuda:0\",\"stream_id\":\"7\","
                        + "\"backend\":\"cuda\",\"start_ns\":1,\"duration_ns\":2}",
                "{\"kind\":\"edge\",\"edge_kind\":\"data\",\"from_tensor\":\"t1\",\"to_tensor\":\"t2\"}",
                "{\"kind\":\"edge\",\"edge_kind\":\"call\",\"from_span\":\"s1\",\"to_span\":\"s2\","
                        + "\"host_duration_ns\":4}",
                "{\"kind\":\"edge\",\"edge_kind\":\"call\",\"from_span\":\"s1\",\"to_span\":\"s2\"}",
                "{\"kind\":\"edge\",\"edge_kind\":\"data\",\"from_tensor\":\"t1\",\"to_tensor\":\"t2\","
                        + "\"from_span\":7}",
                "{\"kind\":\"edge\",\"edge_kind\":\"both\",\"from_tensor\":\"t1\",\"to_tensor\":\"t2\"}",
                "{\"kind\":\"edge\",\"from_span\":\"s1\",\"to_span\":\"s2\",\"duration_ns\":4}",
                "{\"kind\":\"unknown\",\"id\":\"s1\"}",
                "{\"id\":\"s1\",\"kind\":\"span_end\"}");
        int accepted = 0;
        for (int revision = 6; revision <= 10; revision++) {
            for (String line : lines) {
                assertAgrees(revision, line);
                if (both(revision, line)[0] != null) {
                    accepted++;
                }
            }
        }
        assertThat(accepted).as("lines accepted").isGreaterThan(50);
    }

    @Test
    void declinesWhatJacksonRefuses() {
        for (String line : List.of(
                "{\"kind\":\"span_end\",\"id\":\"s1\",\"duration_ns\":-5}",
                "{\"kind\":\"span_end\",\"id\":\"s1\",\"duration_ns\":05}",
                "{\"kind\":\"span_end\",\"id\":\"s1\",\"id\":\"s2\"}",
                "{\"kind\":\"span_end\",\"duration_ns\":5}",
                "{\"kind\":\"span_end\",\"id\":\"s1\",\"duration_ns\":5}}",
                "{\"kind\":\"span_end\",\"id\":\"s\\ud800\"}",
                "{\"kind\":\"memory\",\"timestamp_ns\":1,\"tensor_id\":\"t1\",\"span_id\":\"s1\",\"device\":\"cpu\","
                        + "\"bytes\":4,\"action\":\"realloc\",\"dtype\":\"f32\"}")) {
            Object[] r = both(6, line);
            assertThat(r[1]).as(line).isInstanceOf(RecordDecoder.DecodeException.class);
            assertThat(r[0]).as(line).isNull();
        }
    }
}
