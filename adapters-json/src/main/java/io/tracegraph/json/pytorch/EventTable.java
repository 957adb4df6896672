package io.tracegraph.json.pytorch;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The events of one trace as read, column by column (primitive arrays, interned strings), in file
 * order: complete events, {@code [memory]} instants and flow ends. A few tens of bytes per event,
 * no object per event.
 */
final class EventTable {
    static final long ABSENT = Long.MIN_VALUE;
    static final int NO_ID = Integer.MIN_VALUE;
    /** Where ids that stand for strings start (a string pid or tid, a string flow id): key + names id. */
    static final long STRING_KEY = 0x4000_0000_0000_0000L;

    final Names names = new Names();
    final Lanes lanes = new Lanes();

    // Complete events.
    int size;
    /** How often the complete-event columns grew (each growth copies all of them). */
    int completeGrowths;
    int[] lane;
    long[] start;
    long[] dur;
    int[] name;
    byte[] kind;
    long[] externalId;
    long[] correlation;
    int[] pythonId;
    int[] pythonParent;
    /** Shape index into {@link #shapes} of a cpu op's first tensor input, or -1. */
    int[] shape;
    /** Names id of that input's type, or -1. */
    int[] dtype;
    /** Device index of a device event, or -1. */
    int[] device;
    /** Stream of a device event ({@code args.stream}), or -1. */
    int[] stream;

    // [memory] instants.
    int memSize;
    long[] memTs = new long[256];
    int[] memLane = new int[256];
    int[] memDevice = new int[256];
    long[] memAddr = new long[256];
    long[] memBytes = new long[256];
    long[] memTotal = new long[256];

    // Flow events (s, t, f) of launch flows.
    int flowSize;
    long[] flowId = new long[256];
    int[] flowLane = new int[256];
    long[] flowTs = new long[256];
    byte[] flowPhase = new byte[256];

    /** Memory devices as "type:index" keys, in order of appearance. */
    final List<long[]> memoryDevices = new ArrayList<>();
    private final Map<Long, Integer> memoryDeviceIds = new HashMap<>();

    final List<long[]> shapes = new ArrayList<>();
    private final Map<ShapeKey, Integer> shapeIds = new HashMap<>();

    /** Top-level members of the trace object (scalars as text), in file order. */
    final Map<String, String> header = new LinkedHashMap<>();
    /** deviceProperties: id → name. */
    final Map<Long, String> deviceNames = new LinkedHashMap<>();
    final Map<String, String> distributed = new LinkedHashMap<>();
    long baseTimeNs = ABSENT;
    /** Counts by what was set aside, for the health report. */
    long outOfMemoryEvents;
    long durationPairEvents;
    long instantEvents;
    long metadataEvents;

    EventTable() {
        this(1024);
    }

    /** A table with room for {@code capacity} complete events before it grows. */
    EventTable(int capacity) {
        int n = Math.max(16, capacity);
        lane = new int[n];
        start = new long[n];
        dur = new long[n];
        name = new int[n];
        kind = new byte[n];
        externalId = new long[n];
        correlation = new long[n];
        pythonId = new int[n];
        pythonParent = new int[n];
        shape = new int[n];
        dtype = new int[n];
        device = new int[n];
        stream = new int[n];
    }

    int addComplete() {
        if (size == lane.length) {
            growComplete(grow(size));
        }
        return size++;
    }

    /**
     * Makes room for {@code complete}, {@code memory} and {@code flows} rows in all: columns too
     * small for them grow at once to {@code scale} times that many (the rows expected by the end),
     * by a quarter at least (an estimate too low does not make them grow in small steps); columns
     * that hold them already stay as they are.
     */
    void reserve(int complete, int memory, int flows, double scale) {
        if (complete > lane.length) {
            growComplete(scaled(complete, Math.max(1.25, scale)));
        }
        if (memory > memTs.length) {
            growMemory(scaled(memory, Math.max(1.25, scale)));
        }
        if (flows > flowId.length) {
            growFlows(scaled(flows, Math.max(1.25, scale)));
        }
    }

    private static int scaled(int rows, double scale) {
        return (int) Math.min(Integer.MAX_VALUE - 16, (long) (rows * scale) + 1024);
    }

    private void growComplete(int n) {
        completeGrowths++;
        lane = Arrays.copyOf(lane, n);
        start = Arrays.copyOf(start, n);
        dur = Arrays.copyOf(dur, n);
        name = Arrays.copyOf(name, n);
        kind = Arrays.copyOf(kind, n);
        externalId = Arrays.copyOf(externalId, n);
        correlation = Arrays.copyOf(correlation, n);
        pythonId = Arrays.copyOf(pythonId, n);
        pythonParent = Arrays.copyOf(pythonParent, n);
        shape = Arrays.copyOf(shape, n);
        dtype = Arrays.copyOf(dtype, n);
        device = Arrays.copyOf(device, n);
        stream = Arrays.copyOf(stream, n);
    }

    int addMemory() {
        if (memSize == memTs.length) {
            growMemory(grow(memSize));
        }
        return memSize++;
    }

    private void growMemory(int n) {
        memTs = Arrays.copyOf(memTs, n);
        memLane = Arrays.copyOf(memLane, n);
        memDevice = Arrays.copyOf(memDevice, n);
        memAddr = Arrays.copyOf(memAddr, n);
        memBytes = Arrays.copyOf(memBytes, n);
        memTotal = Arrays.copyOf(memTotal, n);
    }

    int addFlow() {
        if (flowSize == flowId.length) {
            growFlows(grow(flowSize));
        }
        return flowSize++;
    }

