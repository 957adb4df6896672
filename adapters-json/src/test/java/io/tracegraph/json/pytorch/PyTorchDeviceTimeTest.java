package io.tracegraph.json.pytorch;

import static io.tracegraph.json.pytorch.TorchTraces.graph;
import static io.tracegraph.json.pytorch.TorchTraces.node;
import static io.tracegraph.json.pytorch.TorchTraces.read;
import static io.tracegraph.json.pytorch.TorchTraces.trace;
import static io.tracegraph.json.pytorch.TorchTraces.x;
import static org.assertj.core.api.Assertions.assertThat;

import io.tracegraph.domain.graph.DeviceTime;
import io.tracegraph.domain.graph.ExecutionGraph;
import io.tracegraph.domain.graph.GraphBuilder;
import io.tracegraph.domain.health.HealthIssue;
import io.tracegraph.domain.trace.DeviceInterval;
import io.tracegraph.domain.trace.TraceDocument;
import org.junit.jupiter.api.Test;

/** Device events count at the host node that launched them, per device, not as host time. */
class PyTorchDeviceTimeTest {
    private static final String STEP = x("user_annotation", "ProfilerStep#1", 1, 1, 0, 100, "");
    private static final String LINEAR = x("cpu_op", "aten::linear", 1, 1, 10, 50, "\"External id\": 3");
    private static final String ADDMM = x("cpu_op", "aten::addmm", 1, 1, 11, 20, "\"External id\": 4");
    private static final String LAUNCH = x("cuda_runtime", "cudaLaunchKernel", 1, 1, 12, 5, "\"correlation\": 41");

    @Test
    void aKernelCountsAtTheLeafOpThatLaunchedItAndAtItsAncestorsNotAsHostTime() {
        ExecutionGraph g = graph(trace(STEP, LINEAR, ADDMM, LAUNCH,
                x("kernel", "gemm", 0, 7, 40, 30, "\"correlation\": 41, \"External id\": 4, \"device\": 0, \"stream\": 7")));
        assertThat(node(g, "aten::addmm").deviceTimes()).containsExactly(new DeviceTime("cuda:0", 30_000, 30_000));
        assertThat(node(g, "aten::linear").deviceTimes()).containsExactly(new DeviceTime("cuda:0", 0, 30_000));
        assertThat(node(g, "torch.profiler").deviceTimes()).containsExactly(new DeviceTime("cuda:0", 0, 30_000));
        assertThat(node(g, "aten::addmm").totalTimeNs()).isEqualTo(20_000);
        assertThat(node(g, "torch.profiler").totalTimeNs()).isEqualTo(100_000);
    }

    @Test
    void aKernelLaunchedBelowAnOpThatIsASpanCountsAtTheOpNotAtTheRuntimeCall() {
        ExecutionGraph g = graph(trace(STEP, LINEAR, ADDMM,
                x("cpu_op", "aten::empty", 1, 1, 11.5, 0.4, "\"External id\": 5"),
                x("cuda_driver", "cuLaunchKernel", 1, 1, 12, 5, "\"correlation\": 41"),
                x("kernel", "gemm", 0, 7, 40, 30, "\"correlation\": 41, \"device\": 0, \"stream\": 7")));
        assertThat(node(g, "cuLaunchKernel").deviceTimes()).isEmpty();
        assertThat(node(g, "aten::addmm").deviceTimes()).containsExactly(new DeviceTime("cuda:0", 30_000, 30_000));
        assertThat(node(g, "aten::linear").deviceTimes()).containsExactly(new DeviceTime("cuda:0", 0, 30_000));
    }

    @Test
    void theLaunchFlowFindsTheLauncherWhenTheKernelHasNoCorrelation() {
        ExecutionGraph g = graph(trace(STEP, LINEAR, ADDMM, LAUNCH,
                "{\"ph\": \"s\", \"id\": 41, \"pid\": 1, \"tid\": 1, \"ts\": 12, \"cat\": \"ac2g\", \"name\": \"ac2g\"}",
                "{\"ph\": \"f\", \"id\": 41, \"pid\": 0, \"tid\": 7, \"ts\": 40, \"cat\": \"ac2g\", \"name\": \"ac2g\", \"bp\": \"e\"}",
                x("kernel", "gemm", 0, 7, 40, 30, "\"device\": 0")));
        assertThat(node(g, "aten::addmm").deviceTimes()).containsExactly(new DeviceTime("cuda:0", 30_000, 30_000));
    }

