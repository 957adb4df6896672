package io.tracegraph.domain.memory;

import java.util.List;
import java.util.Objects;

/** The memory profile plus what the graph needs besides it: the allocations live at the end. */
public record MemoryAnalysis(MemoryProfile profile, List<LiveAllocation> retainedAtEnd) {
    public MemoryAnalysis {
        Objects.requireNonNull(profile, "profile");
        retainedAtEnd = List.copyOf(retainedAtEnd);
    }
}
