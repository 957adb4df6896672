package io.tracegraph.domain.trace;

import static io.tracegraph.domain.Traces.op;
import static io.tracegraph.domain.Traces.span;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.tracegraph.domain.Traces;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/** Assembly of trace/7 to /10: the terminal record, the capture contract, tensor statistics, schemas. */
class TraceAssemblerCaptureTest {
    private static final RunMeta RUN = new RunMeta("run-1", "demo/update-1", "demo", ExecutionPhase.INFER,
            "2026-08-04T18:00:00Z", 1, 0, "cpu", TimingMode.HOST, Map.of(), null, false,
            CaptureContract.NOTHING_DECLARED, null);

    private static TraceAssembler started(String schema) {
        TraceAssembler a = new TraceAssembler("t.jsonl");
        a.meta(1, schema, RUN);
        a.spanStart(2, span("s1").measured().toStart());
        a.spanEnd(3, "s1", 100);
        return a;
    }

    private static TensorStats stats(long[] shape, long elements, long nonFinite, double rms, double absMax) {
        return new TensorStats("s1", "seam/out_y", Shape.of(shape), "f32", elements, nonFinite, rms, absMax, -0.25);
    }

    private static String rendered(ThrowingCallable call) {
        Throwable thrown = catchThrowable(call);
        assertThat(thrown).isInstanceOf(MalformedTraceException.class);
        return ((MalformedTraceException) thrown).problem().render();
    }

    @Test
    void aTrace7TraceEndsWithItsTerminalAndCarriesItsOutcome() {
        TraceAssembler a = started(TraceSchemas.TRACE_7);
        a.terminal(4, RunOutcome.complete(100));

        TraceDocument doc = a.finish();

        assertThat(doc.outcome()).isEqualTo(RunOutcome.complete(100));
        assertThat(doc.revision()).isEqualTo(7);
    }

    @Test
    void aRecordAfterTheTerminalIsRejectedAtItsLine() {
        TraceAssembler a = started(TraceSchemas.TRACE_8);
        a.terminal(4, RunOutcome.complete(100));

        assertThat(rendered(() -> a.gradient(6, new GradientEvent("g", "vb", "w", GradientState.MISSING, null))))
                .isEqualTo("t.jsonl:6: terminal record must be the last record of the trace (the terminal is at line 4)");
        assertThat(rendered(() -> a.terminal(7, RunOutcome.complete(100))))
                .isEqualTo("t.jsonl:7: terminal record must be the last record of the trace (the terminal is at line 4)");
    }

    @Test
    void aTerminalBeforeTheMetaIsNotTheLastRecord() {
        TraceAssembler a = new TraceAssembler("t.jsonl");
        a.terminal(1, RunOutcome.complete(0));

        assertThat(rendered(() -> a.meta(2, TraceSchemas.TRACE_7, RUN)))
                .isEqualTo("t.jsonl:2: terminal record must be the last record of the trace (the terminal is at line 1)");
    }

    @Test
    void aTraceWithoutTerminalIsRejected() {
        assertThat(rendered(started(TraceSchemas.TRACE_10)::finish)).isEqualTo("t.jsonl: trace has no terminal record");
    }

    @Test
    void aTrace6TraceNeedsNoTerminal() {
        TraceDocument doc = started(TraceSchemas.TRACE_6).finish();

        assertThat(doc.outcome()).isSameAs(RunOutcome.IMPLIED_COMPLETE);
    }

    @Test
    void theMetaOfTrace7AndLaterNeedsACaptureContract() {
        TraceAssembler a = new TraceAssembler("t.jsonl");
        a.meta(1, TraceSchemas.TRACE_9, Traces.run("demo", ExecutionPhase.INFER));
        a.terminal(2, RunOutcome.complete(0));

        Throwable thrown = catchThrowable(a::finish);

        TraceProblem problem = ((MalformedTraceException) thrown).problem();
        assertThat(problem.render()).isEqualTo("t.jsonl:1: meta record is missing required member `capture_contract`");
        assertThat(problem.member()).isEqualTo("capture_contract");
    }

