package io.tracegraph.domain.memory;

import io.tracegraph.domain.trace.CodePointOrder;
import io.tracegraph.domain.trace.DeviceMemoryEvent;
import io.tracegraph.domain.trace.ExecutionStep;
import io.tracegraph.domain.trace.MemoryAction;
import io.tracegraph.domain.trace.MemoryCategory;
import io.tracegraph.domain.trace.MemoryEvent;
import io.tracegraph.domain.trace.Saturating;
import io.tracegraph.domain.trace.SpanRecord;
import io.tracegraph.domain.trace.TraceDocument;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The memory analysis of spec 4.2 with decisions D1 (free bytes from device capacity), D3 (live
 * tensors keyed by device and tensor id) and D4 (equal timestamps in file order). From trace/7 on
 * allocations pair by (device, storage id) instead, and an allocation of a storage that is already
 * live is an alias of it (no new bytes, not counted), as candle-graph's logical memory has it; a
 * device's capacity is its observed {@code capacity_bytes} where given. Linear apart from
 * the sort: the live set at the global peak is rebuilt by a second replay instead of being copied
 * at every new peak.
 */
public final class MemoryAnalyzer {
    /** Peak breakdown order: bytes descending, then tensor id, then device. */
    public static final Comparator<LiveAllocation> BREAKDOWN_ORDER = Comparator
            .comparingLong(LiveAllocation::bytes).reversed()
            .thenComparing(LiveAllocation::tensorId, CodePointOrder.COMPARATOR)
            .thenComparing(LiveAllocation::device, CodePointOrder.COMPARATOR);

    private MemoryAnalyzer() {
    }

    public static MemoryAnalysis analyze(TraceDocument doc) {
        if (doc.memory().isEmpty()) {
            return new MemoryAnalysis(MemoryProfile.EMPTY, List.of());
        }
        MemoryEvent[] events = MemoryEvent.inTimeOrder(doc.memory());

        Map<String, Long> capacity = new HashMap<>();
        for (DeviceMemoryEvent checkpoint : doc.deviceMemory()) {
            Long shown = checkpoint.capacity();
            if (shown != null) {
                capacity.merge(checkpoint.device(), shown, Math::max);
            }
        }
        Map<String, ExecutionStep> spanStep = new HashMap<>();
        for (SpanRecord span : doc.spans()) {
            if (span.step() != null) {
                spanStep.put(span.id(), span.step());
            }
        }

        Map<String, DeviceState> devices = new TreeMap<>(CodePointOrder.COMPARATOR);
        Live live = new Live();
        MemoryTimeline timeline = new MemoryTimeline(events.length);
        long allocCount = 0;
        long freeCount = 0;
        long totalAlloc = 0;
        long peak = 0;
        long peakTs = 0;
        String peakDevice = "";
        long[] peakCategories = CategoryBytes.absentArray();
        int peakIndex = -1;
        boolean backwardSeen = false;
        long autogradRetained = 0;

        // The device of the previous record and its state: records come in runs on one device.
        String lastDevice = null;
        DeviceState dev = null;
        for (int i = 0; i < events.length; i++) {
            MemoryEvent e = events[i];
            if (e.device() != lastDevice) {
                lastDevice = e.device();
                dev = devices.computeIfAbsent(lastDevice, d -> new DeviceState(capacity.get(d)));
            }
            // An alias is another tensor id over a live storage (trace/7): no new bytes, no new allocation.
            boolean alias = !apply(e, dev, live);
            if (!alias && e.action() == MemoryAction.ALLOC) {
                allocCount++;
                dev.allocs++;
                totalAlloc = Saturating.add(totalAlloc, e.bytes());
            } else if (!alias) {
                freeCount++;
                dev.frees++;
            }
            Long cap = dev.capacity;
            long freeBytes = cap == null ? 0 : Saturating.sub(cap, dev.live);
            timeline.append(e.timestampNs(), e.device(), dev.live, freeBytes, dev.categories);
            if (dev.live > dev.peak) {
                dev.peak = dev.live;
                dev.peakTs = e.timestampNs();
            }
            if (dev.live > peak) {
                peak = dev.live;
                peakTs = e.timestampNs();
                peakDevice = e.device();
                peakCategories = dev.categories.clone();
                peakIndex = i;
            }
            if (!backwardSeen && spanStep.get(e.spanId()) == ExecutionStep.BACKWARD) {
                backwardSeen = true;
                autogradRetained = Math.max(0, dev.categories[MemoryCategory.ACTIVATION.ordinal()]);
            }
        }

        List<LiveAllocation> retained = live.all();
        List<LiveAllocation> breakdown = peakIndex < 0 ? List.of() : liveAt(events, peakIndex);
        List<DeviceMemory> byDevice = new ArrayList<>(devices.size());
        devices.forEach((name, d) -> byDevice.add(new DeviceMemory(name, capacity.getOrDefault(name, 0L), d.peak,
                d.peakTs, d.allocs, d.frees)));
        MemorySummary summary = new MemorySummary(allocCount, freeCount, totalAlloc, peak, peakTs, peakDevice,
                new CategoryBytes(peakCategories), autogradRetained);
        return new MemoryAnalysis(new MemoryProfile(summary, timeline, breakdown, byDevice), retained);
    }