    private void growFlows(int n) {
        flowId = Arrays.copyOf(flowId, n);
        flowLane = Arrays.copyOf(flowLane, n);
        flowTs = Arrays.copyOf(flowTs, n);
        flowPhase = Arrays.copyOf(flowPhase, n);
    }

    private static int grow(int n) {
        long next = n + (n >> 1) + 16;
        if (next > Integer.MAX_VALUE - 16) {
            throw new IllegalStateException("more than 2^31 events");
        }
        return (int) next;
    }

    /** The dense id of a memory device (PyTorch's device type and index). */
    int memoryDevice(long type, long index) {
        long key = type << 32 ^ (index & 0xffffffffL);
        Integer id = memoryDeviceIds.get(key);
        if (id == null) {
            id = memoryDevices.size();
            memoryDevices.add(new long[] {type, index});
            memoryDeviceIds.put(key, id);
        }
        return id;
    }

    int shape(long[] dims, int length) {
        ShapeKey key = new ShapeKey(Arrays.copyOf(dims, length));
        Integer id = shapeIds.get(key);
        if (id == null) {
            id = shapes.size();
            shapes.add(key.dims);
            shapeIds.put(key, id);
        }
        return id;
    }

    private static final class ShapeKey {
        final long[] dims;
        final int hash;

        ShapeKey(long[] dims) {
            this.dims = dims;
            this.hash = Arrays.hashCode(dims);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof ShapeKey k && Arrays.equals(dims, k.dims);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    /**
     * Appends the events of a table read from a later part of the same file, re-interning its
     * names, threads, shapes and memory devices into this table's.
     */
    void append(EventTable part) {
        int[] nameMap = new int[part.names.size()];
        for (int i = 0; i < nameMap.length; i++) {
            nameMap[i] = names.intern(part.names.get(i));
        }
        int[] laneMap = new int[part.lanes.size()];
        for (int i = 0; i < laneMap.length; i++) {
            laneMap[i] = lanes.lane(remapKey(part.lanes.pid(i), nameMap), remapKey(part.lanes.tid(i), nameMap));
        }
        int[] shapeMap = new int[part.shapes.size()];
        for (int i = 0; i < shapeMap.length; i++) {
            long[] dims = part.shapes.get(i);
            shapeMap[i] = shape(dims, dims.length);
        }
        int[] deviceMap = new int[part.memoryDevices.size()];
        for (int i = 0; i < deviceMap.length; i++) {
            long[] d = part.memoryDevices.get(i);
            deviceMap[i] = memoryDevice(d[0], d[1]);
        }
        for (int r = 0; r < part.size; r++) {
            int row = addComplete();
            lane[row] = laneMap[part.lane[r]];
            start[row] = part.start[r];
            dur[row] = part.dur[r];
            name[row] = nameMap[part.name[r]];
            kind[row] = part.kind[r];
            externalId[row] = part.externalId[r];
            correlation[row] = part.correlation[r];
            pythonId[row] = part.pythonId[r];
            pythonParent[row] = part.pythonParent[r];
            shape[row] = part.shape[r] < 0 ? -1 : shapeMap[part.shape[r]];
            dtype[row] = part.dtype[r] < 0 ? -1 : nameMap[part.dtype[r]];
            device[row] = part.device[r];
            stream[row] = part.stream[r];
        }
        for (int r = 0; r < part.memSize; r++) {
            int row = addMemory();
            memTs[row] = part.memTs[r];
            memLane[row] = laneMap[part.memLane[r]];
            memDevice[row] = deviceMap[part.memDevice[r]];
            memAddr[row] = part.memAddr[r];
            memBytes[row] = part.memBytes[r];
            memTotal[row] = part.memTotal[r];
        }
        for (int r = 0; r < part.flowSize; r++) {
            int row = addFlow();
            flowId[row] = remapKey(part.flowId[r], nameMap);
            flowLane[row] = laneMap[part.flowLane[r]];
            flowTs[row] = part.flowTs[r];
            flowPhase[row] = part.flowPhase[r];
        }
        outOfMemoryEvents += part.outOfMemoryEvents;
        durationPairEvents += part.durationPairEvents;
        instantEvents += part.instantEvents;
        metadataEvents += part.metadataEvents;
    }

    private static long remapKey(long key, int[] nameMap) {
        if (key >= STRING_KEY && key - STRING_KEY < nameMap.length) {
            return STRING_KEY + nameMap[(int) (key - STRING_KEY)];
        }
        return key;
    }

    /**
     * Threads by (pid, tid). Numbers and numeric strings ({@code "25738"}) are the same thread; other
     * strings ({@code "stream 7"}, {@code "Spans"}) are names of their own.
     */
    static final class Lanes {
        private final Map<LaneKey, Integer> ids = new HashMap<>();
        private long[] pids = new long[16];
        private long[] tids = new long[16];
        private int size;
        private long lastPid = ABSENT;
        private long lastTid = ABSENT;
        private int last = -1;

        int lane(long pid, long tid) {
            if (pid == lastPid && tid == lastTid && last >= 0) {
                return last;
            }
            LaneKey key = new LaneKey(pid, tid);
            Integer id = ids.get(key);
            if (id == null) {
                id = size++;
                if (id == pids.length) {
                    pids = Arrays.copyOf(pids, id * 2);
                    tids = Arrays.copyOf(tids, id * 2);
                }
                pids[id] = pid;
                tids[id] = tid;
                ids.put(key, id);
            }
            lastPid = pid;
            lastTid = tid;
            last = id;
            return id;
        }

        int size() {
            return size;
        }

        long pid(int lane) {
            return pids[lane];
        }

        long tid(int lane) {
            return tids[lane];
        }

        private record LaneKey(long pid, long tid) {
        }
    }
}
