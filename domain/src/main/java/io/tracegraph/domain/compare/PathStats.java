package io.tracegraph.domain.compare;

import io.tracegraph.domain.graph.GraphNode;
import io.tracegraph.domain.graph.GraphNodeKind;
import io.tracegraph.domain.graph.SemanticPaths;
import io.tracegraph.domain.trace.CodePointOrder;
import io.tracegraph.domain.trace.Saturating;
import java.util.ArrayList;
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

    /** {@link #ofGraph(List)} with the nodes' semantic paths already worked out. */
    public static List<PathStats> ofGraph(List<GraphNode> nodes, SemanticPaths paths) {
        List<PathStats> occurrences = new ArrayList<>(nodes.size());
        String[] kinds = new String[GraphNodeKind.values().length];
        for (GraphNodeKind kind : GraphNodeKind.values()) {
            kinds[kind.ordinal()] = kind.name().toLowerCase(Locale.ROOT);
        }
        for (int i = 0; i < nodes.size(); i++) {
            GraphNode node = nodes.get(i);
            occurrences.add(of(paths.path(i), paths.hash(i), kinds[node.kind().ordinal()],
                    node.selfTimeNs(), node.totalTimeNs(), node.bytes(), node.peakBytes(), node.deviceSelfTimeNs(),
                    node.deviceTotalTimeNs()));
        }
        return aggregate(occurrences);
    }

    private static void requireNonNegative(long value, String name) {
        if (value < 0) {
            throw new IllegalArgumentException(name + " must not be negative: " + value);
        }
    }
}
