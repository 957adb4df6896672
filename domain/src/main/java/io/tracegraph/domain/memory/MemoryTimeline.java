package io.tracegraph.domain.memory;

import io.tracegraph.domain.trace.MemoryCategory;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.RandomAccess;

/**
 * The memory timeline, one point per memory record, stored column-wise so that a trace with
 * millions of memory records costs a few flat arrays instead of millions of objects. Read it as a
 * list of {@link TimelinePoint}s; points are materialised on access.
 */
public final class MemoryTimeline extends AbstractList<TimelinePoint> implements RandomAccess {
    public static final MemoryTimeline EMPTY = new MemoryTimeline(0);

    private int size;
    private long[] timestamps;
    private String[] devices;
    private long[] live;
    private long[] free;
    private long[] categories;

    MemoryTimeline(int capacity) {
        timestamps = new long[capacity];
        devices = new String[capacity];
        live = new long[capacity];
        free = new long[capacity];
        categories = new long[capacity * CategoryBytes.SIZE];
    }

    void append(long timestampNs, String device, long liveBytes, long freeBytes, long[] byCategory) {
        int i = size++;
        timestamps[i] = timestampNs;
        devices[i] = device;
        live[i] = liveBytes;
        free[i] = freeBytes;
        System.arraycopy(byCategory, 0, categories, i * CategoryBytes.SIZE, CategoryBytes.SIZE);
    }

    @Override
    public int size() {
        return size;
    }

    /*
     * The columns of one point, read without a point made (the graph writer renders millions of
     * points from them; {@link #get} copies its categories into a new array for each).
     */

    /** The timestamp of the point at {@code index} (as {@link TimelinePoint#timestampNs()}). */
    public long timestampNs(int index) {
        return timestamps[check(index)];
    }

    /** The device of the point at {@code index}. */
    public String device(int index) {
        return devices[check(index)];
    }

    /** The live (and heap) bytes of the point at {@code index}. */
    public long liveBytes(int index) {
        return live[check(index)];
    }

    /** The free bytes of the point at {@code index}. */
    public long freeBytes(int index) {
        return free[check(index)];
    }

    /**
     * The bytes of one memory category at the point at {@code index}, or -1 when the category is
     * absent there ({@link CategoryBytes#has} false).
     */
    public long categoryBytes(int index, MemoryCategory category) {
        return categories[check(index) * CategoryBytes.SIZE + category.ordinal()];
    }

    private int check(int index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException(index);
        }
        return index;
    }

    @Override
    public TimelinePoint get(int index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException(index);
        }
        int from = index * CategoryBytes.SIZE;
        long[] cats = Arrays.copyOfRange(categories, from, from + CategoryBytes.SIZE);
        return new TimelinePoint(timestamps[index], devices[index], live[index], live[index], free[index],
                new CategoryBytes(cats));
    }
}
