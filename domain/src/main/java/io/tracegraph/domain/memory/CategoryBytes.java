package io.tracegraph.domain.memory;

import io.tracegraph.domain.trace.MemoryCategory;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Bytes per memory category, where a category may be absent (never allocated on that device)
 * rather than zero. Immutable; iteration is in category output order.
 */
public final class CategoryBytes {
    static final int SIZE = MemoryCategory.ordered().length;
    public static final CategoryBytes EMPTY = new CategoryBytes(absentArray());

    private final long[] values;

    CategoryBytes(long[] values) {
        this.values = values;
    }

    static long[] absentArray() {
        long[] values = new long[SIZE];
        Arrays.fill(values, -1);
        return values;
    }

    public static CategoryBytes of(Map<MemoryCategory, Long> entries) {
        long[] values = absentArray();
        entries.forEach((category, bytes) -> values[category.ordinal()] = bytes);
        return new CategoryBytes(values);
    }

    public boolean has(MemoryCategory category) {
        return values[category.ordinal()] >= 0;
    }

    /** The category's bytes, 0 when absent. */
    public long get(MemoryCategory category) {
        return Math.max(0, values[category.ordinal()]);
    }

    public Map<MemoryCategory, Long> asMap() {
        Map<MemoryCategory, Long> map = new LinkedHashMap<>();
        for (MemoryCategory category : MemoryCategory.ordered()) {
            if (has(category)) {
                map.put(category, values[category.ordinal()]);
            }
        }
        return map;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CategoryBytes other && Arrays.equals(values, other.values);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        return asMap().toString();
    }
}
