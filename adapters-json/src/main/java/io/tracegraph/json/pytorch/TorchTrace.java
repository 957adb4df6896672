package io.tracegraph.json.pytorch;

import static io.tracegraph.domain.task.Tasks.join;

import java.util.Locale;
import java.util.concurrent.CompletableFuture;

/**
 * A PyTorch profiler trace as read and assembled, before it becomes tracegraph's model: the events,
 * the host tree, who launched each device event and the paired memory events. Package-private: the
 * tests look at it; {@link TorchDocument} maps it.
 */
final class TorchTrace {
    final EventTable events;
    final HostTree tree;
    final DeviceLaunches launches;
    final MemoryPairing memory;
    final Findings findings;
    /** The device prefix of GPU events: {@code cuda}, {@code hip}, {@code mtia}, {@code xpu}, ... */
    final String platform;

    private TorchTrace(EventTable events, HostTree tree, DeviceLaunches launches, MemoryPairing memory,
            Findings findings, String platform) {
        this.events = events;
        this.tree = tree;
        this.launches = launches;
        this.memory = memory;
        this.findings = findings;
        this.platform = platform;
    }

    static TorchTrace assemble(EventTable events) {
        // The memory events are columns of their own: paired on another core while the host tree is
        // built, with findings of their own, added after the tree's as when they ran one after the other.
        Findings memoryFindings = new Findings();
        CompletableFuture<MemoryPairing> pairing = CompletableFuture.supplyAsync(
                () -> MemoryPairing.of(events, memoryFindings));
        // The keys launches are found by need the events only: gathered beside the tree as well.
        CompletableFuture<DeviceLaunches.Keys> launchKeys = CompletableFuture.supplyAsync(
                () -> DeviceLaunches.Keys.of(events));
        Findings findings = new Findings();
        HostTree tree = HostTree.build(events, findings);
        DeviceLaunches launches = DeviceLaunches.of(events, tree, join(launchKeys));
        if (launches.unlaunched > 0) {
            findings.warn("unlaunched_device_events", "%d device events have no host launch in the trace (the "
                    + "first: %s); their device time counts at the root", launches.firstUnlaunched,
                    launches.unlaunched);
        }
        // What only the nesting and the launches needed: a few hundred MB less for a 1 GB trace.
        events.pythonId = null;
        events.pythonParent = null;
        events.externalId = null;
        events.correlation = null;
        tree.firstPiece = null;
        MemoryPairing memory = join(pairing);
        findings.addAll(memoryFindings);
        if (events.outOfMemoryEvents > 0) {
            findings.warn("out_of_memory", "the profiler recorded %d out-of-memory events%s", "",
                    events.outOfMemoryEvents);
        }
        if (events.durationPairEvents > 0) {
            findings.warn("duration_events_ignored", "%d begin/end (`B`/`E`) events are not read%s", "",
                    events.durationPairEvents);
        }
        return new TorchTrace(events, tree, launches, memory, findings, platform(events));
    }

    /** The GPU platform, from the runtime's names and the trace's version members. */
    private static String platform(EventTable t) {
        if (t.header.containsKey("roctracer_version") || t.header.containsKey("hip_runtime_version")
                || t.header.containsKey("hip_driver_version")) {
            return "hip";
        }
        boolean hipNames = false;
        for (int r = 0; r < t.size; r++) {
            if (t.kind[r] == EventKind.RUNTIME) {
                String name = t.names.get(t.name[r]);
                if (name.startsWith("hip")) {
                    hipNames = true;
                    break;
                }
                if (name.startsWith("cuda") || name.startsWith("cu")) {
                    break;
                }
            }
        }
        if (hipNames) {
            return "hip";
        }
        for (String key : t.header.keySet()) {
            String k = key.toLowerCase(Locale.ROOT);
            if (k.startsWith("mtia")) {
                return "mtia";
            }
            if (k.startsWith("xpu")) {
                return "xpu";
            }
        }
        return "cuda";
    }

    /** The device a device event ran on, as {@code torch.device} spells it ({@code cuda:0}). */
    String deviceOf(int row) {
        return deviceName(events.device[row]);
    }

    /** The GPU of that index ({@code cuda:1}); an unknown index is device 0. */
    String deviceName(int index) {
        return platform + ":" + Math.max(0, index);
    }
}
