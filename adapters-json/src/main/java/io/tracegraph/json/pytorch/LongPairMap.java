package io.tracegraph.json.pytorch;

import java.util.Arrays;

/**
 * A map from a pair of longs to a non-negative int (a row or a flow), open addressing with linear
 * probing, no boxing: the launch lookups of {@link DeviceLaunches} hold a key per runtime call and
 * per cpu op (millions in a 1 GB trace), where {@code HashMap<Long, Integer>} allocated three
 * objects an entry.
 */
final class LongPairMap {
    private long[] first;
    private long[] second;
    /** The value of each slot, or -1 where the slot is free. */
    private int[] value;
    private int size;
    private int mask;

    LongPairMap() {
        allocate(64);
    }

    private void allocate(int slots) {
        first = new long[slots];
        second = new long[slots];
        value = new int[slots];
        Arrays.fill(value, -1);
        mask = slots - 1;
    }

    private static int slot(long a, long b, int mask) {
        long h = a * 0x9E3779B97F4A7C15L ^ b * 0xC2B2AE3D27D4EB4FL;
        h ^= h >>> 29;
        h *= 0xBF58476D1CE4E5B9L;
        h ^= h >>> 32;
        return (int) h & mask;
    }

    /** Keeps the first value given for a key, as {@code Map.putIfAbsent}. */
    void putIfAbsent(long a, long b, int v) {
        if (v < 0) {
            throw new IllegalArgumentException("negative value: " + v);
        }
        if (2 * (size + 1) > value.length) {
            grow();
        }
        int i = slot(a, b, mask);
        while (value[i] >= 0) {
            if (first[i] == a && second[i] == b) {
                return;
            }
            i = (i + 1) & mask;
        }
        first[i] = a;
        second[i] = b;
        value[i] = v;
        size++;
    }

    /** The value of the key, or -1. */
    int get(long a, long b) {
        int i = slot(a, b, mask);
        while (value[i] >= 0) {
            if (first[i] == a && second[i] == b) {
                return value[i];
            }
            i = (i + 1) & mask;
        }
        return -1;
    }

    private void grow() {
        long[] oldFirst = first;
        long[] oldSecond = second;
        int[] oldValue = value;
        allocate(oldValue.length * 2);
        for (int j = 0; j < oldValue.length; j++) {
            if (oldValue[j] >= 0) {
                int i = slot(oldFirst[j], oldSecond[j], mask);
                while (value[i] >= 0) {
                    i = (i + 1) & mask;
                }
                first[i] = oldFirst[j];
                second[i] = oldSecond[j];
                value[i] = oldValue[j];
            }
        }
    }
}
