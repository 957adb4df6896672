package io.tracegraph.domain.compare;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * A run's path statistics held column by column: the unmodifiable list of {@link PathStats} a
 * {@link RunFacts} holds, without an object per path. A set comparison reads every path of tens of
 * runs; following an object per path and run cost more than the comparison itself (each a cache
 * miss), where a column is read in order. {@link #get} makes the {@code PathStats} of a path when
 * asked.
 */
public final class PathColumns extends AbstractList<PathStats> implements RandomAccess {
    private final String[] paths;
    private final long[] hashes;
    private final String[] kinds;
    private final long[] counts;
    private final long[] selfTimesNs;
    private final long[] totalTimesNs;
    private final long[] bytes;
    private final long[] peakBytes;
    /** Device self and total times; {@code null} when every path's are 0 (a run without device time). */
    private final long[] deviceSelfTimesNs;
    private final long[] deviceTotalTimesNs;

    private PathColumns(String[] paths, long[] hashes, String[] kinds, long[] counts, long[] selfTimesNs,
            long[] totalTimesNs, long[] bytes, long[] peakBytes, long[] deviceSelfTimesNs, long[] deviceTotalTimesNs) {
        this.paths = paths;
        this.hashes = hashes;
        this.kinds = kinds;
        this.counts = counts;
        this.selfTimesNs = selfTimesNs;
        this.totalTimesNs = totalTimesNs;
        this.bytes = bytes;
        this.peakBytes = peakBytes;
        this.deviceSelfTimesNs = deviceSelfTimesNs;
        this.deviceTotalTimesNs = deviceTotalTimesNs;
    }

    /** The columns of {@code stats}, in their order. */
    public static PathColumns of(List<PathStats> stats) {
        if (stats instanceof PathColumns columns) {
            return columns;
        }
        int n = stats.size();
        boolean device = false;
        for (int i = 0; i < n && !device; i++) {
            PathStats s = Objects.requireNonNull(stats.get(i), "stats");
            device = (s.deviceSelfTimeNs() | s.deviceTotalTimeNs()) != 0;
        }
        PathColumns c = new PathColumns(new String[n], new long[n], new String[n], new long[n], new long[n],
                new long[n], new long[n], new long[n], device ? new long[n] : null, device ? new long[n] : null);
        for (int i = 0; i < n; i++) {
            PathStats s = Objects.requireNonNull(stats.get(i), "stats");
            c.paths[i] = s.path();
            c.hashes[i] = s.pathHash();
            c.kinds[i] = s.kind();
            c.counts[i] = s.count();
            c.selfTimesNs[i] = s.selfTimeNs();
            c.totalTimesNs[i] = s.totalTimeNs();
            c.bytes[i] = s.bytes();
            c.peakBytes[i] = s.peakBytes();
            if (device) {
                c.deviceSelfTimesNs[i] = s.deviceSelfTimeNs();
                c.deviceTotalTimesNs[i] = s.deviceTotalTimeNs();
            }
        }
        return c;
    }

    /**
     * Columns of equal length, element {@code i} of each describing path {@code i}, checked as
     * {@link PathStats} checks its fields. The arrays are taken, not copied: the caller must not
     * change them afterwards.
     */
    public static PathColumns of(String[] paths, long[] hashes, String[] kinds, long[] counts, long[] selfTimesNs,
            long[] totalTimesNs, long[] bytes, long[] peakBytes) {
        return of(paths, hashes, kinds, counts, selfTimesNs, totalTimesNs, bytes, peakBytes, null, null);
    }

    /**
     * {@link #of(String[], long[], String[], long[], long[], long[], long[], long[])} with the paths'
     * device self and total times (summed over devices), or {@code null} for both when the run has no
     * device time (every path's is 0).
     */
    public static PathColumns of(String[] paths, long[] hashes, String[] kinds, long[] counts, long[] selfTimesNs,
            long[] totalTimesNs, long[] bytes, long[] peakBytes, long[] deviceSelfTimesNs, long[] deviceTotalTimesNs) {
        int n = paths.length;
        if ((deviceSelfTimesNs == null) != (deviceTotalTimesNs == null)
                || (deviceSelfTimesNs != null && (deviceSelfTimesNs.length != n || deviceTotalTimesNs.length != n))) {
            throw new IllegalArgumentException("device time columns missing or of different lengths");
        }
        if (hashes.length != n || kinds.length != n || counts.length != n || selfTimesNs.length != n
                || totalTimesNs.length != n || bytes.length != n || peakBytes.length != n) {
            throw new IllegalArgumentException("columns of different lengths");
        }
        for (int i = 0; i < n; i++) {
            Objects.requireNonNull(paths[i], "path");
            Objects.requireNonNull(kinds[i], "kind");
            if (counts[i] < 1) {
                throw new IllegalArgumentException("count must be at least 1: " + counts[i]);
            }
            long deviceSelf = deviceSelfTimesNs == null ? 0 : deviceSelfTimesNs[i];
            long deviceTotal = deviceTotalTimesNs == null ? 0 : deviceTotalTimesNs[i];
            if ((selfTimesNs[i] | totalTimesNs[i] | bytes[i] | peakBytes[i] | deviceSelf | deviceTotal) < 0) {
                // The same message as PathStats gives.
                PathStats.of(paths[i], hashes[i], kinds[i], selfTimesNs[i], totalTimesNs[i], bytes[i], peakBytes[i],
                        deviceSelf, deviceTotal);
            }
        }
        return new PathColumns(paths, hashes, kinds, counts, selfTimesNs, totalTimesNs, bytes, peakBytes,
                deviceSelfTimesNs, deviceTotalTimesNs);
    }

    /** Whether {@code other} lists the same paths (hashes) in the same order. */
    boolean samePathsAs(PathColumns other) {
        return hashes == other.hashes || Arrays.equals(hashes, other.hashes);
    }

    @Override
    public PathStats get(int index) {
        Objects.checkIndex(index, hashes.length);
        return new PathStats(paths[index], hashes[index], kinds[index], counts[index], selfTimesNs[index],
                totalTimesNs[index], bytes[index], peakBytes[index], deviceSelfTimeNs(index), deviceTotalTimeNs(index));
    }

    @Override
    public int size() {
        return hashes.length;
    }

    /** The text of path {@code index}. */
    public String path(int index) {
        return paths[index];
    }

    public long hash(int index) {
        return hashes[index];
    }

    public String kind(int index) {
        return kinds[index];
    }

    public long selfTimeNs(int index) {
        return selfTimesNs[index];
    }

    public long totalTimeNs(int index) {
        return totalTimesNs[index];
    }

    public long bytes(int index) {
        return bytes[index];
    }

    /** Path {@code index}'s device self time, summed over devices (0 without device time). */
    public long deviceSelfTimeNs(int index) {
        return deviceSelfTimesNs == null ? 0 : deviceSelfTimesNs[index];
    }

    /** Path {@code index}'s device total time, summed over devices (0 without device time). */
    public long deviceTotalTimeNs(int index) {
        return deviceTotalTimesNs == null ? 0 : deviceTotalTimesNs[index];
    }

    /** Whether any path has device time. */
    public boolean hasDeviceTime() {
        if (deviceTotalTimesNs == null) {
            return false;
        }
        for (long t : deviceTotalTimesNs) {
            if (t > 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * The paths with device time, with their device self and total time as their self and total
     * time (device time kept too), in this order: what a comparison on device time compares.
     */
    PathColumns onDeviceTime() {
        int n = 0;
        for (int i = 0; i < hashes.length; i++) {
            if (deviceTotalTimeNs(i) > 0) {
                n++;
            }
        }
        String[] p = new String[n];
        long[] h = new long[n];
        String[] k = new String[n];
        long[] c = new long[n];
        long[] self = new long[n];
        long[] total = new long[n];
        long[] b = new long[n];
        long[] peak = new long[n];
        int at = 0;
        for (int i = 0; i < hashes.length; i++) {
            if (deviceTotalTimeNs(i) > 0) {
                p[at] = paths[i];
                h[at] = hashes[i];
                k[at] = kinds[i];
                c[at] = counts[i];
                self[at] = deviceSelfTimesNs[i];
                total[at] = deviceTotalTimesNs[i];
                b[at] = bytes[i];
                peak[at] = peakBytes[i];
                at++;
            }
        }
        return new PathColumns(p, h, k, c, self, total, b, peak, self, total);
    }
}
