package io.tracegraph.domain.memory;

import java.util.List;
import java.util.Objects;

/** The memory analysis of a trace (spec 4.1). */
public record MemoryProfile(MemorySummary summary, List<TimelinePoint> timeline, List<LiveAllocation> peakBreakdown,
        List<DeviceMemory> byDevice) {

    public static final MemoryProfile EMPTY = new MemoryProfile(MemorySummary.EMPTY, MemoryTimeline.EMPTY,
            List.of(), List.of());

    public MemoryProfile {
        Objects.requireNonNull(summary, "summary");
        Objects.requireNonNull(timeline, "timeline");
        peakBreakdown = List.copyOf(peakBreakdown);
        byDevice = List.copyOf(byDevice);
    }
}