    @Test
    void aCompleteTerminalHasNoReasonAndAFailedOneANonBlankReason() {
        TraceAssembler complete = started(TraceSchemas.TRACE_7);
        complete.terminal(4, new RunOutcome(RunOutcome.Status.COMPLETE, "why", 100L));
        assertThat(rendered(complete::finish))
                .isEqualTo("t.jsonl:4: member `reason`: a complete terminal record cannot carry a failure reason");

        TraceAssembler failed = started(TraceSchemas.TRACE_7);
        failed.terminal(4, RunOutcome.failed(" \t", 100));
        assertThat(rendered(failed::finish))
                .isEqualTo("t.jsonl:4: member `reason`: a failed terminal record needs a non-empty reason");

        TraceAssembler none = started(TraceSchemas.TRACE_7);
        none.terminal(4, new RunOutcome(RunOutcome.Status.FAILED, null, 100L));
        assertThat(rendered(none::finish))
                .isEqualTo("t.jsonl:4: member `reason`: a failed terminal record needs a non-empty reason");
    }

    @Test
    void theTerminalTimestampIsNotBeforeTheHostEvidence() {
        TraceAssembler a = started(TraceSchemas.TRACE_7);
        a.op(4, op("s1", "matmul").at(90).duration(20).build());
        a.terminal(5, RunOutcome.complete(100));

        assertThat(rendered(a::finish)).isEqualTo(
                "t.jsonl:5: member `timestamp_ns`: terminal timestamp 100 precedes host evidence ending at 110");
    }

    @Test
    void memoryRecordsAndDeviceMemorySamplesAreHostEvidenceToo() {
        TraceAssembler memory = started(TraceSchemas.TRACE_10);
        memory.op(4, op("s1", "matmul").at(90).duration(5).build());
        memory.memory(5, new MemoryEvent(130, "t1", "s1", null, "cpu", 8, MemoryAction.ALLOC, Shape.SCALAR, "f32",
                MemoryCategory.OTHER, "st1"));
        memory.deviceMemory(6, new DeviceMemoryEvent(120, "cpu", 1, 2, null));
        memory.terminal(7, RunOutcome.complete(125));
        assertThat(rendered(memory::finish)).isEqualTo(
                "t.jsonl:7: member `timestamp_ns`: terminal timestamp 125 precedes host evidence ending at 130");

        TraceAssembler sample = started(TraceSchemas.TRACE_7);
        sample.deviceMemory(4, new DeviceMemoryEvent(140, "cpu", 1, 2, null));
        sample.terminal(5, RunOutcome.complete(139));
        assertThat(rendered(sample::finish)).isEqualTo(
                "t.jsonl:5: member `timestamp_ns`: terminal timestamp 139 precedes host evidence ending at 140");

        TraceAssembler atTheEnd = started(TraceSchemas.TRACE_7);
        atTheEnd.op(4, op("s1", "matmul").at(90).duration(50).build());
        atTheEnd.deviceMemory(5, new DeviceMemoryEvent(140, "cpu", 1, 2, null));
        atTheEnd.terminal(6, RunOutcome.complete(140));
        assertThat(atTheEnd.finish().outcome().timestampNs()).isEqualTo(140);
    }

    @Test
    void openSpansCountWithTheirStartOnly() {
        TraceAssembler a = new TraceAssembler("t.jsonl");
        a.meta(1, TraceSchemas.TRACE_7, RUN);
        a.spanStart(2, span("s1").start(50).toStart());
        a.terminal(3, RunOutcome.failed("boom", 50));

        assertThat(a.finish().outcome().isFailed()).isTrue();
    }

