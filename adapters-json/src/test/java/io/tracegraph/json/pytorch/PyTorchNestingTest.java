package io.tracegraph.json.pytorch;

import static io.tracegraph.json.pytorch.TorchTraces.read;
import static io.tracegraph.json.pytorch.TorchTraces.trace;
import static io.tracegraph.json.pytorch.TorchTraces.tree;
import static io.tracegraph.json.pytorch.TorchTraces.x;
import static org.assertj.core.api.Assertions.assertThat;

import io.tracegraph.domain.graph.GraphBuilder;
import io.tracegraph.domain.graph.GraphOutcome;
import io.tracegraph.domain.health.HealthIssue;
import io.tracegraph.domain.trace.OpEvent;
import io.tracegraph.domain.trace.Shape;
import io.tracegraph.domain.trace.SpanKind;
import io.tracegraph.domain.trace.SpanRecord;
import io.tracegraph.domain.trace.TraceDocument;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** How host events nest into the span tree (docs/trace-formats.md, "PyTorch profiler traces"). */
class PyTorchNestingTest {
    private static List<String> codes(TraceDocument doc) {
        GraphOutcome outcome = GraphBuilder.build(doc);
        return outcome.health().issues().stream().map(HealthIssue::code).toList();
    }

    @Test
    void nestsEventsOfAThreadByTimeWithTheLongerFirstOnEqualStarts() {
        TraceDocument doc = read(trace(
                x("cpu_op", "aten::add", 1, 1, 16, 2, ""),
                x("cpu_op", "aten::linear", 1, 1, 10, 20, ""),
                x("cpu_op", "aten::addmm", 1, 1, 10, 5, ""),
                x("user_annotation", "## forward ##", 1, 1, 10, 20, "")));
        assertThat(tree(doc)).containsExactly(
                "torch.profiler [10000..30000]",
                "  ## forward ## [10000..30000]",
                "    aten::linear [10000..30000]",
                "      op:aten::addmm [10000..15000]",
                "      op:aten::add [16000..18000]");
    }

    @Test
    void leafCpuOpsAreOpsWithTheShapeAndTypeOfTheirFirstTensorAndFoldTheirRuntimeCalls() {
        TraceDocument doc = read(trace(
                x("cpu_op", "aten::mm", 1, 1, 10, 10,
                        "\"Input Dims\": [[], [4, 8], [8, 2]], \"Input type\": [\"Scalar\", \"float\", \"float\"]"),
                x("cuda_runtime", "cudaLaunchKernel", 1, 1, 12, 3, "\"correlation\": 5"),
                x("cuda_runtime", "cudaDeviceSynchronize", 1, 1, 30, 3, "")));
        assertThat(tree(doc)).containsExactly(
                "torch.profiler [10000..33000]",
                "  cudaDeviceSynchronize [30000..33000]",
                "  op:aten::mm [10000..20000]");
        OpEvent op = doc.ops().get(0);
        assertThat(op.shape()).isEqualTo(Shape.of(4, 8));
        assertThat(op.dtype()).isEqualTo("float");
    }

    @Test
    void aCpuOpWithOtherOpsInsideIsASpanOfKindOp() {
        TraceDocument doc = read(trace(
                x("cpu_op", "aten::linear", 1, 1, 10, 20, ""),
                x("cpu_op", "aten::t", 1, 1, 11, 2, "")));
        SpanRecord linear = doc.spans().stream().filter(s -> s.name().equals("aten::linear")).findFirst().get();
        assertThat(linear.kind()).isEqualTo(SpanKind.OP);
        assertThat(doc.ops()).extracting(OpEvent::opName).containsExactly("aten::t");
    }

