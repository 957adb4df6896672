package io.tracegraph.json.pytorch;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tracegraph.domain.graph.DeviceTime;
import io.tracegraph.domain.graph.ExecutionGraph;
import io.tracegraph.domain.graph.GraphBuilder;
import io.tracegraph.domain.graph.GraphNode;
import io.tracegraph.domain.graph.GraphOutcome;
import io.tracegraph.domain.memory.DeviceMemory;
import io.tracegraph.domain.trace.TraceDocument;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every real trace of {@code src/test/resources/pytorch} builds to a trusted graph whose figures
 * agree with figures computed here from the JSON itself, with Jackson's tree and a few lines that
 * share nothing with the reader: per device, the memory peak is the peak of the profiler's
 * {@code Total Allocated}; the device time summed over the graph is the summed duration of the
 * kernels, memcpys and memsets; the root's total time is the time the host events span.
 */
class PyTorchRealTracesTest {
    static final Path DIR = Path.of("src/test/resources/pytorch");
    private static final Set<String> HOST = Set.of("cpu_op", "operator", "python_function", "user_annotation",
            "cuda_runtime", "cuda_driver", "runtime");
    private static final Set<String> DEVICE = Set.of("kernel", "gpu_memcpy", "gpu_memset", "memcpy", "memset");
    private static final Map<Integer, String> DEVICE_TYPES = Map.of(0, "cpu", 1, "cuda", 6, "hip");

    static Stream<Path> traces() throws IOException {
        try (Stream<Path> files = Files.list(DIR)) {
            return files.filter(p -> p.getFileName().toString().contains(".json")).sorted().toList().stream();
        }
    }

    private static final Map<Path, ExecutionGraph> GRAPHS = new java.util.concurrent.ConcurrentHashMap<>();
    private static final Map<Path, JsonNode> JSON = new java.util.concurrent.ConcurrentHashMap<>();

    static TraceDocument read(Path trace) throws IOException {
        try (InputStream in = Files.newInputStream(trace)) {
            return new PyTorchTraceReader().read(trace.getFileName().toString(), in);
        }
    }

    /** The graph of a trace, built once per test run. */
    static ExecutionGraph build(Path trace) throws IOException {
        ExecutionGraph known = GRAPHS.get(trace);
        if (known != null) {
            return known;
        }
        GraphOutcome outcome = GraphBuilder.build(read(trace));
        assertThat(outcome.health().errors()).isEmpty();
        assertThat(outcome).isInstanceOf(GraphOutcome.Built.class);
        ExecutionGraph graph = ((GraphOutcome.Built) outcome).graph();
        GRAPHS.put(trace, graph);
        return graph;
    }

    /** The trace's events as a Jackson tree, parsed once per test run. */
    static JsonNode json(Path trace) throws IOException {
        JsonNode known = JSON.get(trace);
        if (known != null) {
            return known;
        }
        try (InputStream raw = Files.newInputStream(trace);
                InputStream in = trace.toString().endsWith(".gz") ? new GZIPInputStream(raw) : raw) {
            JsonNode root = new ObjectMapper().readTree(in);
            JsonNode events = root.isArray() ? root : root.get("traceEvents");
            JSON.put(trace, events);
            return events;
        }
    }

    private static long ns(JsonNode micros) {
        return new BigDecimal(micros.asText()).movePointRight(3).setScale(0, java.math.RoundingMode.HALF_EVEN)
                .longValueExact();
    }

    private static String category(JsonNode event) {
        return event.path("cat").asText("").toLowerCase(Locale.ROOT);
    }

    @ParameterizedTest
    @MethodSource("traces")
    void everyRealTraceBuildsToATrustedGraphWithOneRoot(Path trace) throws IOException {
        ExecutionGraph graph = build(trace);
        assertThat(graph.spans().stream().filter(n -> n.parentId() == null)).hasSize(1);
        assertThat(graph.spans().get(0).name()).isEqualTo("torch.profiler");
    }