    @Test
    void theExternalIdFindsTheOpWhenNeitherCorrelationNorFlowDoes() {
        ExecutionGraph g = graph(trace(STEP, LINEAR, ADDMM,
                x("kernel", "gemm", 0, 7, 40, 30, "\"External id\": 4, \"device\": 0")));
        assertThat(node(g, "aten::addmm").deviceTimes()).containsExactly(new DeviceTime("cuda:0", 30_000, 30_000));
    }

    @Test
    void aDeviceEventWithoutALauncherCountsAtTheRootWithAWarning() {
        TraceDocument doc = read(trace(STEP, x("gpu_memcpy", "Memcpy HtoD", 0, 7, 40, 30, "\"device\": 1")));
        assertThat(doc.deviceIntervals()).extracting(DeviceInterval::spanId).containsExactly(doc.spans().get(0).id());
        assertThat(GraphBuilder.build(doc).health().issues()).extracting(HealthIssue::code)
                .contains("unlaunched_device_events");
        ExecutionGraph g = graph(trace(STEP, x("gpu_memcpy", "Memcpy HtoD", 0, 7, 40, 30, "\"device\": 1")));
        assertThat(node(g, "torch.profiler").deviceTimes()).containsExactly(new DeviceTime("cuda:1", 30_000, 30_000));
    }

    @Test
    void overlappingWorkOfOneNodeCountsEachTimeAndDevicesApart() {
        ExecutionGraph g = graph(trace(STEP, ADDMM, LAUNCH,
                x("cuda_runtime", "cudaLaunchKernel", 1, 1, 20, 5, "\"correlation\": 42"),
                x("cuda_runtime", "cudaLaunchKernel", 1, 1, 26, 2, "\"correlation\": 43"),
                x("kernel", "a", 0, 7, 40, 30, "\"correlation\": 41, \"device\": 0, \"stream\": 7"),
                x("kernel", "b", 0, 20, 50, 30, "\"correlation\": 42, \"device\": 0, \"stream\": 20"),
                x("kernel", "c", 1, 7, 50, 5, "\"correlation\": 43, \"device\": 1, \"stream\": 7")));
        assertThat(node(g, "aten::addmm").deviceTimes()).containsExactly(new DeviceTime("cuda:0", 60_000, 60_000),
                new DeviceTime("cuda:1", 5_000, 5_000));
    }

    @Test
    void aGpuOnlyTraceHasAllItsDeviceTimeAtTheRootWhichSpansTheDeviceEvents() {
        ExecutionGraph g = graph(trace(x("kernel", "a", 0, 7, 10, 30, "\"device\": 0"),
                x("kernel", "b", 0, 7, 50, 10, "\"device\": 0")));
        assertThat(g.spans()).hasSize(1);
        assertThat(g.spans().get(0).deviceTimes()).containsExactly(new DeviceTime("cuda:0", 40_000, 40_000));
        assertThat(g.spans().get(0).totalTimeNs()).isEqualTo(50_000);
    }

    @Test
    void hipTracesNameTheirDevicesHipAndTheOldLayoutReadsToo() {
        ExecutionGraph hip = graph(trace(STEP, ADDMM,
                x("cuda_runtime", "hipExtModuleLaunchKernel", 1, 1, 12, 5, "\"correlation\": 41"),
                x("kernel", "gemm", 2, 0, 40, 30, "\"correlation\": 41, \"device\": 2")));
        assertThat(node(hip, "aten::addmm").deviceTimes()).containsExactly(new DeviceTime("hip:2", 30_000, 30_000));
        ExecutionGraph old = graph(trace(x("Operator", "aten::conv2d", 1, "1", 10, 20, ""),
                x("Runtime", "cudaLaunchKernel", 1, "1", 12, 5, "\"correlation\": 7, \"external id\": 9"),
                x("Kernel", "implicit_gemm", 0, "stream 7", 40, 30, "\"correlation\": 7, \"device\": 0")));
        assertThat(node(old, "aten::conv2d").deviceTimes()).containsExactly(new DeviceTime("cuda:0", 30_000, 30_000));
    }
}
