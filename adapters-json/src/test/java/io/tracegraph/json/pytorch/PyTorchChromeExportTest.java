package io.tracegraph.json.pytorch;

import static io.tracegraph.json.pytorch.TorchTraces.graph;
import static io.tracegraph.json.pytorch.TorchTraces.trace;
import static io.tracegraph.json.pytorch.TorchTraces.x;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tracegraph.domain.graph.DeviceTime;
import io.tracegraph.domain.graph.ExecutionGraph;
import io.tracegraph.domain.graph.GraphNode;
import io.tracegraph.domain.graph.TimeBasis;
import io.tracegraph.json.ChromeTraceEvents;
import io.tracegraph.json.ChromeTraceWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code export --time device}: the host tracks as on host time, and one device track per device beside them. */
class PyTorchChromeExportTest {
    private static final ExecutionGraph TWO_DEVICES = graph(trace(
            x("user_annotation", "ProfilerStep#1", 1, 1, 0, 100, ""),
            x("cpu_op", "aten::linear", 1, 1, 10, 50, "\"External id\": 3"),
            x("cpu_op", "aten::addmm", 1, 1, 11, 20, "\"External id\": 4"),
            x("cuda_runtime", "cudaLaunchKernel", 1, 1, 12, 5, "\"correlation\": 41"),
            x("cpu_op", "aten::relu", 1, 1, 40, 10, "\"External id\": 5"),
            x("cuda_runtime", "cudaLaunchKernel", 1, 1, 41, 2, "\"correlation\": 42"),
            x("cuda_runtime", "cudaLaunchKernel", 1, 1, 44, 2, "\"correlation\": 43"),
            x("kernel", "gemm", 0, 7, 40, 30, "\"correlation\": 41, \"device\": 0, \"stream\": 7"),
            x("kernel", "relu", 0, 7, 80, 4, "\"correlation\": 42, \"device\": 0, \"stream\": 7"),
            x("kernel", "relu", 1, 7, 80, 6, "\"correlation\": 43, \"device\": 1, \"stream\": 7")));

    private static byte[] export(ExecutionGraph graph, TimeBasis time) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ChromeTraceWriter.write(graph, "run", time, out);
        return out.toByteArray();
    }

    @Test
    void onHostTimeTheExportIsTheOneWithoutATimeAndHasNoDeviceMembers() throws IOException {
        ByteArrayOutputStream plain = new ByteArrayOutputStream();
        ChromeTraceWriter.write(TWO_DEVICES, "run", plain);
        assertThat(export(TWO_DEVICES, TimeBasis.HOST)).isEqualTo(plain.toByteArray());
        ChromeTraceEvents host = ChromeTraceEvents.parse(plain.toByteArray());
        assertThat(host.threadNames().values()).noneMatch(name -> name.startsWith("device "));
        assertThat(host.events("X")).allSatisfy(e -> assertThat(e.get("args").has("device_total_time_ns")).isFalse());
    }

    @Test
    void onDeviceTimeEachDeviceHasATrackBesideTheHostTracksWhoseEventsLastTheirDeviceTime() throws IOException {
        ChromeTraceEvents host = ChromeTraceEvents.parse(export(TWO_DEVICES, TimeBasis.HOST));
        ChromeTraceEvents device = ChromeTraceEvents.parse(export(TWO_DEVICES, TimeBasis.DEVICE));
        device.assertWellFormed();
        List<String> names = new ArrayList<>(device.threadNames().values());
        int hostTracks = host.threadNames().size();
        assertThat(names.subList(0, hostTracks)).isEqualTo(new ArrayList<>(host.threadNames().values()));
        assertThat(names.subList(hostTracks, names.size())).containsExactly("device cuda:0", "device cuda:1");
        assertThat(device.root().get("otherData").get("time").asText()).isEqualTo("device");

        Map<String, GraphNode> byId = new HashMap<>();
        TWO_DEVICES.spans().forEach(n -> byId.put(n.id(), n));
        Map<Integer, String> tracks = device.threadNames();
        int hostEvents = 0;
        Map<String, Long> trackSelf = new HashMap<>();
        for (JsonNode e : device.events("X")) {
            GraphNode node = byId.get(e.get("args").get("id").asText());
            String track = tracks.get(e.get("tid").asInt());
            if (!track.startsWith("device ")) {
                hostEvents++;
                assertThat(ChromeTraceEvents.nanos(e.get("dur"))).isEqualTo(node.totalTimeNs());
                continue;
            }
            String on = track.substring("device ".length());
            DeviceTime t = node.deviceTimes().stream().filter(d -> d.device().equals(on)).findFirst().orElseThrow();
            assertThat(ChromeTraceEvents.nanos(e.get("dur"))).isEqualTo(t.totalTimeNs());
            assertThat(e.get("args").get("device_total_time_ns").asLong()).isEqualTo(node.deviceTotalTimeNs());
            trackSelf.merge(on, t.selfTimeNs(), Long::sum);
        }
        assertThat(hostEvents).isEqualTo(TWO_DEVICES.spans().size());
        // Kernels summed per device: gemm 30 µs + relu 4 µs on cuda:0, relu 6 µs on cuda:1.
        assertThat(trackSelf).containsEntry("cuda:0", 34_000L).containsEntry("cuda:1", 6_000L);
    }

    @Test
    void aRealTraceExportsOnDeviceTimeWellFormed() throws IOException {
        ExecutionGraph graph = PyTorchRealTracesTest.build(PyTorchRealTracesTest.DIR.resolve(
                "tracelens-h100-bert-small.json.gz"));
        ChromeTraceEvents device = ChromeTraceEvents.parse(export(graph, TimeBasis.DEVICE));
        long withDeviceTime = graph.spans().stream().filter(GraphNode::hasDeviceTime).count();
        assertThat(device.assertWellFormed()).isGreaterThanOrEqualTo(graph.spans().size() + (int) withDeviceTime);
    }
}
