package io.tracegraph.json.pytorch;

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

    /**
     * The keys launches are found by, from the events alone (no host tree): built on another core
     * while the host tree is. Rows of runtime calls by {@code correlation} and of cpu ops by
     * {@code External id}, the first in file order of each key, leaving out the rows that are steps
     * (a step has no piece: a runtime call or cpu op is a host row, and it is a step exactly when
     * its name is {@code ProfilerStep#N}); flow starts by id; flow ends by (thread, time).
     */
    static final class Keys {
        final LongPairMap byCorrelation = new LongPairMap();
        final LongPairMap byExternal = new LongPairMap();
        final LongPairMap flowStart = new LongPairMap();
        final LongPairMap flowEndAt = new LongPairMap();

        static Keys of(EventTable t) {
            Keys k = new Keys();
            byte[] isStepName = new byte[t.names.size()];
            for (int r = 0; r < t.size; r++) {
                byte kind = t.kind[r];
                boolean runtime = kind == EventKind.RUNTIME && t.correlation[r] != EventTable.ABSENT;
                boolean cpuOp = kind == EventKind.CPU_OP && t.externalId[r] != EventTable.ABSENT;
                if (!runtime && !cpuOp) {
                    continue;
                }
                int name = t.name[r];
                if (isStepName[name] == 0) {
                    isStepName[name] = (byte) (HostTree.stepNumber(t.names.get(name)) >= 0 ? 1 : 2);
                }
                if (isStepName[name] == 1) {
                    continue;
                }
                if (runtime) {
                    k.byCorrelation.putIfAbsent(t.correlation[r], 0, r);
                } else {
                    k.byExternal.putIfAbsent(t.externalId[r], 0, r);
                }
            }
            for (int f = 0; f < t.flowSize; f++) {
                if (t.flowPhase[f] == 's') {
                    k.flowStart.putIfAbsent(t.flowId[f], 0, f);
                } else if (t.flowPhase[f] == 'f') {
                    k.flowEndAt.putIfAbsent(t.flowLane[f], t.flowTs[f], f);
                }
            }
            return k;
        }
    }

    static DeviceLaunches of(EventTable t, HostTree tree) {
        return of(t, tree, Keys.of(t));
    }

    static DeviceLaunches of(EventTable t, HostTree tree, Keys keys) {
        DeviceLaunches d = new DeviceLaunches(t.size);
        for (int r = 0; r < t.size; r++) {
            if (!EventKind.isDevice(t.kind[r])) {
                d.launcher[r] = -1;
                continue;
            }
            int piece = -1;
            int host = t.correlation[r] == EventTable.ABSENT ? -1 : keys.byCorrelation.get(t.correlation[r], 0);
            if (host >= 0) {
                piece = pieceAt(tree, host);
            }
            if (piece < 0) {
                int end = keys.flowEndAt.get(t.lane[r], t.start[r]);
                int s = end < 0 ? -1 : keys.flowStart.get(t.flowId[end], 0);
                if (s >= 0) {
                    piece = tree.deepestAt(t.flowLane[s], t.flowTs[s]);
                }
            }
            if (piece < 0 && t.externalId[r] != EventTable.ABSENT) {
                int op = keys.byExternal.get(t.externalId[r], 0);
                if (op >= 0) {
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
