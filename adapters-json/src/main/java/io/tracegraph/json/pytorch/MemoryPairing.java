package io.tracegraph.json.pytorch;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code [memory]} events as allocations and frees, paired per device: by {@code Addr} where
 * the trace has it (an address allocated again while live is a new allocation of its own, and a
 * free takes the latest), else by size (a free takes the latest live allocation of its size).
 *
 * <p>What was allocated before the first event is the device's baseline, so that replaying the
 * events gives the profiler's own {@code Total Allocated} after each one: with that counter, the
 * baseline is its first value less that event's bytes; without it, it is what the trace frees
 * without having allocated it. The baseline becomes allocations at the device's first event,
 * first in the list: one per address freed without an allocation in the trace (its size), and
 * one {@code baseline} allocation for the rest.
 */
final class MemoryPairing {
    /** One allocation or free, in time order (file order on equal times). */
    record Event(long ts, int device, long bytes, boolean alloc, String key, int memRow) {
    }

    final List<Event> events = new ArrayList<>();
    /** Per memory device: the baseline, the peak of Total Allocated (or -1 without it). */
    final long[] baseline;
    final long[] counterPeak;

    private MemoryPairing(int devices) {
        baseline = new long[devices];
        counterPeak = new long[devices];
        Arrays.fill(counterPeak, -1);
    }

