package io.tracegraph.application;

import io.tracegraph.domain.graph.ExecutionGraph;
import io.tracegraph.domain.graph.GraphBuilder;
import io.tracegraph.domain.graph.GraphOutcome;
import io.tracegraph.domain.trace.DeviceInterval;
import io.tracegraph.domain.trace.ExecutionPhase;
import io.tracegraph.domain.trace.RunMeta;
import io.tracegraph.domain.trace.SpanKind;
import io.tracegraph.domain.trace.SpanRecord;
import io.tracegraph.domain.trace.TimingMode;
import io.tracegraph.domain.trace.TraceDocument;
import java.util.List;
import java.util.Map;

/** Small traces for the use cases: a measured root span {@code step} with a child {@code forward}. */
final class Traces {
    static final String ENTRYPOINT = "model::train";

    private Traces() {
    }

    /** A trusted trace whose child takes {@code forwardNs} of the root's {@code totalNs}. */
    static TraceDocument trace(String runId, long totalNs, long forwardNs) {
        return document(runId, List.of(
                new SpanRecord("root", null, "step", SpanKind.FUNCTION, true, 0, true, totalNs, null),
                new SpanRecord("fwd", "root", "forward", SpanKind.FUNCTION, false, 0, true, forwardNs, null)));
    }

    /**
     * {@link #trace} with device work: {@code kernelNs} on {@code cuda:0} attributed to the child, and
     * {@code rootKernelNs} to the root itself (when above 0).
     */
    static TraceDocument withDeviceTime(String runId, long totalNs, long forwardNs, long kernelNs, long rootKernelNs) {
        TraceDocument t = trace(runId, totalNs, forwardNs);
        List<DeviceInterval> intervals = new java.util.ArrayList<>();
        intervals.add(new DeviceInterval("fwd", "cuda:0", "7", "gpu", "cuda", 0, kernelNs));
        if (rootKernelNs > 0) {
            intervals.add(new DeviceInterval("root", "cuda:0", "7", "gpu", "cuda", 0, rootKernelNs));
        }
        return new TraceDocument(t.schema(), t.run(), t.spans(), t.ops(), t.tensors(), t.memory(), t.deviceMemory(),
                t.gradients(), t.edges(), t.dataEdges(), intervals, t.tensorStats(), t.outcome());
    }

    /** An untrusted trace: its root span was never closed. */
    static TraceDocument untrusted(String runId) {
        return document(runId, List.of(
                new SpanRecord("root", null, "step", SpanKind.FUNCTION, true, 0, false, 0, null)));
    }

    static ExecutionGraph graph(TraceDocument trace) {
        return ((GraphOutcome.Built) GraphBuilder.build(trace)).graph();
    }

    private static TraceDocument document(String runId, List<SpanRecord> spans) {
        RunMeta meta = new RunMeta(runId, "c-" + runId, ENTRYPOINT, ExecutionPhase.TRAIN, "2026-01-01T00:00:00Z", 1,
                0, "cpu", TimingMode.HOST, Map.of(), null);
        return new TraceDocument(TraceDocument.SCHEMA, meta, spans, List.of(), List.of(), List.of(), List.of(),
                List.of(), List.of());
    }
}
