package io.tracegraph.domain.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SpanPositionsTest {
    private static List<SpanRecord> spans(String... ids) {
        List<SpanRecord> spans = new ArrayList<>();
        for (String id : ids) {
            spans.add(new SpanRecord(id, null, "s", SpanKind.FUNCTION, false, 0, true, 0, null));
        }
        return spans;
    }

    private static Map<String, Integer> hashed(List<SpanRecord> spans) {
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < spans.size(); i++) {
            index.put(spans.get(i).id(), i);
        }
        return index;
    }

    private static final List<String> PROBES = List.of("000", "001", "011", "012", "099", "100", "00", "0000",
            "1", "01", "-01", "0a1", "", "011/op/0", "x", "999", "+01", " 01");

    @Test
    void numberedIdsAnswerAsAHashMapDoes() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            ids.add(String.format("%03d", i));
        }
        List<SpanRecord> spans = spans(ids.toArray(String[]::new));
        Map<String, Integer> positions = SpanPositions.byId(spans);
        Map<String, Integer> expected = hashed(spans);

        assertThat(positions).isNotInstanceOf(HashMap.class);
        assertThat(positions.size()).isEqualTo(expected.size());
        for (String probe : PROBES) {
            assertThat(positions.get(probe)).as(probe).isEqualTo(expected.get(probe));
            assertThat(positions.containsKey(probe)).as(probe).isEqualTo(expected.containsKey(probe));
            assertThat(positions.keySet().contains(probe)).as(probe).isEqualTo(expected.containsKey(probe));
        }
        assertThat(positions.get(null)).isNull();
        assertThat(positions.keySet()).containsExactlyInAnyOrderElementsOf(expected.keySet());
        assertThat(positions).isEqualTo(expected);
    }

    @Test
    void otherIdsGetAHashMap() {
        for (List<SpanRecord> spans : List.of(spans("a", "b"), spans("1", "0"), spans("00", "01", "01"),
                spans("0", "01"), spans("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10"))) {
            Map<String, Integer> positions = SpanPositions.byId(spans);
            assertThat(positions).isInstanceOf(HashMap.class).isEqualTo(hashed(spans));
        }
    }

    @Test
    void aSingleSpanAndNoneAnswerToo() {
        assertThat(SpanPositions.byId(spans("0")).get("0")).isZero();
        assertThat(SpanPositions.byId(spans("0")).get("1")).isNull();
        assertThat(SpanPositions.byId(spans())).isEmpty();
    }
}