    static MemoryPairing of(EventTable t, Findings findings) {
        int devices = t.memoryDevices.size();
        MemoryPairing m = new MemoryPairing(devices);
        if (t.memSize == 0) {
            return m;
        }
        Integer[] order = new Integer[t.memSize];
        for (int i = 0; i < t.memSize; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> {
            int c = Long.compare(t.memTs[a], t.memTs[b]);
            return c != 0 ? c : Integer.compare(a, b);
        });
        List<List<Event>> byDevice = new ArrayList<>();
        List<List<Event>> before = new ArrayList<>();
        long[] firstTs = new long[devices];
        long[] firstCounter = new long[devices];
        long[] firstBytes = new long[devices];
        boolean[] seen = new boolean[devices];
        long[] sum = new long[devices];
        long[] minSum = new long[devices];
        long[] freedUnseen = new long[devices];
        List<Map<Long, ArrayDeque<Event>>> live = new ArrayList<>();
        List<Map<Long, ArrayDeque<Event>>> liveBySize = new ArrayList<>();
        int[] generation = new int[devices];
        for (int d = 0; d < devices; d++) {
            byDevice.add(new ArrayList<>());
            before.add(new ArrayList<>());
            live.add(new HashMap<>());
            liveBySize.add(new HashMap<>());
        }
        long mismatchedCounters = 0;
        String firstMismatch = null;
        long sizeMismatches = 0;
        for (int i : order) {
            int d = t.memDevice[i];
            long bytes = t.memBytes[i];
            long addr = t.memAddr[i];
            long ts = t.memTs[i];
            if (!seen[d]) {
                seen[d] = true;
                firstTs[d] = ts;
                firstCounter[d] = t.memTotal[i];
                firstBytes[d] = bytes;
            }
            sum[d] += bytes;
            minSum[d] = Math.min(minSum[d], sum[d]);
            long size = Math.abs(bytes);
            boolean byAddress = addr != EventTable.ABSENT;
            Map<Long, ArrayDeque<Event>> keyed = byAddress ? live.get(d) : liveBySize.get(d);
            long key = byAddress ? addr : size;
            if (bytes > 0) {
                String name = byAddress ? address(addr, generation[d]++) : "alloc#" + i;
                Event alloc = new Event(ts, d, size, true, name, i);
                keyed.computeIfAbsent(key, k -> new ArrayDeque<>(2)).push(alloc);
                byDevice.get(d).add(alloc);
            } else {
                ArrayDeque<Event> stack = keyed.get(key);
                Event alloc = stack == null ? null : stack.poll();
                if (stack != null && stack.isEmpty()) {
                    keyed.remove(key);
                }
                String name;
                if (alloc == null) {
                    // Freed without an allocation in the trace: it was allocated before.
                    name = (byAddress ? address(addr, -1) + "#before" : "before") + "#" + i;
                    before.get(d).add(new Event(0, d, size, true, name, -1));
                    freedUnseen[d] += size;
                } else {
                    name = alloc.key;
                    if (alloc.bytes != size) {
                        sizeMismatches++;
                    }
                }
                byDevice.get(d).add(new Event(ts, d, size, false, name, i));
            }
        }
        for (int d = 0; d < devices; d++) {
            if (!seen[d]) {
                continue;
            }
            long base;
            if (firstCounter[d] != EventTable.ABSENT) {
                base = firstCounter[d] - firstBytes[d];
                if (base < freedUnseen[d]) {
                    findings.warn("memory_baseline_inconsistent", "%d devices free more memory allocated before "
                            + "the trace than their `Total Allocated` counter says was allocated (the first: %s)",
                            deviceName(t, d));
                    base = freedUnseen[d];
                }
            } else {
                base = Math.max(freedUnseen[d], -minSum[d]);
            }
            m.baseline[d] = base;
            // Replay against the counter.
            long current = base;
            long peak = -1;
            for (Event e : byDevice.get(d)) {
                current += e.alloc ? e.bytes : -e.bytes;
                long counter = t.memTotal[e.memRow];
                if (counter != EventTable.ABSENT) {
                    peak = Math.max(peak, counter);
                    if (counter != current) {
                        mismatchedCounters++;
                        if (firstMismatch == null) {
                            firstMismatch = deviceName(t, d) + " at " + e.ts + " ns: replayed " + current
                                    + " B, counter " + counter + " B";
                        }
                    }
                }
            }
            m.counterPeak[d] = peak;
            long rest = base - freedUnseen[d];
            List<Event> at = new ArrayList<>();
            for (Event e : before.get(d)) {
                at.add(new Event(firstTs[d], d, e.bytes, true, e.key, -1));
            }
            if (rest > 0) {
                at.add(new Event(firstTs[d], d, rest, true, "baseline", -1));
            }
            byDevice.get(d).addAll(0, at);
        }
        if (mismatchedCounters > 0) {
            findings.warn("memory_counter_mismatch", "%d memory events leave a replayed total other than the "
                    + "profiler's `Total Allocated` (the first: %s)", firstMismatch, mismatchedCounters);
        }
        if (sizeMismatches > 0) {
            findings.warn("memory_size_mismatch", "%d frees name another size than their allocation%s",
                    "", sizeMismatches);
        }
        // Merge the devices back into one time order (a device's baseline first at its first time).
        List<Event> merged = new ArrayList<>();
        for (List<Event> list : byDevice) {
            merged.addAll(list);
        }
        merged.sort((a, b) -> {
            int c = Long.compare(a.ts, b.ts);
            if (c != 0) {
                return c;
            }
            int ra = a.memRow < 0 ? -1 : a.memRow;
            int rb = b.memRow < 0 ? -1 : b.memRow;
            return Integer.compare(ra, rb);
        });
        m.events.addAll(merged);
        return m;
    }

    private static String address(long addr, int generation) {
        return "0x" + Long.toHexString(addr) + (generation < 0 ? "" : "#" + generation);
    }

    static String deviceName(EventTable t, int memoryDevice) {
        long[] d = t.memoryDevices.get(memoryDevice);
        return deviceTypeName(d[0]) + (d[0] == 0 ? "" : ":" + Math.max(0, d[1]));
    }

    /** c10's DeviceType, as {@code torch.device} spells it. */
    static String deviceTypeName(long type) {
        switch ((int) type) {
            case 0: return "cpu";
            case 1: return "cuda";
            case 2: return "mkldnn";
            case 3: return "opengl";
            case 4: return "opencl";
            case 5: return "ideep";
            case 6: return "hip";
            case 7: return "fpga";
            case 8: return "maia";
            case 9: return "xla";
            case 10: return "vulkan";
            case 11: return "metal";
            case 12: return "xpu";
            case 13: return "mps";
            case 14: return "meta";
            case 15: return "hpu";
            case 16: return "ve";
            case 17: return "lazy";
            case 18: return "ipu";
            case 19: return "mtia";
            case 20: return "privateuseone";
            default: return type < 0 ? "unknown" : "device" + type;
        }
    }
}
