package io.tracegraph.json.pytorch;

import static io.tracegraph.json.pytorch.TorchTraces.graph;
import static io.tracegraph.json.pytorch.TorchTraces.memory;
import static io.tracegraph.json.pytorch.TorchTraces.read;
import static io.tracegraph.json.pytorch.TorchTraces.trace;
import static io.tracegraph.json.pytorch.TorchTraces.x;
import static org.assertj.core.api.Assertions.assertThat;

import io.tracegraph.domain.graph.ExecutionGraph;
import io.tracegraph.domain.graph.GraphBuilder;
import io.tracegraph.domain.health.HealthIssue;
import io.tracegraph.domain.memory.DeviceMemory;
import io.tracegraph.domain.memory.LiveAllocation;
import io.tracegraph.domain.trace.TraceDocument;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code [memory]} events: pairing, the allocator's baseline, the peak as the profiler reports it. */
class PyTorchMemoryTest {
    private static String alloc(double ts, long addr, long bytes, long total) {
        return memory(1, 1, ts, "\"Bytes\": " + bytes + ", \"Addr\": " + addr + ", \"Total Allocated\": " + total
                + ", \"Device Type\": 1, \"Device Id\": 0");
    }

    private static DeviceMemory device(ExecutionGraph g, String name) {
        return g.memory().byDevice().stream().filter(d -> d.device().equals(name)).findFirst().orElseThrow();
    }

    private static List<String> codes(TraceDocument doc) {
        return GraphBuilder.build(doc).health().issues().stream().map(HealthIssue::code).toList();
    }

    @Test
    void thePeakIsTheProfilersTotalAllocatedBaselineIncluded() {
        ExecutionGraph g = graph(trace(
                x("cpu_op", "aten::empty", 1, 1, 10, 5, ""),
                alloc(11, 0x100, 512, 1512),
                alloc(20, 0x200, 1024, 2536),
                alloc(30, 0x100, -512, 2024),
                alloc(40, 0x200, -1024, 1000)));
        DeviceMemory cuda = device(g, "cuda:0");
        assertThat(cuda.peakBytes()).isEqualTo(2536);
        assertThat(g.memory().summary().peakBytes()).isEqualTo(2536);
        assertThat(g.memory().peakBreakdown()).extracting(LiveAllocation::tensorId, LiveAllocation::bytes)
                .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("baseline", 1000L),
                        org.assertj.core.groups.Tuple.tuple("0x100#0", 512L),
                        org.assertj.core.groups.Tuple.tuple("0x200#1", 1024L));
    }

    @Test
    void anAllocationIsAttributedToTheOpRunningOnItsThread() {
        ExecutionGraph g = graph(trace(
                x("python_function", "nn.Module: Linear_0", 1, 1, 0, 50, "\"Python id\": 1"),
                x("cpu_op", "aten::empty", 1, 1, 10, 5, ""),
                alloc(11, 0x100, 512, 512)));
        LiveAllocation a = g.memory().peakBreakdown().get(0);
        assertThat(a.opName()).isEqualTo("aten::empty");
        assertThat(g.spans().stream().filter(n -> n.id().equals(a.spanId())).findFirst().orElseThrow().name())
                .isEqualTo("nn.Module: Linear_0");
        assertThat(TorchTraces.node(g, "aten::empty").storageBytes()).isEqualTo(512);
    }

    @Test
    void freeingWhatWasAllocatedBeforeTheTraceIsPartOfTheBaselineNotAnError() {
        TraceDocument doc = read(trace(
                alloc(10, 0x900, -4096, 6000),
                alloc(20, 0x100, 512, 6512)));
        assertThat(codes(doc)).doesNotContain("unpaired_free", "duplicate_allocation");
        ExecutionGraph g = graph(trace(alloc(10, 0x900, -4096, 6000), alloc(20, 0x100, 512, 6512)));
        assertThat(device(g, "cuda:0").peakBytes()).isEqualTo(10096);
    }

    @Test
    void anAddressAllocatedAgainWhileLiveIsANewAllocationAndTheLastIsFreedFirst() {
        TraceDocument doc = read(trace(
                alloc(10, 0x100, 512, 512),
                alloc(20, 0x100, 256, 768),
                alloc(30, 0x100, -256, 512)));
        assertThat(codes(doc)).doesNotContain("duplicate_allocation", "memory_counter_mismatch",
                "memory_size_mismatch");
    }

    @Test
    void withoutAddressesFreesPairByTheirSizeAndTheBaselineIsWhatWasFreedUnseen() {
        String cpu = "\"Device Type\": 0, \"Device Id\": -1";
        ExecutionGraph g = graph(trace(
                memory(1, 1, 10, "\"Bytes\": -100, " + cpu),
                memory(1, 1, 20, "\"Bytes\": 64, " + cpu),
                memory(1, 1, 30, "\"Bytes\": 32, " + cpu),
                memory(1, 1, 40, "\"Bytes\": -64, " + cpu),
                memory(1, 1, 50, "\"Bytes\": 128, " + cpu)));
        // 100 freed unseen: the baseline; then 0, 64, 96, 32 (the 64 freed), 160.
        assertThat(device(g, "cpu").peakBytes()).isEqualTo(160);
        assertThat(g.memory().peakBreakdown()).extracting(LiveAllocation::bytes).containsExactly(128L, 32L);
        assertThat(g.memory().summary().allocCount()).isEqualTo(4);
    }

    @Test
    void aReplayThatDisagreesWithTheCounterIsAWarning() {
        TraceDocument doc = read(trace(alloc(10, 0x100, 512, 512), alloc(20, 0x200, 512, 4096)));
        assertThat(codes(doc)).contains("memory_counter_mismatch");
        assertThat(GraphBuilder.build(doc).health().trusted()).isTrue();
    }

    @Test
    void aTraceWithoutMemoryEventsWarnsThatNoneWereCaptured() {
        assertThat(codes(read(trace(x("cpu_op", "aten::add", 1, 1, 0, 1, ""))))).contains("memory_absent")
                .doesNotContain("tensors_absent", "device_memory_absent", "gradients_absent");
    }
}