    @Test
    void stepsAreChildrenOfTheRootAndWhatRunsAcrossTheirBoundariesIsCut() {
        TraceDocument doc = read(trace(
                x("python_function", "train.py(10): main", 1, 1, 0, 100, "\"Python id\": 1, \"Python parent id\": null"),
                x("user_annotation", "ProfilerStep#7", 1, 1, 20, 30, ""),
                x("user_annotation", "ProfilerStep#8", 1, 1, 50, 30, ""),
                x("cpu_op", "aten::mul", 1, 1, 25, 2, "")));
        assertThat(tree(doc)).containsExactly(
                "torch.profiler [0..100000]",
                "  train.py: main [0..20000]",
                "  ProfilerStep [20000..50000]",
                "    train.py: main [20000..50000]",
                "      op:aten::mul [25000..27000]",
                "  ProfilerStep [50000..80000]",
                "    train.py: main [50000..80000]",
                "  train.py: main [80000..100000]");
        assertThat(doc.run().captureStep()).isEqualTo(7);
        assertThat(doc.run().tags()).containsEntry("steps", "2");
        assertThat(codes(doc)).doesNotContain("partial_overlap");
    }

    @Test
    void threadsRunAtOnceAsSiblingsAndTheTraceIsStillTrusted() {
        TraceDocument doc = read(trace(
                x("user_annotation", "ProfilerStep#1", 1, 1, 0, 10, ""),
                x("cpu_op", "aten::mm", 1, 1, 0, 9, ""),
                x("cpu_op", "autograd::engine::evaluate_function: MmBackward0", 1, 2, 1, 9, ""),
                x("cpu_op", "aten::mm", 1, 2, 2, 3, "")));
        assertThat(tree(doc)).containsExactly(
                "torch.profiler [0..10000]",
                "  ProfilerStep [0..10000]",
                "    autograd::engine::evaluate_function: MmBackward0 [1000..10000]",
                "      op:aten::mm [2000..5000]",
                "    op:aten::mm [0..9000]");
        assertThat(GraphBuilder.build(doc).health().trusted()).isTrue();
    }

    @Test
    void anOverlapOfAtMostOneMicrosecondIsClippedWithoutAWarning() {
        TraceDocument doc = read(trace(
                x("python_function", "a.py(1): f", 1, 1, 10, 10, "\"Python id\": 1"),
                x("python_function", "a.py(2): g", 1, 1, 15, 5.0005, "\"Python id\": 2, \"Python parent id\": 1"),
                x("python_function", "a.py(3): h", 1, 1, 19.999, 3, "\"Python id\": 3")));
        assertThat(tree(doc)).containsExactly(
                "torch.profiler [10000..22999]",
                "  a.py: f [10000..20000]",
                "    a.py: g [15000..20000]",
                "  a.py: h [19999..22999]");
        assertThat(codes(doc)).doesNotContain("partial_overlap");
    }

    @Test
    void anAnnotationThatStartsInsidePythonFramesKeepsItsTimeAndTheFramesAreCut() {
        // record_function's __enter__ starts the annotation inside Python frames that end later.
        TraceDocument doc = read(trace(
                x("python_function", "torch/autograd/profiler.py(751): __enter__", 1, 1, 10, 20, "\"Python id\": 1"),
                x("user_annotation", "## forward ##", 1, 1, 20, 50, ""),
                x("cpu_op", "aten::relu", 1, 1, 40, 5, "")));
        assertThat(tree(doc)).containsExactly(
                "torch.profiler [10000..70000]",
                "  torch/autograd/profiler.py: __enter__ [10000..20000]",
                "  ## forward ## [20000..70000]",
                "    torch/autograd/profiler.py: __enter__ [20000..30000]",
                "    op:aten::relu [40000..45000]");
        assertThat(codes(doc)).contains("partial_overlap");
    }

    @Test
    void aPythonFrameThatOutlivesAnAnnotationIsCutAtItsEnd() {
        TraceDocument doc = read(trace(
                x("user_annotation", "## forward ##", 1, 1, 10, 20, ""),
                x("python_function", "torch/autograd/profiler.py(763): __exit__", 1, 1, 25, 10, "\"Python id\": 4")));
        assertThat(tree(doc)).containsExactly(
                "torch.profiler [10000..35000]",
                "  ## forward ## [10000..30000]",
                "    torch/autograd/profiler.py: __exit__ [25000..30000]",
                "  torch/autograd/profiler.py: __exit__ [30000..35000]");
        GraphOutcome outcome = GraphBuilder.build(doc);
        assertThat(outcome.health().trusted()).isTrue();
        assertThat(outcome.health().issues()).filteredOn(i -> i.code().equals("partial_overlap")).singleElement()
                .satisfies(i -> assertThat(i.message()).startsWith("1 host events partially overlapped"));
    }

