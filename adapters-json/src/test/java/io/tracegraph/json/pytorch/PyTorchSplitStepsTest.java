package io.tracegraph.json.pytorch;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tracegraph.domain.graph.ExecutionGraph;
import io.tracegraph.domain.graph.GraphBuilder;
import io.tracegraph.domain.graph.GraphNode;
import io.tracegraph.domain.graph.GraphOutcome;
import io.tracegraph.domain.trace.StepSplit;
import io.tracegraph.domain.trace.TraceDocument;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@code import --split-steps} on the real six-step trace (Kineto's TensorBoard plugin sample,
 * ResNet-50, ProfilerStep#5..#10): each step its own run. The figures are checked against the JSON
 * itself, computed here in a few lines that share no code with the reader: a step's device time is
 * the summed duration of the device events whose launching runtime call (same correlation) started
 * inside the step; its root's total is the step's duration.
 */
class PyTorchSplitStepsTest {
    private static final Path TRACE = PyTorchRealTracesTest.DIR.resolve("kineto-tb-plugin-resnet50-workers0.pt.trace.json.gz");
    private static final Set<String> DEVICE = Set.of("kernel", "gpu_memcpy", "gpu_memset", "memcpy", "memset");

    private static long ns(JsonNode micros) {
        return new BigDecimal(micros.asText()).movePointRight(3).setScale(0, RoundingMode.HALF_EVEN).longValueExact();
    }

    private static String cat(JsonNode e) {
        return e.path("cat").asText("").toLowerCase(java.util.Locale.ROOT);
    }

    @Test
    void eachStepIsARunWhoseDeviceTimeAndTotalAreTheStepsOwn() throws IOException {
        TraceDocument whole = PyTorchRealTracesTest.read(TRACE);
        List<TraceDocument> steps = StepSplit.steps(whole);
        assertThat(steps).extracting(d -> d.run().tags().get("step")).containsExactly("5", "6", "7", "8", "9", "10");
        assertThat(steps).extracting(d -> d.run().runId()).allMatch(id -> id.startsWith(whole.run().runId() + "-step-"))
                .doesNotHaveDuplicates();
        assertThat(StepSplit.steps(PyTorchRealTracesTest.read(TRACE))).extracting(d -> d.run().runId())
                .as("deterministic").isEqualTo(steps.stream().map(d -> d.run().runId()).toList());

        JsonNode events = PyTorchRealTracesTest.json(TRACE);
        for (TraceDocument step : steps) {
            String number = step.run().tags().get("step");
            JsonNode annotation = null;
            for (JsonNode e : events) {
                if (e.path("ph").asText().equals("X") && e.path("name").asText().equals("ProfilerStep#" + number)
                        && !cat(e).startsWith("gpu")) {
                    annotation = e;
                }
            }
            assertThat(annotation).as("step %s in the JSON", number).isNotNull();
            long from = ns(annotation.get("ts"));
            long to = from + ns(annotation.get("dur"));
            Set<Long> launched = new HashSet<>();
            for (JsonNode e : events) {
                if (e.path("ph").asText().equals("X") && cat(e).equals("runtime") || cat(e).equals("cuda_runtime")) {
                    long ts = ns(e.get("ts"));
                    if (ts >= from && ts <= to && e.path("args").has("correlation")) {
                        launched.add(e.path("args").get("correlation").asLong());
                    }
                }
            }
            long expectedDevice = 0;
            for (JsonNode e : events) {
                if (e.path("ph").asText().equals("X") && DEVICE.contains(cat(e))
                        && launched.contains(e.path("args").path("correlation").asLong(-1))) {
                    expectedDevice += ns(e.get("dur"));
                }
            }

            GraphOutcome outcome = GraphBuilder.build(step);
            assertThat(outcome.health().errors()).as("step %s", number).isEmpty();
            ExecutionGraph graph = ((GraphOutcome.Built) outcome).graph();
            List<GraphNode> roots = graph.spans().stream().filter(n -> n.parentId() == null).toList();
            assertThat(roots).hasSize(1);
            assertThat(roots.get(0).name()).isEqualTo("ProfilerStep");
            assertThat(roots.get(0).totalTimeNs()).as("step %s", number).isEqualTo(to - from);
            long device = graph.spans().stream().mapToLong(GraphNode::deviceSelfTimeNs).sum();
            assertThat(expectedDevice).as("step %s launches device work", number).isPositive();
            assertThat(device).as("device time of step %s", number).isEqualTo(expectedDevice);
        }
    }

    @Test
    void aTraceWithoutStepsHasNoneToSplit() throws IOException {
        assertThat(StepSplit.steps(PyTorchRealTracesTest.read(PyTorchRealTracesTest.DIR.resolve(
                "hta-a100-alexnet.json.gz")))).isEmpty();
    }
}
