package io.tracegraph.domain.compare;

import io.tracegraph.domain.graph.TimeBasis;
import io.tracegraph.domain.trace.Saturating;
import io.tracegraph.domain.trace.ComparisonIdentity;
import io.tracegraph.domain.trace.RunOutcome;
import io.tracegraph.domain.trace.TensorStats;
import java.util.List;
import java.util.Objects;

/**
 * What a comparison needs of one run: its id, measured total time in milliseconds, memory peak in
 * bytes, the statistics of each of its semantic paths (one entry per path, held as
 * {@link PathColumns}) and its gradients; and, from candle-graph trace/7 on, how its capture ended,
 * the comparison identity it declared, its tensor statistics and its device time.
 *
 * @param outcome how the capture ended ({@link RunOutcome#IMPLIED_COMPLETE} without a terminal record)
 * @param identity the declared comparison identity, or {@code null}
 * @param tensorStats the run's tensor statistics in trace order (trace/10), empty without
 * @param deviceTimeNs the device time of the whole graph (every node's device self time, summed over
 *     nodes and devices), or {@code null} when the run has no device time at all
 */
public record RunFacts(String runId, double totalMs, long peakBytes, List<PathStats> paths,
        List<GradientFact> gradients, RunOutcome outcome, ComparisonIdentity identity, List<TensorStats> tensorStats,
        Long deviceTimeNs) {

    public RunFacts {
        Objects.requireNonNull(runId, "runId");
        if (!Double.isFinite(totalMs) || totalMs < 0) {
            throw new IllegalArgumentException("totalMs must be finite and not negative: " + totalMs);
        }
        if (peakBytes < 0) {
            throw new IllegalArgumentException("peakBytes must not be negative: " + peakBytes);
        }
        PathColumns columns = PathColumns.of(paths);
        paths = columns;
        gradients = List.copyOf(gradients);
        Objects.requireNonNull(outcome, "outcome");
        tensorStats = List.copyOf(tensorStats);
        if (deviceTimeNs != null && deviceTimeNs < 0) {
            throw new IllegalArgumentException("deviceTimeNs must not be negative: " + deviceTimeNs);
        }
        int twice = firstRepeated(columns);
        if (twice >= 0) {
            throw new IllegalArgumentException("run " + runId + " lists path " + columns.path(twice)
                    + " twice; aggregate its occurrences first");
        }
    }

    /** The paths, column by column. */
    public PathColumns columns() {
        return (PathColumns) paths;
    }

    /**
     * The first path whose hash an earlier one has, or -1: an open-addressing set of the hashes
     * (a set comparison builds the facts of tens of runs of 50,000 paths each; boxing every hash
     * into a HashSet cost more than reading them).
     */
    private static int firstRepeated(PathColumns paths) {
        int bits = 64 - Long.numberOfLeadingZeros(Math.max(4, paths.size() * 2L));
        int capacity = 1 << bits;
        long[] slots = new long[capacity];
        boolean[] used = new boolean[capacity];
        int mask = capacity - 1;
        for (int i = 0; i < paths.size(); i++) {
            long hash = paths.hash(i);
            // Fibonacci hashing: the top bits of the product depend on all bits of the hash.
            int slot = (int) ((hash * 0x9E3779B97F4A7C15L) >>> (64 - bits));
            while (used[slot]) {
                if (slots[slot] == hash) {
                    return i;
                }
                slot = (slot + 1) & mask;
            }
            used[slot] = true;
            slots[slot] = hash;
        }
        return -1;
    }

    /** Whether any of the run's paths has device time. */
    public boolean hasDeviceTime() {
        return columns().hasDeviceTime();
    }

    /**
     * The run on device time: its paths with device time, each with its device self and total time
     * (summed over devices) as its self and total time, and as its total time the device time of its
     * roots (every device interval of the trace, in milliseconds); memory peak and gradients as they
     * are. A run without device time has no paths then.
     */
    public RunFacts onDeviceTime() {
        PathColumns device = columns().onDeviceTime();
        long roots = 0;
        for (int i = 0; i < device.size(); i++) {
            if (device.kind(i).equals("root")) {
                roots = Saturating.add(roots, device.totalTimeNs(i));
            }
        }
        return new RunFacts(runId, roots / 1_000_000.0, peakBytes, device, gradients, outcome, identity, tensorStats,
                deviceTimeNs);
    }

    /** This run on {@code time}: itself for host time, {@link #onDeviceTime()} for device time. */
    public RunFacts on(TimeBasis time) {
        return time == TimeBasis.DEVICE ? onDeviceTime() : this;
    }

    /** A complete run without capture facts (trace/6): no identity, tensor statistics or device time. */
    public RunFacts(String runId, double totalMs, long peakBytes, List<PathStats> paths,
            List<GradientFact> gradients) {
        this(runId, totalMs, peakBytes, paths, gradients, RunOutcome.IMPLIED_COMPLETE, null, List.of(), null);
    }

    /** A run without gradient facts (all that a group comparison looks at). */
    public RunFacts(String runId, double totalMs, long peakBytes, List<PathStats> paths) {
        this(runId, totalMs, peakBytes, paths, List.of());
    }
}
