package io.tracegraph.domain.memory;

import static io.tracegraph.domain.Traces.alloc;
import static io.tracegraph.domain.Traces.deviceMemory;
import static io.tracegraph.domain.Traces.free;
import static io.tracegraph.domain.Traces.span;
import static io.tracegraph.domain.Traces.trace;
import static io.tracegraph.domain.trace.MemoryCategory.ACTIVATION;
import static io.tracegraph.domain.trace.MemoryCategory.GRADIENT;
import static io.tracegraph.domain.trace.MemoryCategory.OTHER;
import static io.tracegraph.domain.trace.MemoryCategory.PARAMETER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.tracegraph.domain.Traces;
import io.tracegraph.domain.trace.ExecutionStep;
import io.tracegraph.domain.trace.MemoryCategory;
import io.tracegraph.domain.trace.Shape;
import io.tracegraph.domain.trace.TraceDocument;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MemoryAnalyzerTest {
    private static final long MAX = Long.MAX_VALUE;

    /** A trace with spans {@code s} (no step), {@code fw} (forward) and {@code bw}, {@code bw2} (backward). */
    private static Traces.TraceBuilder spans() {
        return trace()
                .span(span("s").duration(100).measured())
                .span(span("fw").parent("s").step(ExecutionStep.FORWARD))
                .span(span("bw").parent("s").step(ExecutionStep.BACKWARD))
                .span(span("bw2").parent("s").step(ExecutionStep.BACKWARD));
    }

    private static MemoryProfile profileOf(TraceDocument doc) {
        return MemoryAnalyzer.analyze(doc).profile();
    }

    private static CategoryBytes categories(Object... pairs) {
        Map<MemoryCategory, Long> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put((MemoryCategory) pairs[i], ((Number) pairs[i + 1]).longValue());
        }
        return CategoryBytes.of(map);
    }

    @Test
    void returnsAnEmptyProfileWithoutMemoryRecordsEvenWithDeviceCheckpoints() {
        TraceDocument doc = spans().deviceMemory(deviceMemory("cuda:0", 5, 10, 90)).build();

        MemoryAnalysis analysis = MemoryAnalyzer.analyze(doc);

        MemoryProfile profile = analysis.profile();
        assertThat(profile.summary()).isEqualTo(new MemorySummary(0, 0, 0, 0, 0, "", CategoryBytes.EMPTY, 0));
        assertThat(profile.summary().peakByCategory().asMap()).isEmpty();
        assertThat(profile.timeline()).isEmpty();
        assertThat(profile.peakBreakdown()).isEmpty();
        assertThat(profile.byDevice()).isEmpty();
        assertThat(analysis.retainedAtEnd()).isEmpty();
    }

    @Test
    void recordsOnePointPerRecordInTimestampOrderKeepingCategoriesThatDroppedToZero() {
        TraceDocument doc = spans()
                .memory(alloc("a", "s", 100).at(20).category(ACTIVATION))
                .memory(alloc("b", "s", 50).at(10).category(PARAMETER))
                .memory(free("a", "s", 100).at(30))
                .build();

        List<TimelinePoint> timeline = profileOf(doc).timeline();

        assertThat(timeline).containsExactly(
                new TimelinePoint(10, "cpu", 50, 50, 0, categories(PARAMETER, 50)),
                new TimelinePoint(20, "cpu", 150, 150, 0, categories(ACTIVATION, 100, PARAMETER, 50)),
                new TimelinePoint(30, "cpu", 50, 50, 0, categories(ACTIVATION, 0, PARAMETER, 50)));
        CategoryBytes last = timeline.get(2).byCategory();
        assertThat(last.asMap()).containsExactly(Map.entry(ACTIVATION, 0L), Map.entry(PARAMETER, 50L));
        assertThat(last.has(ACTIVATION)).isTrue();
        assertThat(last.has(GRADIENT)).isFalse();
    }

    @Test
    void takesFreeBytesFromTheLargestCheckpointCapacityOfTheDevice() {
        TraceDocument doc = spans()
                .deviceMemory(deviceMemory("cpu", 0, 100, 900))
                .deviceMemory(deviceMemory("cpu", 500, 10, 1500))
                .deviceMemory(deviceMemory("cpu", 900, 1, 1))
                .deviceMemory(deviceMemory("cuda:7", 0, 1, 1))
                .memory(alloc("a", "s", 1000).at(1))
                .memory(alloc("b", "s", 600).at(2))
                .memory(alloc("c", "s", 5).at(3).on("cuda:0"))
                .build();

        MemoryProfile profile = profileOf(doc);

        assertThat(profile.timeline()).extracting(TimelinePoint::device, TimelinePoint::liveBytes,
                TimelinePoint::freeBytes).containsExactly(
                        tuple("cpu", 1000L, 510L),
                        tuple("cpu", 1600L, 0L),
                        tuple("cuda:0", 5L, 0L));
        assertThat(profile.byDevice()).extracting(DeviceMemory::device, DeviceMemory::capacityBytes)
                .containsExactly(tuple("cpu", 1510L), tuple("cuda:0", 0L));
    }

    @Test
    void keepsTheSameTensorIdApartOnTwoDevices() {
        TraceDocument doc = spans()
                .memory(alloc("t", "s", 100).at(1))
                .memory(alloc("t", "s", 40).at(2).on("cuda:0"))
                .memory(free("t", "s", 0).at(3))
                .build();

        MemoryAnalysis analysis = MemoryAnalyzer.analyze(doc);

        assertThat(analysis.profile().timeline()).extracting(TimelinePoint::device, TimelinePoint::liveBytes)
                .containsExactly(tuple("cpu", 100L), tuple("cuda:0", 40L), tuple("cpu", 0L));
        assertThat(analysis.retainedAtEnd()).extracting(LiveAllocation::tensorId, LiveAllocation::device,
                LiveAllocation::bytes).containsExactly(tuple("t", "cuda:0", 40L));
    }

    @Test
    void appliesAFreeAndReAllocationAtOneTimestampInFileOrder() {
        TraceDocument doc = spans()
                .memory(alloc("t", "s", 8).at(5))
                .memory(free("t", "s", 8).at(10))
                .memory(alloc("t", "s", 8).at(10))
                .build();

        MemoryAnalysis analysis = MemoryAnalyzer.analyze(doc);

        assertThat(analysis.profile().timeline()).extracting(TimelinePoint::liveBytes).containsExactly(8L, 0L, 8L);
        assertThat(analysis.profile().summary().peakBytes()).isEqualTo(8);
        assertThat(analysis.profile().summary().peakTimestampNs()).isEqualTo(5);
        assertThat(analysis.retainedAtEnd()).extracting(LiveAllocation::tensorId).containsExactly("t");
    }

    @Test
    void freesTheRecordedAllocationIgnoringTheFreeRecordsOwnBytesAndCategory() {
        TraceDocument doc = spans()
                .memory(alloc("t", "s", 100).at(1).category(ACTIVATION))
                .memory(free("t", "s", 7).at(2).category(OTHER))
                .build();

        assertThat(profileOf(doc).timeline().get(1))
                .isEqualTo(new TimelinePoint(2, "cpu", 0, 0, 0, categories(ACTIVATION, 0)));
    }

    @Test
    void subtractsTheFreeRecordsBytesWhenNothingIsLiveAndLeavesCategoriesAlone() {
        TraceDocument doc = spans()
                .memory(alloc("x", "s", 100).at(1).category(PARAMETER))
                .memory(free("unknown", "s", 30).at(2).category(PARAMETER))
                .memory(free("unknown", "s", 500).at(3))
                .build();

        assertThat(profileOf(doc).timeline()).extracting(TimelinePoint::liveBytes, TimelinePoint::byCategory)
                .containsExactly(
                        tuple(100L, categories(PARAMETER, 100)),
                        tuple(70L, categories(PARAMETER, 100)),
                        tuple(0L, categories(PARAMETER, 100)));
    }

    @Test
    void takesTheGlobalPeakFromTheLargestSingleDeviceValue() {
        TraceDocument doc = spans()
                .memory(alloc("x", "s", 60).at(1).on("cuda:0").category(GRADIENT))
                .memory(alloc("x", "fw", 60).at(2).category(ACTIVATION))
                .memory(alloc("w", "s", 60).at(3).category(PARAMETER).opName("init"))
                .memory(alloc("big", "fw", 70).at(4).category(ACTIVATION).shape(7, 10))
                .memory(alloc("y", "s", 130).at(5).on("cuda:0").category(GRADIENT))
                .memory(free("big", "fw", 70).at(6))
                .build();

        MemoryProfile profile = profileOf(doc);

        assertThat(profile.summary()).isEqualTo(new MemorySummary(5, 1, 380, 190, 4, "cpu",
                categories(ACTIVATION, 130, PARAMETER, 60), 0));
        assertThat(profile.peakBreakdown()).containsExactly(
                new LiveAllocation("big", "fw", null, 70, Shape.of(7, 10), "f32", "cpu",
                        ACTIVATION),
                new LiveAllocation("w", "s", "init", 60, Shape.SCALAR, "f32", "cpu",
                        PARAMETER),
                new LiveAllocation("x", "fw", null, 60, Shape.SCALAR, "f32", "cpu",
                        ACTIVATION),
                new LiveAllocation("x", "s", null, 60, Shape.SCALAR, "f32", "cuda:0",
                        GRADIENT));
        assertThat(profile.byDevice()).containsExactly(
                new DeviceMemory("cpu", 0, 190, 4, 3, 1),
                new DeviceMemory("cuda:0", 0, 190, 5, 2, 0));
    }

    @Test
    void listsDevicesInCodePointOrderWithTheirCounters() {
        String grinning = new String(Character.toChars(0x1F600));
        TraceDocument doc = spans()
                .memory(alloc("a", "s", 1).at(1).on(grinning))
                .memory(alloc("b", "s", 2).at(2).on("cuda:1"))
                .memory(alloc("c", "s", 3).at(3).on("\uFF3A"))
                .memory(alloc("d", "s", 4).at(4).on("cpu"))
                .memory(free("d", "s", 4).at(5).on("cpu"))
                .memory(alloc("e", "s", 5).at(6).on("cuda:0"))
                .memory(free("zz", "s", 0).at(7).on("cuda:0"))
                .build();

        assertThat(profileOf(doc).byDevice()).containsExactly(
                new DeviceMemory("cpu", 0, 4, 4, 1, 1),
                new DeviceMemory("cuda:0", 0, 5, 6, 1, 1),
                new DeviceMemory("cuda:1", 0, 2, 2, 1, 0),
                new DeviceMemory("\uFF3A", 0, 3, 3, 1, 0),
                new DeviceMemory(grinning, 0, 1, 1, 1, 0));
    }

    @Test
    void measuresAutogradRetainedBytesAtTheFirstBackwardEventOnItsDevice() {
        TraceDocument doc = spans()
                .memory(alloc("huge", "fw", 1000).at(0).on("cuda:0").category(ACTIVATION))
                .memory(alloc("act1", "fw", 100).at(1).category(ACTIVATION))
                .memory(alloc("p", "s", 50).at(2).category(PARAMETER))
                .memory(alloc("act2", "bw", 20).at(3).category(ACTIVATION))
                .memory(free("act1", "bw2", 100).at(4))
                .memory(alloc("act3", "bw", 500).at(5).category(ACTIVATION))
                .build();

        assertThat(profileOf(doc).summary().autogradRetainedBytes()).isEqualTo(120);
    }

    @Test
    void reportsNoAutogradRetainedBytesWithoutActivationsOrBackwardEvents() {
        TraceDocument noActivation = spans()
                .memory(alloc("act", "fw", 100).at(1).category(ACTIVATION))
                .memory(alloc("g", "bw", 10).at(2).on("cuda:0").category(GRADIENT))
                .build();
        TraceDocument noBackward = spans()
                .memory(alloc("act", "fw", 100).at(1).category(ACTIVATION))
                .build();

        assertThat(profileOf(noActivation).summary().autogradRetainedBytes()).isZero();
        assertThat(profileOf(noBackward).summary().autogradRetainedBytes()).isZero();
    }

    @Test
    void reportsNoPeakWhenNothingWasEverLive() {
        TraceDocument doc = spans().memory(free("ghost", "s", 10).at(3)).build();

        MemoryProfile profile = profileOf(doc);

        assertThat(profile.summary()).isEqualTo(new MemorySummary(0, 1, 0, 0, 0, "", CategoryBytes.EMPTY, 0));
        assertThat(profile.peakBreakdown()).isEmpty();
        assertThat(profile.byDevice()).containsExactly(new DeviceMemory("cpu", 0, 0, 0, 0, 1));
    }

    @Test
    void saturatesSumsAtTheLargestValue() {
        TraceDocument doc = spans()
                .deviceMemory(deviceMemory("cpu", 0, MAX, 5))
                .memory(alloc("a", "s", MAX - 10).at(1).category(ACTIVATION))
                .memory(alloc("b", "s", 100).at(2).category(ACTIVATION))
                .memory(free("a", "s", MAX - 10).at(3))
                .build();

        MemoryProfile profile = profileOf(doc);

        assertThat(profile.summary().totalAllocBytes()).isEqualTo(MAX);
        assertThat(profile.summary().peakBytes()).isEqualTo(MAX);
        assertThat(profile.summary().peakByCategory()).isEqualTo(categories(ACTIVATION, MAX));
        assertThat(profile.timeline()).extracting(TimelinePoint::liveBytes, TimelinePoint::freeBytes)
                .containsExactly(tuple(MAX - 10, 10L), tuple(MAX, 0L), tuple(10L, MAX - 10));
        assertThat(profile.byDevice().get(0).capacityBytes()).isEqualTo(MAX);
    }
}
