package io.tracegraph.domain.trace;

import static io.tracegraph.domain.Traces.alloc;
import static io.tracegraph.domain.Traces.deviceMemory;
import static io.tracegraph.domain.Traces.edge;
import static io.tracegraph.domain.Traces.gradient;
import static io.tracegraph.domain.Traces.op;
import static io.tracegraph.domain.Traces.span;
import static io.tracegraph.domain.Traces.tensor;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.tracegraph.domain.Traces;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

class TraceAssemblerTest {
    private static final RunMeta RUN = Traces.run("demo", ExecutionPhase.INFER);

    /** An assembler for {@code t.jsonl} that has read a valid meta record at line 1. */
    private static TraceAssembler started() {
        TraceAssembler assembler = new TraceAssembler("t.jsonl");
        assembler.meta(1, TraceDocument.SCHEMA, RUN);
        return assembler;
    }

    private static TraceProblem problemOf(ThrowingCallable call) {
        Throwable thrown = catchThrowable(call);
        assertThat(thrown).isInstanceOf(MalformedTraceException.class);
        MalformedTraceException e = (MalformedTraceException) thrown;
        assertThat(e.getMessage()).isEqualTo(e.problem().render());
        return e.problem();
    }

    @Test
    void assemblesSpansSortedByIdInCodePointOrderWithTheirEnds() {
        String grinning = new String(Character.toChars(0x1F600));
        TraceAssembler a = started();
        a.spanStart(2, span("s2").parent("s1").start(5).step(ExecutionStep.FORWARD).toStart());
        a.spanStart(3, span("s1").measured().toStart());
        a.spanStart(4, span(grinning).parent("s1").kind(SpanKind.MODULE).toStart());
        a.spanStart(5, span("\uFF21").parent("s1").kind(SpanKind.OP).toStart());
        a.spanStart(6, span("s10").parent("s1").toStart());
        a.spanEnd(7, "s2", 40);
        a.spanEnd(8, "s10", 0);
        a.spanEnd(9, "s1", 100);

        TraceDocument doc = a.finish();

        assertThat(doc.schema()).isEqualTo("candle-graph/trace/6");
        assertThat(doc.run()).isEqualTo(RUN);
        assertThat(doc.spans()).containsExactly(
                new SpanRecord("s1", null, "s1", SpanKind.FUNCTION, true, 0, true, 100, null),
                new SpanRecord("s10", "s1", "s10", SpanKind.FUNCTION, false, 0, true, 0, null),
                new SpanRecord("s2", "s1", "s2", SpanKind.FUNCTION, false, 5, true, 40, ExecutionStep.FORWARD),
                new SpanRecord("\uFF21", "s1", "\uFF21", SpanKind.OP, false, 0, false, 0, null),
                new SpanRecord(grinning, "s1", grinning, SpanKind.MODULE, false, 0, false, 0, null));
    }

    @Test
    void keepsEveryOtherRecordInFileOrder() {
        TraceAssembler a = started();
        OpEvent op1 = op("x", "a").storage(1).build();
        OpEvent op2 = op("y", "b").storage(2).build();
        TensorEvent t1 = tensor("x", "t").storage(3).build();
        MemoryEvent m1 = alloc("t", "x", 4).at(9).build();
        MemoryEvent m2 = alloc("u", "x", 5).at(1).build();
        DeviceMemoryEvent d1 = deviceMemory("cpu", 7, 1, 2);
        GradientEvent g1 = gradient("w", GradientState.ZERO, null);
        EdgeEvent e1 = edge("b", "a", 3);
        EdgeEvent e2 = edge("b", "a", 3);
        a.op(op2);
        a.memory(m1);
        a.edge(e1);
        a.op(op1);
        a.tensor(t1);
        a.memory(m2);
        a.deviceMemory(d1);
        a.gradient(g1);
        a.edge(e2);

        TraceDocument doc = a.finish();

        assertThat(doc.ops()).containsExactly(op2, op1);
        assertThat(doc.tensors()).containsExactly(t1);
        assertThat(doc.memory()).containsExactly(m1, m2);
        assertThat(doc.deviceMemory()).containsExactly(d1);
        assertThat(doc.gradients()).containsExactly(g1);
        assertThat(doc.edges()).containsExactly(e1, e2);
        assertThat(doc.spans()).isEmpty();
    }

    @Test
    void rejectsMetaAfterAnotherRecord() {
        TraceAssembler a = new TraceAssembler("t.jsonl");
        a.spanStart(3, span("s1").toStart());

        TraceProblem problem = problemOf(() -> a.meta(4, TraceDocument.SCHEMA, RUN));

        assertThat(problem).isEqualTo(
                new TraceProblem("t.jsonl", 4, null, "meta record must be the first record of the trace"));
    }

    @Test
    void rejectsASecondMetaNamingTheLineOfTheFirst() {
        TraceAssembler a = new TraceAssembler("t.jsonl");
        a.meta(2, TraceDocument.SCHEMA, RUN);
        a.spanStart(3, span("s1").toStart());

        TraceProblem problem = problemOf(() -> a.meta(64, TraceDocument.SCHEMA, RUN));

        assertThat(problem.render()).isEqualTo("t.jsonl:64: duplicate meta record (the first is at line 2)");
        assertThat(problem.member()).isNull();
    }

