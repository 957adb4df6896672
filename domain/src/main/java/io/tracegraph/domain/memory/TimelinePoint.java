package io.tracegraph.domain.memory;

/** The state of one device right after one memory record was applied. */
public record TimelinePoint(long timestampNs, String device, long liveBytes, long heapBytes, long freeBytes,
        CategoryBytes byCategory) {
}
