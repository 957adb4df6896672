package io.tracegraph.cli.render;

import static org.assertj.core.api.Assertions.assertThat;

import io.tracegraph.domain.graph.DeviceSpanCost;
import io.tracegraph.domain.graph.DeviceTime;
import io.tracegraph.domain.graph.DeviceTimeSummary;
import io.tracegraph.domain.graph.GraphSummary;
import io.tracegraph.domain.graph.HeavySpan;
import io.tracegraph.domain.graph.SlowSpan;
import io.tracegraph.domain.health.Coverage;
import io.tracegraph.domain.health.HealthIssue;
import io.tracegraph.domain.health.HealthSeverity;
import io.tracegraph.domain.health.TraceHealth;
import io.tracegraph.domain.memory.CategoryBytes;
import io.tracegraph.domain.memory.DeviceMemory;
import io.tracegraph.domain.memory.MemorySummary;
import io.tracegraph.domain.run.RunRef;
import io.tracegraph.domain.run.RunSummary;
import io.tracegraph.domain.run.StoredRun;
import io.tracegraph.domain.trace.ExecutionPhase;
import io.tracegraph.domain.trace.MemoryCategory;
import io.tracegraph.domain.trace.RunMeta;
import io.tracegraph.domain.trace.TimingMode;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunSummaryTextTest {
    private static RunSummary summary() {
        RunMeta meta = new RunMeta("run-7f3a", "ci/update-7", "tinygpt::train::update", ExecutionPhase.TRAIN,
                "2026-11-29T12:00:00Z", 3, 1, "cuda:0", TimingMode.DEVICE_SYNCHRONIZED, Map.of("commit", "abc123"),
                "0.8.0");
        StoredRun stored = new StoredRun(new RunRef(1, "run-7f3a"), meta, Instant.parse("2026-11-29T12:00:00Z"),
                Instant.parse("2026-11-30T08:15:00Z"), "examples/train_small.jsonl", "0".repeat(64), 12_345,
                "candle-graph/trace/6", "candle-graph/graph/3", 1234, 2345);
        MemorySummary memory = new MemorySummary(40, 38, 300_000_000, 208_920_576, 12_300_000, "cuda:0",
                CategoryBytes.of(Map.of(MemoryCategory.ACTIVATION, 150_000_000L, MemoryCategory.PARAMETER, 58_920_576L)),
                12L << 20);
        GraphSummary graph = new GraphSummary("tinygpt::train::update", 45.678901, List.of(
                new SlowSpan("s12", "Attention::forward", 12_345_678), new SlowSpan("s3", "Mlp::forward", 812_000)),
                List.of(new HeavySpan("s12", "Attention::forward", 150_000_000, 150_000_000)), memory);
        TraceHealth health = new TraceHealth(true, List.of(new HealthIssue(HealthSeverity.WARNING, "capture_gap",
                "2 spans have no end")), new Coverage(10, 8, 1, 1, 20, 5, 40, 0, 2, 30, 3, 3, 1));
        return new RunSummary(stored, health, graph, List.of(new DeviceMemory("cuda:0", 8L << 30, 208_920_576,
                12_300_000, 40, 38)));
    }

    @Test
    void readsLikeASummaryAPersonWrites() {
        String text = RunSummaryText.render(summary(), Screen.terminal(120));
        assertThat(text).startsWith("Run:          run-7f3a\n"
                + "Ran:          tinygpt::train::update (train) on cuda:0\n"
                + "Captured:     2026-11-29T12:00:00Z, step 3, device synchronized timing\n"
                + "Took:         45.7 ms measured\n"
                + "Memory peak:  199 MiB on cuda:0 at 12.3 ms (activation 143 MiB, parameter 56.2 MiB); autograd "
                + "retains 12 MiB\n"
                + "Health:       trusted, 1 warning\n"
                + "Tags:         commit=abc123\n"
                + "Stored:       1234 nodes, 2345 edges from examples/train_small.jsonl, imported 2026-11-30T08:15:00Z\n"
                + "  capture_gap: 2 spans have no end\n");
        assertThat(text).contains("Slowest spans (self time)\n", "12.3 ms  Attention::forward", "812 µs  Mlp::forward",
                "Heaviest spans (bytes)\n", "143 MiB  143 MiB  Attention::forward");
    }

    @Test
    void fitsEveryWidth() {
        for (int width : new int[] {40, 80, 120, 200}) {
            for (String line : RunSummaryText.render(summary(), Screen.terminal(width)).split("\n", -1)) {
                assertThat(TextWidth.of(line)).as("%d: %s", width, line).isLessThanOrEqualTo(width);
            }
        }
    }

    @Test
    void aRunWithDeviceTimeShowsItBesideTheHostTime() {
        DeviceTimeSummary device = new DeviceTimeSummary(List.of(new DeviceTime("cuda:0", 0, 1_230_000),
                new DeviceTime("cuda:1", 0, 1_100_000)), List.of(new DeviceSpanCost("s12/op/0", "matmul", "cuda:0",
                900_000)));
        String text = RunSummaryText.render(summary(), device, Screen.terminal(120));
        assertThat(text).contains("Took:         45.7 ms measured\n"
                + "Device time:  1.23 ms on cuda:0, 1.1 ms on cuda:1\n");
        assertThat(text).contains("Slowest on device (device self time)\n", "900 µs  matmul");
        assertThat(RunSummaryText.render(summary(), DeviceTimeSummary.NONE, Screen.terminal(120)))
                .isEqualTo(RunSummaryText.render(summary(), Screen.terminal(120))).doesNotContain("Device");

        Report report = RunReports.show(summary(), device);
        assertThat(report.facts().get("device_time_ms")).isEqualTo(2.33);
        assertThat(report.tables()).extracting(Table::name).endsWith("device_time", "slowest_on_device");
        assertThat(RunReports.show(summary(), DeviceTimeSummary.NONE)).isEqualTo(RunReports.show(summary()));
        assertThat(RunReports.show(summary()).facts()).doesNotContainKey("device_time_ms");
    }
}
