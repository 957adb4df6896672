package io.tracegraph.domain.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.tracegraph.domain.trace.SpanKind;
import io.tracegraph.domain.trace.SpanRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The positional cycle search of the health checks answers as the id-keyed one it replaced. */
class ParentCyclesTest {
    @Test
    void answersAsTheIdKeyedSearchOnRandomParentGraphsWithDuplicateIds() {
        Random random = new Random(15);
        int cyclic = 0;
        int duplicates = 0;
        for (int round = 0; round < 500; round++) {
            int count = 1 + random.nextInt(40);
            int pool = 1 + random.nextInt(count + 5);
            List<SpanRecord> spans = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                String id = "s" + random.nextInt(pool);
                int pick = random.nextInt(pool + 3);
                String parent = pick == pool ? null : pick == pool + 1 ? "ghost" : "s" + random.nextInt(pool);
                spans.add(new SpanRecord(id, parent, "n", SpanKind.FUNCTION, false, 0, true, 1, null));
            }
            Map<String, SpanRecord> byId = new HashMap<>();
            Map<String, Integer> index = new HashMap<>();
            for (int i = 0; i < count; i++) {
                byId.put(spans.get(i).id(), spans.get(i));
                index.put(spans.get(i).id(), i);
            }
            int[] parentOf = new int[count];
            for (int i = 0; i < count; i++) {
                Integer p = spans.get(i).parentId() == null ? null : index.get(spans.get(i).parentId());
                parentOf[i] = p == null ? -1 : p;
            }
            boolean[] reaching = HealthAnalyzer.ParentCycles.reaching(parentOf);
            CycleFinder old = new CycleFinder(byId);
            for (int i = 0; i < count; i++) {
                SpanRecord span = spans.get(i);
                boolean holder = index.get(span.id()) == i;
                boolean now = holder ? reaching[i] : HealthAnalyzer.ParentCycles.naiveWalk(span, spans, index);
                assertThat(now).as("round %d span %d", round, i).isEqualTo(old.reachesCycle(span));
                cyclic += now ? 1 : 0;
                duplicates += holder ? 0 : 1;
            }
        }
        // The rounds met both answers and spans that lost their id.
        assertThat(cyclic).isGreaterThan(100);
        assertThat(duplicates).isGreaterThan(100);
    }
}