    /** Replays the sorted records up to and including {@code last}; returns the live set, sorted. */
    private static List<LiveAllocation> liveAt(MemoryEvent[] events, int last) {
        Map<String, DeviceState> devices = new HashMap<>();
        Live live = new Live();
        String lastDevice = null;
        DeviceState dev = null;
        for (int i = 0; i <= last; i++) {
            MemoryEvent e = events[i];
            if (e.device() != lastDevice) {
                lastDevice = e.device();
                dev = devices.computeIfAbsent(lastDevice, d -> new DeviceState(null));
            }
            apply(e, dev, live);
        }
        List<LiveAllocation> result = live.all();
        result.sort(BREAKDOWN_ORDER);
        return result;
    }

    /**
     * Applies one record; {@code false} when it is an alias, which changes nothing: an allocation of
     * a storage that is already live (storage ids only). Looks the storage up once: a new one is
     * entered at once, a live one kept as it is.
     */
    private static boolean apply(MemoryEvent e, DeviceState dev, Live live) {
        Map<String, MemoryEvent> onDevice = live.on(e.device());
        String key = e.pairingKey();
        if (e.action() == MemoryAction.ALLOC) {
            if (e.storageId() != null) {
                if (onDevice.putIfAbsent(key, e) != null) {
                    return false;
                }
            } else {
                onDevice.put(key, e);
            }
            dev.live = Saturating.add(dev.live, e.bytes());
            int c = e.category().ordinal();
            dev.categories[c] = Saturating.add(Math.max(0, dev.categories[c]), e.bytes());
        } else {
            MemoryEvent recorded = onDevice.remove(key);
            if (recorded != null) {
                dev.live = Saturating.sub(dev.live, recorded.bytes());
                int c = recorded.category().ordinal();
                if (dev.categories[c] >= 0) {
                    dev.categories[c] = Saturating.sub(dev.categories[c], recorded.bytes());
                }
            } else {
                dev.live = Saturating.sub(dev.live, e.bytes());
            }
        }
        return true;
    }

    private static final class DeviceState {
        /** The device's capacity as its checkpoints show it, if they do. */
        final Long capacity;
        long live;
        final long[] categories = CategoryBytes.absentArray();
        long peak;
        long peakTs;
        long allocs;
        long frees;

        DeviceState(Long capacity) {
            this.capacity = capacity;
        }
    }

    /** Live allocations by device, then tensor id (decision D3), without a key object per lookup. */
    private static final class Live {
        private final Map<String, Map<String, MemoryEvent>> byDevice = new HashMap<>();
        private String lastDevice;
        private Map<String, MemoryEvent> last;

        /** The allocation records live on one device, by tensor id. */
        Map<String, MemoryEvent> on(String device) {
            if (device != lastDevice) {
                last = byDevice.computeIfAbsent(device, d -> new HashMap<>());
                lastDevice = device;
            }
            return last;
        }

        List<LiveAllocation> all() {
            List<LiveAllocation> all = new ArrayList<>();
            byDevice.values().forEach(m -> m.values().forEach(e -> all.add(LiveAllocation.of(e))));
            return all;
        }
    }
}
