package io.tracegraph.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.tracegraph.domain.memory.CategoryBytes;
import io.tracegraph.domain.memory.TimelinePoint;
import io.tracegraph.domain.trace.MemoryCategory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MemorySeriesTest {

    @Test
    void keepsShortTimelinesWholeAndSplitsThemByDevice() {
        List<TimelinePoint> timeline = List.of(point(1, "cuda:0", 10), point(2, "cpu", 5), point(3, "cuda:0", 30),
                point(4, "cuda:0", 20));

        List<MemorySeries> series = MemorySeries.of(timeline, 100);

        assertThat(series).extracting(MemorySeries::device).containsExactly("cuda:0", "cpu");
        assertThat(series.get(0).kept()).containsExactly(0, 2, 3);
        assertThat(series.get(0).reduced()).isFalse();
        assertThat(series.get(0).peakBytes()).isEqualTo(30);
        assertThat(series.get(0).peakTimestampNs()).isEqualTo(3);
    }

    @Test
    void reducesLongTimelinesToTheirBoundKeepingEverySpikeAndThePeak() {
        List<TimelinePoint> timeline = new ArrayList<>();
        for (int i = 0; i < 100_000; i++) {
            long live = (i % 1_000 == 500) ? 1_000 + i / 1_000 : i % 7;
            timeline.add(point(i, "cuda:0", i == 73_456 ? 5_000 : live));
        }

        MemorySeries s = MemorySeries.of(timeline, 400).get(0);

        assertThat(s.reduced()).isTrue();
        assertThat(s.kept().length).isLessThanOrEqualTo(400);
        assertThat(s.kept()).contains(0, 99_999, 73_456);
        assertThat(s.peakBytes()).isEqualTo(5_000);
        for (int k = 1; k < s.kept().length; k++) {
            assertThat(s.kept()[k]).isGreaterThan(s.kept()[k - 1]);
        }
    }

    private static TimelinePoint point(long ts, String device, long live) {
        return new TimelinePoint(ts, device, live, live, 0, CategoryBytes.of(Map.of(MemoryCategory.ACTIVATION, live)));
    }
}