    @Test
    void tensorStatsAreCheckedAsTheyCome() {
        TraceAssembler a = started(TraceSchemas.TRACE_10);
        a.tensorStats(4, stats(new long[] {2, 3}, 6, 0, 1.5, 3.0));
        assertThat(rendered(() -> a.tensorStats(5, stats(new long[] {2, 3}, 5, 0, 1.5, 3.0))))
                .isEqualTo("t.jsonl:5: member `elements`: tensor_stats shape [2, 3] holds 6 elements, not 5");
        assertThat(rendered(() -> a.tensorStats(6, stats(new long[] {2, 3}, 6, 7, 1.5, 3.0))))
                .isEqualTo("t.jsonl:6: member `non_finite`: tensor_stats counts 7 non-finite elements of 6");
        assertThat(rendered(() -> a.tensorStats(7, stats(new long[] {2, 3}, 6, 0, -1, 3.0))))
                .isEqualTo("t.jsonl:7: member `rms`: tensor_stats rms must be finite and not negative, found -1.0");
        assertThat(rendered(() -> a.tensorStats(8, stats(new long[] {2, 3}, 6, 0, 1, -3))))
                .isEqualTo("t.jsonl:8: member `abs_max`: tensor_stats abs_max must be finite and not negative, found -3.0");
        assertThat(rendered(() -> a.tensorStats(9, new TensorStats("s1", "  ", Shape.of(1), "f32", 1, 0, 0, 0, 0))))
                .isEqualTo("t.jsonl:9: member `label`: tensor_stats label must not be empty");
        assertThat(rendered(() -> a.tensorStats(10, stats(new long[] {1L << 40, 1L << 40}, 1, 0, 0, 0))))
                .isEqualTo("t.jsonl:10: member `elements`: tensor_stats shape [1099511627776, 1099511627776] holds "
                        + "more than 9223372036854775807 elements, not 1");
        assertThat(rendered(() -> a.tensorStats(11, new TensorStats("s1", "x", Shape.of(1), "f32", 1, 0, 0, 0,
                Double.NaN)))).isEqualTo("t.jsonl:11: member `mean`: tensor_stats mean must be finite, found NaN");
        a.terminal(12, RunOutcome.complete(100));
        assertThat(a.finish().tensorStats()).hasSize(1);
    }

    @Test
    void aScalarTensorStatsHasOneElement() {
        TraceAssembler a = started(TraceSchemas.TRACE_10);
        a.tensorStats(4, new TensorStats("s1", "loss", Shape.SCALAR, "f32", 1, 1, 0, 0, 0));
        a.terminal(5, RunOutcome.complete(100));

        assertThat(a.finish().tensorStats()).extracting(TensorStats::label).containsExactly("loss");
    }

    @Test
    void aTrace9TraceCannotCarryTensorStats() {
        TraceAssembler a = started(TraceSchemas.TRACE_9);
        a.tensorStats(4, stats(new long[] {2, 3}, 6, 0, 1.5, 3.0));
        a.tensorStats(5, stats(new long[] {2, 3}, 6, 0, 1.5, 3.0));
        a.terminal(6, RunOutcome.complete(100));

        assertThat(rendered(a::finish)).isEqualTo("t.jsonl:4: trace schema \"candle-graph/trace/9\" does not define "
                + "tensor_stats records; producers emitting tensor statistics must declare \"candle-graph/trace/10\"");
    }

    @Test
    void newerRevisionsAndForeignSchemasAreRefusedNamingEverySchemaRead() {
        String all = "expected one of \"candle-graph/trace/6\", \"candle-graph/trace/7\", \"candle-graph/trace/8\", "
                + "\"candle-graph/trace/9\", \"candle-graph/trace/10\"";
        for (String schema : List.of("candle-graph/trace/11", "candle-graph/trace/123", "not-candle-graph",
                "pytorch-profiler/1")) {
            TraceAssembler a = new TraceAssembler("t.jsonl");
            a.meta(1, schema, RUN);
            assertThat(rendered(a::finish)).isEqualTo("t.jsonl:1: unsupported trace schema \"" + schema + "\"; " + all);
        }
        for (String schema : List.of("candle-graph/trace/5", "candle-graph/trace/0", "candle-graph/trace/x",
                "candle-graph/graph/3", "candle-graph/trace/07")) {
            TraceAssembler a = new TraceAssembler("t.jsonl");
            a.meta(1, schema, RUN);
            assertThat(rendered(a::finish)).as(schema)
                    .isEqualTo("t.jsonl:1: unsupported trace schema \"" + schema + "\"; expected \"candle-graph/trace/6\"");
        }
    }

    @Test
    void dataEdgesIntervalsAndStatsKeepFileOrder() {
        TraceAssembler a = started(TraceSchemas.TRACE_10);
        a.dataEdge(4, new DataEdgeEvent("b", "c"));
        a.deviceInterval(5, new DeviceInterval("s1", "cuda:0", "7", "c", "cuda", 5, 1));
        a.dataEdge(6, new DataEdgeEvent("a", "b"));
        a.terminal(7, RunOutcome.complete(100));

        TraceDocument doc = a.finish();

        assertThat(doc.dataEdges()).containsExactly(new DataEdgeEvent("b", "c"), new DataEdgeEvent("a", "b"));
        assertThat(doc.deviceIntervals()).hasSize(1);
    }
}