    @Test
    void pythonFramesOfEqualTimesNestInTheOrderOfTheirPythonIds() {
        TraceDocument doc = read(trace(
                x("python_function", "inner", 1, 1, 10, 5, "\"Python id\": 8, \"Python parent id\": 7"),
                x("python_function", "outer", 1, 1, 10, 5, "\"Python id\": 7, \"Python parent id\": null")));
        assertThat(tree(doc)).containsExactly(
                "torch.profiler [10000..15000]",
                "  outer [10000..15000]",
                "    inner [10000..15000]");
        assertThat(codes(doc)).doesNotContain("python_parent_mismatch");
    }

    @Test
    void aPythonFrameUnderAnotherThanItsPythonParentIsAWarning() {
        TraceDocument doc = read(trace(
                x("python_function", "a", 1, 1, 10, 10, "\"Python id\": 1, \"Python parent id\": null"),
                x("python_function", "b", 1, 1, 12, 2, "\"Python id\": 2, \"Python parent id\": 99")));
        assertThat(codes(doc)).contains("python_parent_mismatch");
    }

    @Test
    void aNumberAndItsStringAreTheSameThreadAndOtherStringsAreThreadsOfTheirOwn() {
        TraceDocument doc = read(trace(
                x("Operator", "aten::conv2d", 25738, "25738", 10, 10, ""),
                x("Operator", "aten::convolution", 25738, 25738, 11, 8, ""),
                x("Operator", "aten::add", "main", "worker 1", 11, 8, "")));
        assertThat(tree(doc)).containsExactly(
                "torch.profiler [10000..20000]",
                "  aten::conv2d [10000..20000]",
                "    op:aten::convolution [11000..19000]",
                "  op:aten::add [11000..19000]");
    }

    @Test
    void theOrderOfEventsInTheFileDoesNotChangeTheTree() {
        List<String> events = new ArrayList<>(List.of(
                x("user_annotation", "ProfilerStep#3", 1, 1, 0, 100, ""),
                x("python_function", "nn.Module: Linear_3", 1, 1, 5, 50, "\"Python id\": 3"),
                x("cpu_op", "aten::linear", 1, 1, 6, 40, ""),
                x("cpu_op", "aten::addmm", 1, 1, 7, 30, ""),
                x("cuda_runtime", "cudaLaunchKernel", 1, 1, 8, 2, "\"correlation\": 1"),
                x("kernel", "gemm", 0, 7, 20, 10, "\"correlation\": 1, \"device\": 0, \"stream\": 7"),
                x("cpu_op", "aten::relu", 1, 2, 60, 5, "")));
        List<String> expected = tree(read(trace(events.toArray(new String[0]))));
        Collections.shuffle(events, new Random(7));
        assertThat(tree(read(trace(events.toArray(new String[0]))))).isEqualTo(expected);
    }

    @Test
    void volatileNamePartsAreDroppedAndModuleInstancesKept() {
        TraceDocument doc = read(trace(
                x("user_annotation", "ProfilerStep#12", 1, 1, 0, 100, ""),
                x("python_function", "nn.Module: Linear_3", 1, 1, 5, 50, "\"Python id\": 3"),
                x("python_function", "<built-in method size of Tensor object at 0x7f3a2b1c0d90>", 1, 1, 6, 1,
                        "\"Python id\": 4, \"Python parent id\": 3"),
                x("python_function", "torch/nn/modules/module.py(1743): _call_impl", 1, 1, 60, 1, "\"Python id\": 5")));
        assertThat(doc.spans()).extracting(SpanRecord::name).containsExactly("torch.profiler", "ProfilerStep",
                "nn.Module: Linear_3", "<built-in method size of Tensor object>",
                "torch/nn/modules/module.py: _call_impl");
        assertThat(doc.spans().get(2).kind()).isEqualTo(SpanKind.MODULE);
    }
}
