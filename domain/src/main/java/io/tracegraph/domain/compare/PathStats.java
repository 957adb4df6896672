package io.tracegraph.domain.compare;

import io.tracegraph.domain.graph.GraphNode;
import io.tracegraph.domain.graph.GraphNodeKind;
import io.tracegraph.domain.graph.SemanticPaths;
import io.tracegraph.domain.trace.CodePointOrder;
import io.tracegraph.domain.trace.Saturating;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * One semantic path in one run, aggregated over its {@code count} occurrences: times and bytes are
 * summed (saturating), {@code peakBytes} is the largest. {@code pathHash} identifies the path
 * exactly (see {@link SemanticPaths}); {@code path} is its text for display; {@code kind} is the
 * node kind as stored ({@code root}, {@code function}, {@code module}, {@code op}).
 *
 * <p>{@code deviceSelfTimeNs} and {@code deviceTotalTimeNs} are the path's device time (the nodes'
 * {@link io.tracegraph.domain.graph.DeviceTime}s summed over their devices, then over the
 * occurrences): 0 for a path without device work at or below it, and for every path of a trace
 * without device intervals.
 */
public record PathStats(
        String path,
        long pathHash,
        String kind,
        long count,
        long selfTimeNs,
        long totalTimeNs,
        long bytes,
        long peakBytes,
        long deviceSelfTimeNs,
        long deviceTotalTimeNs) {

    /** Path text first (code point order), then hash: the order of {@link #aggregate} results. */
    static final Comparator<PathStats> BY_PATH =
            Comparator.comparing(PathStats::path, CodePointOrder.COMPARATOR).thenComparingLong(PathStats::pathHash);

    public PathStats {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(kind, "kind");
        if (count < 1) {
            throw new IllegalArgumentException("count must be at least 1: " + count);
        }
        requireNonNegative(selfTimeNs, "selfTimeNs");
        requireNonNegative(totalTimeNs, "totalTimeNs");
        requireNonNegative(bytes, "bytes");
        requireNonNegative(peakBytes, "peakBytes");
        requireNonNegative(deviceSelfTimeNs, "deviceSelfTimeNs");
        requireNonNegative(deviceTotalTimeNs, "deviceTotalTimeNs");
    }

    /** A path without device time. */
    public PathStats(String path, long pathHash, String kind, long count, long selfTimeNs, long totalTimeNs, long bytes,
            long peakBytes) {
        this(path, pathHash, kind, count, selfTimeNs, totalTimeNs, bytes, peakBytes, 0, 0);
    }

    /** One occurrence (one node) without device time. */
    public static PathStats of(String path, long pathHash, String kind, long selfTimeNs, long totalTimeNs, long bytes,
            long peakBytes) {
        return new PathStats(path, pathHash, kind, 1, selfTimeNs, totalTimeNs, bytes, peakBytes);
    }

    /** One occurrence (one node) with its device self and total time (summed over its devices). */
    public static PathStats of(String path, long pathHash, String kind, long selfTimeNs, long totalTimeNs, long bytes,
            long peakBytes, long deviceSelfTimeNs, long deviceTotalTimeNs) {
        return new PathStats(path, pathHash, kind, 1, selfTimeNs, totalTimeNs, bytes, peakBytes, deviceSelfTimeNs,
                deviceTotalTimeNs);
    }

    /**
     * The path on device time: its device self and total time as its self and total time (and as
     * its device time); count, bytes and peak as they are.
     */
    public PathStats onDeviceTime() {
        return new PathStats(path, pathHash, kind, count, deviceSelfTimeNs, deviceTotalTimeNs, bytes, peakBytes,
                deviceSelfTimeNs, deviceTotalTimeNs);
    }

    /** Whether device work is attributed to the path or below it (its device total time is above 0). */
    public boolean hasDeviceTime() {
        return deviceTotalTimeNs > 0;
    }

    /** This path's statistics with {@code other}'s occurrences added; path text and kind stay this one's. */
    public PathStats plus(PathStats other) {
        if (other.pathHash != pathHash) {
            throw new IllegalArgumentException("cannot add statistics of another path: " + other.path + " to " + path);
        }
        return new PathStats(path, pathHash, kind, Saturating.add(count, other.count),
                Saturating.add(selfTimeNs, other.selfTimeNs), Saturating.add(totalTimeNs, other.totalTimeNs),
                Saturating.add(bytes, other.bytes), Math.max(peakBytes, other.peakBytes),
                Saturating.add(deviceSelfTimeNs, other.deviceSelfTimeNs),
                Saturating.add(deviceTotalTimeNs, other.deviceTotalTimeNs));
    }

    /**
     * Merges occurrences by path hash (text and kind of the first occurrence win), in path order
     * (code point order of the text, then hash). Linear apart from the final sort.
     */
    public static List<PathStats> aggregate(Collection<PathStats> occurrences) {
        Map<Long, PathStats> byHash = new HashMap<>(occurrences.size() * 2);
        for (PathStats occurrence : occurrences) {
            byHash.merge(occurrence.pathHash, occurrence, PathStats::plus);
        }
        // Hashes are distinct, so the order is total and a parallel sort gives the same list.
        PathStats[] merged = byHash.values().toArray(new PathStats[0]);
        Arrays.parallelSort(merged, BY_PATH);
        return List.of(merged);
    }

    /** The per-path statistics of a graph's nodes, keyed by their semantic paths, in path order. */
    public static List<PathStats> ofGraph(List<GraphNode> nodes) {
        return ofGraph(nodes, SemanticPaths.of(nodes));
    }

    /**
     * {@link #ofGraph(List)} with the nodes' semantic paths already worked out: what {@link #aggregate}
     * gives for one occurrence per node, without an occurrence object per node. Occurrences are
     * merged by hash in primitive arrays (text and kind of the first occurrence, sums saturating,
     * peak the largest), then sorted by text and hash; text is compared with {@link String#compareTo}
     * (which the JIT vectorises) when no text holds a character at or above U+D800, where UTF-16
     * order is code point order, otherwise in code point order. (Sorting half a million paths with
     * long shared prefixes was the longest step of a big import's store.)
     */
    public static List<PathStats> ofGraph(List<GraphNode> nodes, SemanticPaths paths) {
        String[] kinds = new String[GraphNodeKind.values().length];
        for (GraphNodeKind kind : GraphNodeKind.values()) {
            kinds[kind.ordinal()] = kind.name().toLowerCase(Locale.ROOT);
        }
        int n = nodes.size();
        int capacity = Integer.highestOneBit(Math.max(2, n) * 2) * 2;
        int mask = capacity - 1;
        long[] keys = new long[capacity];
        int[] slots = new int[capacity];
        Arrays.fill(slots, -1);
        int[] first = new int[n];
        long[] counts = new long[n];
        long[] self = new long[n];
        long[] total = new long[n];
        long[] bytes = new long[n];
        long[] peak = new long[n];
        long[] deviceSelf = new long[n];
        long[] deviceTotal = new long[n];
        int p = 0;
        for (int i = 0; i < n; i++) {
            GraphNode node = nodes.get(i);
            long hash = paths.hash(i);
            int at = (int) (hash ^ (hash >>> 32)) * 0x9E3779B1 & mask;
            while (slots[at] >= 0 && keys[at] != hash) {
                at = (at + 1) & mask;
            }
            int s = slots[at];
            if (s < 0) {
                s = p++;
                keys[at] = hash;
                slots[at] = s;
                first[s] = i;
                counts[s] = 1;
                self[s] = node.selfTimeNs();
                total[s] = node.totalTimeNs();
                bytes[s] = node.bytes();
                peak[s] = node.peakBytes();
                deviceSelf[s] = node.deviceSelfTimeNs();
                deviceTotal[s] = node.deviceTotalTimeNs();
            } else {
                counts[s] = Saturating.add(counts[s], 1);
                self[s] = Saturating.add(self[s], node.selfTimeNs());
                total[s] = Saturating.add(total[s], node.totalTimeNs());
                bytes[s] = Saturating.add(bytes[s], node.bytes());
                peak[s] = Math.max(peak[s], node.peakBytes());
                deviceSelf[s] = Saturating.add(deviceSelf[s], node.deviceSelfTimeNs());
                deviceTotal[s] = Saturating.add(deviceTotal[s], node.deviceTotalTimeNs());
            }
        }
        PathStats[] stats = new PathStats[p];
        boolean utf16Order = true;
        for (int s = 0; s < p; s++) {
            int i = first[s];
            String text = paths.path(i);
            utf16Order &= belowSurrogates(text);
            stats[s] = new PathStats(text, paths.hash(i), kinds[nodes.get(i).kind().ordinal()], counts[s], self[s],
                    total[s], bytes[s], peak[s], deviceSelf[s], deviceTotal[s]);
        }
        // Hashes are distinct, so the order is total and a parallel sort gives the same list.
        Arrays.parallelSort(stats, utf16Order ? BY_UTF16_PATH : BY_PATH);
        return List.of(stats);
    }

    /** {@link #BY_PATH} for texts all below U+D800. */
    private static final Comparator<PathStats> BY_UTF16_PATH = (a, b) -> {
        int c = a.path.compareTo(b.path);
        return c != 0 ? c : Long.compare(a.pathHash, b.pathHash);
    };

    /** Whether every character of {@code s} is below U+D800 (no surrogates, nothing above them). */
    private static boolean belowSurrogates(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= Character.MIN_SURROGATE) {
                return false;
            }
        }
        return true;
    }

    private static void requireNonNegative(long value, String name) {
        if (value < 0) {
            throw new IllegalArgumentException(name + " must not be negative: " + value);
        }
    }
}
