package io.tracegraph.domain.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MemoryEventTest {
    private static MemoryEvent at(long timestampNs, String tensorId) {
        return new MemoryEvent(timestampNs, tensorId, "s1", null, "cpu", 4, MemoryAction.ALLOC, Shape.SCALAR, "f32",
                MemoryCategory.OTHER);
    }

    @Test
    void recordsInOrderAreCopiedAsTheyAre() {
        List<MemoryEvent> events = List.of(at(1, "a"), at(2, "b"), at(2, "c"), at(5, "d"));

        MemoryEvent[] ordered = MemoryEvent.inTimeOrder(events);

        assertThat(ordered).containsExactlyElementsOf(events);
        assertThat(MemoryEvent.inTimeOrder(List.of())).isEmpty();
    }

    @Test
    void recordsOutOfOrderAreSortedByTimestampWithFileOrderBreakingTies() {
        List<MemoryEvent> events = List.of(at(3, "a"), at(1, "b"), at(3, "c"), at(2, "d"), at(1, "e"), at(3, "f"));

        MemoryEvent[] ordered = MemoryEvent.inTimeOrder(events);

        assertThat(ordered).extracting(MemoryEvent::tensorId).containsExactly("b", "e", "d", "a", "c", "f");
    }

    @Test
    void theListGivenIsNotChanged() {
        List<MemoryEvent> events = new ArrayList<>(List.of(at(2, "a"), at(1, "b")));

        MemoryEvent.inTimeOrder(events);

        assertThat(events).extracting(MemoryEvent::tensorId).containsExactly("a", "b");
    }
}