    @Test
    void rejectsDuplicateSpanStartNamingTheFirst() {
        TraceAssembler a = started();
        a.spanStart(2, span("s1").toStart());
        a.spanEnd(3, "s1", 5);

        TraceProblem problem = problemOf(() -> a.spanStart(7, span("s1").toStart()));

        assertThat(problem.render()).isEqualTo("t.jsonl:7: duplicate span_start id `s1` (first at line 2)");
    }

    @Test
    void rejectsSpanEndForUnknownSpan() {
        TraceAssembler a = started();
        a.spanStart(2, span("s1").toStart());

        TraceProblem problem = problemOf(() -> a.spanEnd(3, "s2", 5));

        assertThat(problem.render()).isEqualTo("t.jsonl:3: span_end for unknown span `s2`");
    }

    @Test
    void rejectsSpanEndBeforeItsSpanStart() {
        TraceAssembler a = started();

        TraceProblem problem = problemOf(() -> a.spanEnd(2, "s1", 5));

        assertThat(problem.render()).isEqualTo("t.jsonl:2: span_end for unknown span `s1`");
    }

    @Test
    void rejectsDuplicateSpanEndNamingTheFirst() {
        TraceAssembler a = started();
        a.spanStart(2, span("s1").toStart());
        a.spanEnd(4, "s1", 5);

        TraceProblem problem = problemOf(() -> a.spanEnd(9, "s1", 5));

        assertThat(problem.render()).isEqualTo("t.jsonl:9: duplicate span_end for `s1` (first at line 4)");
    }

    @Test
    void rejectsAStreamWithoutMetaNamingTheFileOnly() {
        TraceAssembler a = new TraceAssembler("t.jsonl");
        a.spanStart(1, span("s1").toStart());

        TraceProblem problem = problemOf(a::finish);

        assertThat(problem).isEqualTo(new TraceProblem("t.jsonl", 0, null, "trace has no meta record"));
        assertThat(problem.render()).isEqualTo("t.jsonl: trace has no meta record");
    }

    @Test
    void rejectsAnotherSchemaQuotingBothLikeRustDebugAtTheMetaLine() {
        TraceAssembler a = new TraceAssembler("t.jsonl");
        a.meta(3, "candle-graph/\"trace\"\\5\n\t\u0001é", RUN);

        TraceProblem problem = problemOf(a::finish);

        assertThat(problem.line()).isEqualTo(3);
        assertThat(problem.member()).isEqualTo("schema");
        assertThat(problem.message()).isEqualTo("unsupported trace schema \"candle-graph/\\\"trace\\\"\\\\5\\n\\t\\u{1}é\"; "
                + "expected \"candle-graph/trace/6\"");
    }

    @Test
    void rejectsAnOlderSchema() {
        TraceAssembler a = new TraceAssembler("t.jsonl");
        a.meta(1, "candle-graph/trace/5", RUN);

        assertThat(problemOf(a::finish).render()).isEqualTo(
                "t.jsonl:1: unsupported trace schema \"candle-graph/trace/5\"; expected \"candle-graph/trace/6\"");
    }

    @Test
    void resolvesMissingStorageBytesFromShapeAndDtype() {
        TraceAssembler a = started();
        a.op(op("s", "scalar").dtype("f32").build());
        a.op(op("s", "zero_dim").shape(2, 0).dtype("f32").build());
        a.op(op("s", "unknown_dtype").shape(2, 3).dtype("q4").build());
        a.op(op("s", "padded_upper").shape(2, 3).dtype("F64 ").build());
        a.op(op("s", "explicit").shape(2, 3).dtype("f64").storage(7).build());
        a.op(op("s", "explicit_zero").shape(2, 3).dtype("f64").storage(0).build());
        a.op(op("s", "huge").shape(1L << 62, 4).dtype("f64").build());
        a.tensor(tensor("s", "scalar_tensor").dtype("bool").build());
        a.tensor(tensor("s", "bf16").shape(3, 5).dtype("bf16").build());
        a.tensor(tensor("s", "explicit").shape(3, 5).dtype("bf16").storage(1).build());

        TraceDocument doc = a.finish();

        assertThat(doc.ops()).extracting(OpEvent::storageBytes).containsExactly(4L, 0L, 0L, 48L, 7L, 0L, Long.MAX_VALUE);
        assertThat(doc.ops().get(3).dtype()).as("the stored dtype is not normalized").isEqualTo("F64 ");
        assertThat(doc.tensors()).extracting(TensorEvent::storageBytes).containsExactly(1L, 30L, 1L);
    }

    @Test
    void rendersProblemsWithAndWithoutLineAndNestsThemInArchives() {
        TraceProblem withLine = new TraceProblem("a.jsonl", 12, "duration_ns", "bad");
        TraceProblem noLine = new TraceProblem("a.jsonl", 0, null, "bad");

        assertThat(withLine.render()).isEqualTo("a.jsonl:12: bad");
        assertThat(noLine.render()).isEqualTo("a.jsonl: bad");
        assertThat(withLine.within("runs.tar.gz").render()).isEqualTo("runs.tar.gz!a.jsonl:12: bad");
        assertThatThrownBy(() -> new TraceProblem("a.jsonl", -1, null, "bad"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
