package io.tracegraph.domain.memory;

import java.util.Objects;

/** Totals and the global peak of the memory analysis (spec 4.1). */
public record MemorySummary(
        long allocCount,
        long freeCount,
        long totalAllocBytes,
        long peakBytes,
        long peakTimestampNs,
        String peakDevice,
        CategoryBytes peakByCategory,
        long autogradRetainedBytes) {

    public static final MemorySummary EMPTY = new MemorySummary(0, 0, 0, 0, 0, "", CategoryBytes.EMPTY, 0);

    public MemorySummary {
        Objects.requireNonNull(peakDevice, "peakDevice");
        Objects.requireNonNull(peakByCategory, "peakByCategory");
    }
}
