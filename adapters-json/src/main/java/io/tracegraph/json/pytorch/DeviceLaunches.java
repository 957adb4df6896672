package io.tracegraph.json.pytorch;

import java.util.HashMap;
import java.util.Map;

/**
 * Which host piece launched each device event (kernel, memcpy, memset): the runtime call with the
 * same {@code correlation}; else the host event at the start of the {@code ac2g} flow whose end
 * binds to the device event; else the cpu op with the same {@code External id}; else none (the
 * event counts at the root). A launch folded into an op counts at the op, and so does a runtime call
 * right below an op that is a span (the op holds other events besides its calls).
 */
final class DeviceLaunches {
    /** The launching piece of each complete-event row (device rows only), or -1 for the root. */
    final int[] launcher;
    long unlaunched;
    String firstUnlaunched;

    private DeviceLaunches(int rows) {
        launcher = new int[rows];
    }

    static DeviceLaunches of(EventTable t, HostTree tree) {
        DeviceLaunches d = new DeviceLaunches(t.size);
        Map<Long, Integer> byCorrelation = new HashMap<>();
        Map<Long, Integer> byExternal = new HashMap<>();
        for (int r = 0; r < t.size; r++) {
            if (tree.firstPiece[r] < 0) {
                continue;
            }
            byte k = t.kind[r];
            if (k == EventKind.RUNTIME && t.correlation[r] != EventTable.ABSENT) {
                byCorrelation.putIfAbsent(t.correlation[r], r);
            }
            if (k == EventKind.CPU_OP && t.externalId[r] != EventTable.ABSENT) {
                byExternal.putIfAbsent(t.externalId[r], r);
            }
        }
        Map<Long, Integer> flowStart = new HashMap<>();
        Map<Long, Long> flowEndById = new HashMap<>();
        Map<Long, Map<Long, Long>> flowEndAt = new HashMap<>();
        for (int f = 0; f < t.flowSize; f++) {
            if (t.flowPhase[f] == 's') {
                flowStart.putIfAbsent(t.flowId[f], f);
            } else if (t.flowPhase[f] == 'f') {
                flowEndAt.computeIfAbsent((long) t.flowLane[f], k -> new HashMap<>()).putIfAbsent(t.flowTs[f],
                        t.flowId[f]);
                flowEndById.putIfAbsent(t.flowId[f], (long) f);
            }
        }
        for (int r = 0; r < t.size; r++) {
            if (!EventKind.isDevice(t.kind[r])) {
                d.launcher[r] = -1;
                continue;
            }
            int piece = -1;
            Integer host = t.correlation[r] == EventTable.ABSENT ? null : byCorrelation.get(t.correlation[r]);
            if (host != null) {
                piece = pieceAt(tree, host);
            }
            if (piece < 0) {
                Map<Long, Long> ends = flowEndAt.get((long) t.lane[r]);
                Long id = ends == null ? null : ends.get(t.start[r]);
                Integer s = id == null ? null : flowStart.get(id);
                if (s != null) {
                    piece = tree.deepestAt(t.flowLane[s], t.flowTs[s]);
                }
            }
            if (piece < 0 && t.externalId[r] != EventTable.ABSENT) {
                Integer op = byExternal.get(t.externalId[r]);
                if (op != null) {
                    piece = pieceAt(tree, op);
                }
            }
            if (piece >= 0 && tree.opOf[piece] >= 0) {
                piece = tree.opOf[piece];
            } else if (piece >= 0) {
                piece = opAbove(t, tree, piece);
            }
            if (piece < 0) {
                d.unlaunched++;
                if (d.firstUnlaunched == null) {
                    d.firstUnlaunched = "`" + t.names.get(t.name[r]) + "`";
                }
            }
            d.launcher[r] = piece;
        }
        return d;
    }

    /**
     * A runtime call's launching op: the cpu op right above it (through other runtime calls), as an
     * op with other events inside keeps its calls as its children ({@code aten::addmm} holding
     * {@code aten::empty} and {@code cuLaunchKernel}); the piece itself when it is no runtime call or
     * no cpu op is above it. So device work counts at the op, whose path is the same on every
     * platform, not at the call, whose name is not ({@code cuLaunchKernel}, {@code hipModuleLaunchKernel}).
     */
    private static int opAbove(EventTable t, HostTree tree, int piece) {
        int up = piece;
        while (up >= 0 && t.kind[tree.row[up]] == EventKind.RUNTIME) {
            up = tree.parent[up];
        }
        return up >= 0 && up != piece && t.kind[tree.row[up]] == EventKind.CPU_OP ? up : piece;
    }

    /** The piece of a host row that holds its start (its first piece). */
    private static int pieceAt(HostTree tree, int row) {
        return tree.firstPiece[row];
    }
}
