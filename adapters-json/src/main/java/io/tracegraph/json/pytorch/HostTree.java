package io.tracegraph.json.pytorch;

import java.util.Arrays;
import java.util.Comparator;
import java.util.PriorityQueue;

/**
 * The host span tree of a trace, as pieces of host events with parent links.
 *
 * <ol>
 *   <li>{@code ProfilerStep#N} events are the steps, children of the root; the root spans all host
 *       events (all events when there are none).</li>
 *   <li>Every other host event is cut at the steps' boundaries into pieces (an event that runs
 *       across a step's start or end, like the Python frames around the profiler loop, has one
 *       piece per side), so that a step holds everything that ran during it, on every thread.</li>
 *   <li>Per thread (pid, tid) and segment, pieces nest by time: sorted by start, then longer
 *       first, then by category (annotation, cpu op, Python, runtime, other), then by Python id,
 *       then in file order. A piece that outlives the one it starts in by at most 1 µs is clipped
 *       to it; one that starts less than 1 µs before the other ends is its next sibling; a larger
 *       partial overlap is counted and resolved by cutting: the event of lower category rank is
 *       cut at the other's boundary, and its remainder is nested again.</li>
 *   <li>A cpu op whose descendants are only runtime calls is an op; those calls fold into it.</li>
 * </ol>
 *
 * <p>Linear apart from the sorts. Pieces are numbered densely; their parent is another piece, or
 * {@code -1} when they sit directly under their segment (a step, or the root).
 */
final class HostTree {
    static final long TOLERANCE_NS = 1_000;

    final EventTable t;
    final Findings findings;

    // Steps.
    int steps;
    int[] stepRow;
    long[] stepStart;
    long[] stepEnd;
    long rootStart;
    long rootEnd;

    // Pieces.
    int n;
    int[] row;
    long[] start;
    long[] end;
    /** Step index of the piece's segment, or -1 for the root. */
    int[] segment;
    int[] parent;
    /** The op piece a piece is (itself) or folds into, or -1 for a span. */
    int[] opOf;
    /** Pieces per lane in processing (pre-)order; laneFrom[l]..laneFrom[l+1]. */
    int[] preOrder;
    int[] laneFrom;
    boolean[] hostLane;
    /** For each row, its first piece, or -1. */
    int[] firstPiece;

    private HostTree(EventTable t, Findings findings) {
        this.t = t;
        this.findings = findings;
    }

    static HostTree build(EventTable t, Findings findings) {
        HostTree tree = new HostTree(t, findings);
        tree.classifyLanes();
        tree.steps();
        tree.cut();
        tree.nest();
        tree.fold();
        return tree;
    }

    boolean isHostRow(int r) {
        byte k = t.kind[r];
        return EventKind.isHost(k) && (k != EventKind.OTHER || hostLane[t.lane[r]]);
    }

    private void classifyLanes() {
        hostLane = new boolean[t.lanes.size()];
        for (int r = 0; r < t.size; r++) {
            if (EventKind.marksHostLane(t.kind[r])) {
                hostLane[t.lane[r]] = true;
            }
        }
    }

    /** The step number of a name {@code ProfilerStep#N}, or -1. */
    static long stepNumber(String name) {
        if (!name.startsWith("ProfilerStep#") || name.length() == "ProfilerStep#".length()
                || name.length() > "ProfilerStep#".length() + 18) {
            return -1;
        }
        long n = 0;
        for (int i = "ProfilerStep#".length(); i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            n = n * 10 + (c - '0');
        }
        return n;
    }