    @ParameterizedTest
    @MethodSource("traces")
    void theRootsTotalTimeIsTheTimeTheHostEventsSpan(Path trace) throws IOException {
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (JsonNode e : json(trace)) {
            if ("X".equals(e.path("ph").asText()) && HOST.contains(category(e))) {
                first = Math.min(first, ns(e.get("ts")));
                last = Math.max(last, ns(e.get("ts")) + ns(e.get("dur")));
            }
        }
        GraphNode root = build(trace).spans().get(0);
        if (first == Long.MAX_VALUE) {
            return; // no host events (none of the shared traces)
        }
        assertThat(root.totalTimeNs()).isEqualTo(last - first);
    }

    /**
     * Device time is kernel time (the domain's contract): every device event counts its whole
     * duration on the node that launched it, also where it overlaps other work, so the self times
     * over the graph and the root's total both add up to the summed durations of the device events.
     */
    @ParameterizedTest
    @MethodSource("traces")
    void theDeviceTimeOverTheGraphIsTheDurationOfTheDeviceEvents(Path trace) throws IOException {
        long summed = 0;
        for (JsonNode e : json(trace)) {
            if ("X".equals(e.path("ph").asText()) && DEVICE.contains(category(e))) {
                summed += ns(e.get("dur"));
            }
        }
        ExecutionGraph graph = build(trace);
        long self = 0;
        for (GraphNode node : graph.spans()) {
            for (DeviceTime t : node.deviceTimes()) {
                self += t.selfTimeNs();
            }
        }
        long rootTotal = graph.spans().get(0).deviceTimes().stream().mapToLong(DeviceTime::totalTimeNs).sum();
        assertThat(self).isEqualTo(summed);
        assertThat(rootTotal).isEqualTo(summed);
    }

    /** The BERT traces' device time is their summed kernel time (as every trace's). */
    @org.junit.jupiter.api.Test
    void theDeviceTimeOfTheBertTracesIsTheirSummedKernelTime() throws IOException {
        for (String name : List.of("tracelens-h100-bert-small.json.gz", "tracelens-mi300-bert-small.json.gz")) {
            long summed = 0;
            for (JsonNode e : json(DIR.resolve(name))) {
                if ("X".equals(e.path("ph").asText()) && DEVICE.contains(category(e))) {
                    summed += ns(e.get("dur"));
                }
            }
            long rootTotal = build(DIR.resolve(name)).spans().get(0).deviceTimes().stream()
                    .mapToLong(DeviceTime::totalTimeNs).sum();
            assertThat(rootTotal).as(name).isEqualTo(summed).isPositive();
        }
    }

    @ParameterizedTest
    @MethodSource("traces")
    void theMemoryPeakOfEachDeviceIsThePeakOfTotalAllocated(Path trace) throws IOException {
        Map<String, Long> peaks = new HashMap<>();
        for (JsonNode e : json(trace)) {
            JsonNode args = e.path("args");
            if ("[memory]".equals(e.path("name").asText()) && args.has("Total Allocated")) {
                int type = args.get("Device Type").asInt();
                String device = DEVICE_TYPES.get(type) + (type == 0 ? "" : ":" + args.get("Device Id").asInt());
                peaks.merge(device, args.get("Total Allocated").asLong(), Math::max);
            }
        }
        Map<String, Long> built = new HashMap<>();
        for (DeviceMemory d : build(trace).memory().byDevice()) {
            built.put(d.device(), d.peakBytes());
        }
        peaks.forEach((device, peak) -> assertThat(built).containsEntry(device, peak));
    }

    /** The traces whose memory events carry the counter, so that the peak check above checks something. */
    @org.junit.jupiter.api.Test
    void theCounterIsCheckedOnTheTracesThatHaveIt() throws IOException {
        List<String> withCounter = traces().filter(t -> {
            try {
                for (JsonNode e : json(t)) {
                    if (e.path("args").has("Total Allocated")) {
                        return true;
                    }
                }
                return false;
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }).map(p -> p.getFileName().toString()).toList();
        assertThat(withCounter).contains("tracelens-h100-bert-small.json.gz", "tracelens-mi300-bert-small.json.gz");
    }
}