    private void steps() {
        long[] numberOfName = new long[t.names.size()];
        Arrays.fill(numberOfName, Long.MIN_VALUE);
        int count = 0;
        int[] rows = new int[16];
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int r = 0; r < t.size; r++) {
            if (!isHostRow(r)) {
                continue;
            }
            min = Math.min(min, t.start[r]);
            max = Math.max(max, t.start[r] + t.dur[r]);
            int name = t.name[r];
            if (numberOfName[name] == Long.MIN_VALUE) {
                numberOfName[name] = stepNumber(t.names.get(name));
            }
            if (numberOfName[name] >= 0) {
                if (count == rows.length) {
                    rows = Arrays.copyOf(rows, count * 2);
                }
                rows[count++] = r;
            }
        }
        if (min == Long.MAX_VALUE) {
            for (int r = 0; r < t.size; r++) {
                if (EventKind.isDevice(t.kind[r])) {
                    min = Math.min(min, t.start[r]);
                    max = Math.max(max, t.start[r] + t.dur[r]);
                }
            }
        }
        if (min == Long.MAX_VALUE) {
            min = 0;
            max = 0;
        }
        rootStart = min;
        rootEnd = max;
        Integer[] order = new Integer[count];
        for (int i = 0; i < count; i++) {
            order[i] = rows[i];
        }
        Arrays.sort(order, Comparator.<Integer>comparingLong(r -> t.start[r]).thenComparingInt(r -> r));
        steps = count;
        stepRow = new int[count];
        stepStart = new long[count];
        stepEnd = new long[count];
        for (int i = 0; i < count; i++) {
            int r = order[i];
            stepRow[i] = r;
            long s = t.start[r];
            long e = s + t.dur[r];
            if (i > 0 && s < stepEnd[i - 1]) {
                findings.warn("overlapping_steps", "%d ProfilerStep annotations overlap the one before them "
                        + "(the first: %s); each was cut to start where the one before it ends",
                        t.names.get(t.name[r]));
                s = stepEnd[i - 1];
                e = Math.max(e, s);
            }
            stepStart[i] = s;
            stepEnd[i] = e;
        }
    }

    /** The step whose interval holds {@code time} (start inclusive, end exclusive), or -1. */
    int stepAt(long time) {
        int lo = 0;
        int hi = steps - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (stepStart[mid] <= time) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found >= 0 && (time < stepEnd[found] || stepStart[found] == stepEnd[found] && time == stepEnd[found])
                ? found : -1;
    }

    private void cut() {
        long[] bounds = new long[steps * 2];
        for (int i = 0; i < steps; i++) {
            bounds[2 * i] = stepStart[i];
            bounds[2 * i + 1] = stepEnd[i];
        }
        Arrays.sort(bounds);
        boolean[] isStep = new boolean[t.size];
        for (int i = 0; i < steps; i++) {
            isStep[stepRow[i]] = true;
        }
        int capacity = t.size + 16;
        row = new int[capacity];
        start = new long[capacity];
        end = new long[capacity];
        segment = new int[capacity];
        firstPiece = new int[t.size];
        Arrays.fill(firstPiece, -1);
        for (int r = 0; r < t.size; r++) {
            if (isStep[r] || !isHostRow(r)) {
                continue;
            }
            long a = t.start[r];
            long b = a + t.dur[r];
            firstPiece[r] = n;
            int k = firstAbove(bounds, a);
            while (k < bounds.length && bounds[k] < b) {
                if (bounds[k] > a) {
                    addPiece(r, a, bounds[k]);
                    a = bounds[k];
                }
                k++;
            }
            addPiece(r, a, b);
        }
    }

    private static int firstAbove(long[] sorted, long value) {
        int lo = 0;
        int hi = sorted.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] <= value) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private int addPiece(int r, long a, long b) {
        if (n == row.length) {
            int cap = n + (n >> 2) + 16;
            row = Arrays.copyOf(row, cap);
            start = Arrays.copyOf(start, cap);
            end = Arrays.copyOf(end, cap);
            segment = Arrays.copyOf(segment, cap);
            if (parent != null) {
                parent = Arrays.copyOf(parent, cap);
            }
        }
        row[n] = r;
        start[n] = a;
        end[n] = b;
        segment[n] = stepAt(a);
        return n++;
    }

    /** Processing order: start, then longer first, category rank, Python id, file order. */
    private int compare(int a, int b) {
        int c = Long.compare(start[a], start[b]);
        if (c != 0) {
            return c;
        }
        c = Long.compare(end[b], end[a]);
        if (c != 0) {
            return c;
        }
        c = Integer.compare(EventKind.rank(t.kind[row[a]]), EventKind.rank(t.kind[row[b]]));
        if (c != 0) {
            return c;
        }
        c = Integer.compare(t.pythonId[row[a]], t.pythonId[row[b]]);
        if (c != 0) {
            return c;
        }
        c = Integer.compare(row[a], row[b]);
        return c != 0 ? c : Integer.compare(a, b);
    }

    private void nest() {
        int lanes = t.lanes.size();
        int basePieces = n;
        // Pieces grouped by lane, each group in processing order.
        int[] laneCount = new int[lanes + 1];
        for (int i = 0; i < basePieces; i++) {
            laneCount[t.lane[row[i]] + 1]++;
        }
        for (int l = 0; l < lanes; l++) {
            laneCount[l + 1] += laneCount[l];
        }
        int[] byLane = new int[basePieces];
        int[] fill = Arrays.copyOf(laneCount, lanes);
        for (int i = 0; i < basePieces; i++) {
            byLane[fill[t.lane[row[i]]]++] = i;
        }
        parent = new int[row.length];
        Arrays.fill(parent, -1);
        int[] pre = new int[basePieces + 16];
        int preSize = 0;
        laneFrom = new int[lanes + 1];
        int[] stack = new int[64];
        PriorityQueue<Integer> deferred = new PriorityQueue<>(this::compare);
        for (int l = 0; l < lanes; l++) {
            laneFrom[l] = preSize;
            int from = laneCount[l];
            int to = laneCount[l + 1];
            if (from == to) {
                continue;
            }
            sortLane(byLane, from, to);
            int depth = 0;
            int currentSegment = Integer.MIN_VALUE;
            int next = from;
            while (next < to || !deferred.isEmpty()) {
                int p;
                if (deferred.isEmpty() || (next < to && compare(byLane[next], deferred.peek()) < 0)) {
                    p = byLane[next++];
                } else {
                    p = deferred.poll();
                }
                if (segment[p] != currentSegment) {
                    depth = 0;
                    currentSegment = segment[p];
                }
                while (depth > 0) {
                    int q = stack[depth - 1];
                    if (start[p] >= end[q] && start[p] != start[q]) {
                        depth--;
                        continue;
                    }
                    if (end[p] <= end[q]) {
                        break;
                    }
                    long overshoot = end[p] - end[q];
                    if (overshoot <= TOLERANCE_NS) {
                        end[p] = end[q];
                        break;
                    }
                    if (end[q] - start[p] <= TOLERANCE_NS) {
                        // Starts just before q ends: its next sibling.
                        depth--;
                        continue;
                    }
                    // A partial overlap beyond the tolerance: cut one of them.
                    int crossedFrom = depth - 1;
                    int minRank = EventKind.rank(t.kind[row[q]]);
                    while (crossedFrom > 0 && end[stack[crossedFrom - 1]] < end[p] - TOLERANCE_NS) {
                        crossedFrom--;
                        minRank = Math.min(minRank, EventKind.rank(t.kind[row[stack[crossedFrom]]]));
                    }
                    findings.warn("partial_overlap", "%d host events partially overlapped another event on "
                            + "their thread by more than 1 µs and were cut at its boundary (the first: %s)",
                            describeOverlap(p, q));
                    if (EventKind.rank(t.kind[row[p]]) < minRank) {
                        for (int k = crossedFrom; k < depth; k++) {
                            int c = stack[k];
                            int tail = addPiece(row[c], start[p], end[c]);
                            segment[tail] = segment[c];
                            parent[tail] = -1;
                            end[c] = start[p];
                            deferred.add(tail);
                        }
                        depth = crossedFrom;
                        continue;
                    }
                    int tail = addPiece(row[p], end[q], end[p]);
                    segment[tail] = segment[p];
                    parent[tail] = -1;
                    end[p] = end[q];
                    deferred.add(tail);
                    break;
                }
                int par = depth > 0 ? stack[depth - 1] : -1;
                if (par >= 0) {
                    if (start[p] < start[par]) {
                        start[p] = start[par];
                    }
                    if (end[p] > end[par]) {
                        end[p] = end[par];
                    }
                    if (end[p] < start[p]) {
                        end[p] = start[p];
                    }
                }
                parent[p] = par;
                if (t.kind[row[p]] == EventKind.PYTHON && t.pythonParent[row[p]] != EventTable.NO_ID) {
                    checkPythonParent(p, stack, depth);
                }
                if (depth == stack.length) {
                    stack = Arrays.copyOf(stack, depth * 2);
                }
                stack[depth++] = p;
                if (preSize == pre.length) {
                    pre = Arrays.copyOf(pre, preSize + (preSize >> 1) + 16);
                }
                pre[preSize++] = p;
            }
        }
        laneFrom[lanes] = preSize;
        preOrder = Arrays.copyOf(pre, preSize);
    }

    private String describeOverlap(int p, int q) {
        return "`" + t.names.get(t.name[row[p]]) + "` and `" + t.names.get(t.name[row[q]]) + "` by "
                + (end[q] - start[p]) + " ns";
    }

    private void checkPythonParent(int p, int[] stack, int depth) {
        int expected = t.pythonParent[row[p]];
        for (int k = depth - 1; k >= 0; k--) {
            int q = row[stack[k]];
            if (t.kind[q] == EventKind.PYTHON) {
                if (t.pythonId[q] == expected) {
                    return;
                }
                break;
            }
        }
        findings.warn("python_parent_mismatch", "%d Python functions nest by time under another frame than "
                + "their `Python parent id` (the first: %s); time decides", "`" + t.names.get(t.name[row[p]]) + "`");
    }

    /** Sorts byLane[from, to) into processing order: packed keys where they fit, a comparator otherwise. */
    private void sortLane(int[] byLane, int from, int to) {
        int count = to - from;
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int i = from; i < to; i++) {
            min = Math.min(min, start[byLane[i]]);
            max = Math.max(max, start[byLane[i]]);
        }
        int indexBits = 64 - Long.numberOfLeadingZeros(Math.max(1, count - 1));
        long range = max - min;
        if (range >= 0 && (indexBits >= 62 || range < (1L << (63 - indexBits)))) {
            long[] keys = new long[count];
            for (int i = 0; i < count; i++) {
                keys[i] = (start[byLane[from + i]] - min) << indexBits | i;
            }
            if (count > 1 << 16) {
                Arrays.parallelSort(keys);
            } else {
                Arrays.sort(keys);
            }
            int[] sorted = new int[count];
            long mask = (1L << indexBits) - 1;
            for (int i = 0; i < count; i++) {
                sorted[i] = byLane[from + (int) (keys[i] & mask)];
            }
            // Runs of equal starts: the remaining keys decide.
            int i = 0;
            while (i < count) {
                int j = i + 1;
                while (j < count && start[sorted[j]] == start[sorted[i]]) {
                    j++;
                }
                if (j - i > 1) {
                    sortRun(sorted, i, j);
                }
                i = j;
            }
            System.arraycopy(sorted, 0, byLane, from, count);
        } else {
            Integer[] boxed = new Integer[count];
            for (int i = 0; i < count; i++) {
                boxed[i] = byLane[from + i];
            }
            Arrays.sort(boxed, this::compare);
            for (int i = 0; i < count; i++) {
                byLane[from + i] = boxed[i];
            }
        }
    }

    private void sortRun(int[] a, int from, int to) {
        if (to - from == 2) {
            if (compare(a[from], a[from + 1]) > 0) {
                int x = a[from];
                a[from] = a[from + 1];
                a[from + 1] = x;
            }
            return;
        }
        Integer[] boxed = new Integer[to - from];
        for (int i = from; i < to; i++) {
            boxed[i - from] = a[i];
        }
        Arrays.sort(boxed, this::compare);
        for (int i = from; i < to; i++) {
            a[i] = boxed[i - from];
        }
    }

    /** Marks leaf cpu ops and folds their runtime calls into them. */
    private void fold() {
        boolean[] busy = new boolean[n];
        for (int k = preOrder.length - 1; k >= 0; k--) {
            int p = preOrder[k];
            int par = parent[p];
            if (par >= 0 && (busy[p] || t.kind[row[p]] != EventKind.RUNTIME)) {
                busy[par] = true;
            }
        }
        opOf = new int[n];
        for (int p : preOrder) {
            int par = parent[p];
            if (par >= 0 && opOf[par] >= 0) {
                opOf[p] = opOf[par];
            } else if (t.kind[row[p]] == EventKind.CPU_OP && !busy[p]) {
                opOf[p] = p;
            } else {
                opOf[p] = -1;
            }
        }
    }

    /** The deepest piece of {@code lane} whose interval holds {@code time}, or -1. */
    int deepestAt(int lane, long time) {
        if (lane < 0 || lane + 1 >= laneFrom.length) {
            return -1;
        }
        int lo = laneFrom[lane];
        int hi = laneFrom[lane + 1] - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (start[preOrder[mid]] <= time) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        if (found < 0) {
            return -1;
        }
        for (int p = preOrder[found]; p >= 0; p = parent[p]) {
            if (start[p] <= time && time <= end[p]) {
                return p;
            }
        }
        return -1;
    }
}
