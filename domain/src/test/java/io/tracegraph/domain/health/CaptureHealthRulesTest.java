package io.tracegraph.domain.health;

import static io.tracegraph.domain.Traces.alloc;
import static io.tracegraph.domain.Traces.free;
import static io.tracegraph.domain.Traces.op;
import static io.tracegraph.domain.Traces.span;
import static io.tracegraph.domain.Traces.trace;
import static org.assertj.core.api.Assertions.assertThat;

import io.tracegraph.domain.Traces;
import io.tracegraph.domain.trace.CaptureContract;
import io.tracegraph.domain.trace.ComparisonIdentity;
import io.tracegraph.domain.trace.CoverageLevel;
import io.tracegraph.domain.trace.MeasurementScope;
import io.tracegraph.domain.trace.TraceSchemas;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The health rules of trace/7 to /10, with the assertions of candle-graph's own health tests
 * ({@code src/trace/health.rs} at 0.8.0 and 0.9.5) ported, and each rule's exact message.
 */
class CaptureHealthRulesTest {

    /** candle-graph's {@code failed_document()}: one open, unmeasured root; failed "boom" at 10. */
    private static Traces.TraceBuilder failedDocument() {
        return trace().failed("boom", 10).span(span("root").name("demo").open());
    }

    /** The same, completed: the root measured, closed, 5 ns. */
    private static Traces.TraceBuilder completeDocument() {
        return trace().complete(10).span(span("root").name("demo").measured().duration(5));
    }

    private static CaptureContract labels(List<String> required, List<String> gpu, List<String> cpu) {
        CaptureContract none = CaptureContract.NOTHING_DECLARED;
        return new CaptureContract(none.measurementScope(), none.operations(), none.tensors(), none.gradients(), null,
                none.logicalMemory(), none.physicalMemory(), none.deviceTiming(), required, gpu, cpu);
    }

    private static HealthIssue issue(TraceHealth health, String code) {
        return health.issues().stream().filter(i -> i.code().equals(code)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + code + " in " + health.issues()));
    }

    private static List<String> errors(TraceHealth health) {
        return health.errors().stream().map(HealthIssue::message).toList();
    }

    @Test
    void failedCaptureIsDiagnosableWithoutBecomingComplete() {
        TraceHealth health = HealthAnalyzer.analyze(failedDocument().build());

        assertThat(health.structurallyValid()).isTrue();
        assertThat(health.captureComplete()).isFalse();
        assertThat(health.trusted()).isFalse();
        assertThat(issue(health, "capture_failed")).isEqualTo(new HealthIssue(HealthSeverity.WARNING, "capture_failed", "boom"));
        assertThat(issue(health, "open_span"))
                .isEqualTo(new HealthIssue(HealthSeverity.WARNING, "open_span", "span `root` was interrupted"));
        assertThat(health.untrustedMessage()).isEqualTo("capture failed: boom");
    }

    @Test
    void completeCaptureRequiresEachDeclaredSemanticLabelExactlyOnce() {
        TraceHealth missing = HealthAnalyzer.analyze(completeDocument()
                .contract(labels(List.of("missing"), List.of(), List.of())).build());
        assertThat(missing.structurallyValid()).isFalse();
        assertThat(errors(missing)).containsExactly("required semantic label `missing` must occur exactly once; observed 0");

        TraceHealth duplicate = HealthAnalyzer.analyze(completeDocument()
                .contract(labels(List.of("demo", "demo"), List.of(), List.of())).build());
        assertThat(issue(duplicate, "duplicate_required_semantic_label").severity()).isEqualTo(HealthSeverity.ERROR);
        assertThat(issue(duplicate, "duplicate_required_semantic_label").message())
                .isEqualTo("required semantic label `demo` is declared more than once");

        TraceHealth repeated = HealthAnalyzer.analyze(completeDocument()
                .contract(labels(List.of("demo"), List.of(), List.of()))
                .span(span("child").name("demo").parent("root").duration(1)).build());
        assertThat(errors(repeated)).containsExactly("required semantic label `demo` must occur exactly once; observed 2");
    }

    @Test
    void failedCaptureKeepsMissingRequiredLabelsDiagnostic() {
        TraceHealth health = HealthAnalyzer.analyze(failedDocument()
                .contract(labels(List.of("missing"), List.of(), List.of())).build());

        assertThat(health.structurallyValid()).isTrue();
        assertThat(issue(health, "required_semantic_label_cardinality").severity()).isEqualTo(HealthSeverity.WARNING);
    }

    @Test
    void beforeTrace10RequiredLabelsAreWarnings() {
        for (String schema : List.of(TraceSchemas.TRACE_7, TraceSchemas.TRACE_8, TraceSchemas.TRACE_9)) {
            TraceHealth health = HealthAnalyzer.analyze(completeDocument().schema(schema)
                    .contract(labels(List.of("missing", " "), List.of("missing"), List.of())).build());
            assertThat(health.structurallyValid()).as(schema).isTrue();
            assertThat(issue(health, "required_semantic_label_cardinality").severity()).isEqualTo(HealthSeverity.WARNING);
            assertThat(health.issues()).extracting(HealthIssue::code)
                    .doesNotContain("empty_required_semantic_label", "incomplete_semantic_label_partition");
        }
    }

    @Test
    void completeCaptureRejectsAnIncompleteSemanticLabelPartition() {
        TraceHealth health = HealthAnalyzer.analyze(completeDocument()
                .span(span("prep").name("prepare").parent("root").duration(1))
                .contract(labels(List.of("demo", "prepare"), List.of("demo"), List.of())).build());

        assertThat(errors(health)).containsExactly(
                "GPU-expected and CPU-only semantic labels must partition all required application labels");
    }

    @Test
    void labelClassificationIssuesNameTheirClass() {
        TraceHealth health = HealthAnalyzer.analyze(completeDocument()
                .contract(labels(List.of("demo"), List.of("demo", "extra"), List.of("demo"))).build());

        assertThat(errors(health)).containsExactly(
                "GPU-expected semantic label `extra` is not a required application label",
                "semantic label `demo` is classified as both GPU-expected and CPU-only",
                "GPU-expected and CPU-only semantic labels must partition all required application labels");
    }

    @Test
    void outOfDomainRunProvenanceIsAStructuralErrorInTrace10() {
        TraceHealth zeroStep = HealthAnalyzer.analyze(failedDocument().steps(0, 0).build());
        assertThat(issue(zeroStep, "run_provenance_invalid")).isEqualTo(new HealthIssue(HealthSeverity.ERROR,
                "run_provenance_invalid", "capture_step must be one-based and greater than zero"));

        TraceHealth warmup = HealthAnalyzer.analyze(failedDocument().steps(3, 3).build());
        assertThat(errors(warmup)).containsExactly("warmup_steps (3) must be fewer than the one-based capture_step (3)");

        TraceHealth blank = HealthAnalyzer.analyze(failedDocument().entrypoint("   ").build());
        assertThat(errors(blank)).containsExactly("run provenance entrypoint must not be empty");

        TraceHealth identity = HealthAnalyzer.analyze(failedDocument().identity(new ComparisonIdentity(" ", "w", "m",
                "c", "d", "fixed", 8, 1, "bf16", "warm", null)).build());
        assertThat(errors(identity)).containsExactly("comparison identity implementation_id must not be empty when declared");

        TraceHealth batch = HealthAnalyzer.analyze(failedDocument().identity(new ComparisonIdentity(null, "w", "m",
                "c", "d", "fixed", 0, 1, "bf16", "warm", null)).build());
        assertThat(errors(batch)).containsExactly("comparison identity physical_batch must be greater than zero");

        TraceHealth before = HealthAnalyzer.analyze(failedDocument().schema(TraceSchemas.TRACE_9).steps(0, 0).build());
        assertThat(before.structurallyValid()).as("trace/9 does not check provenance").isTrue();
    }

    @Test
    void memoryEventsOutsideTheirClosedSpanAreRejectedInTrace10() {
        Traces.TraceBuilder doc = failedDocument().failed("boom", 100)
                .span(span("late").parent("root").start(10).duration(20))
                .memory(alloc("late", "late", 8).at(50).storage("late-storage"));

        assertThat(errors(HealthAnalyzer.analyze(doc.build())))
                .containsExactly("memory event for storage `late-storage` lies outside span `late`");
        assertThat(HealthAnalyzer.analyze(doc.schema(TraceSchemas.TRACE_9).build()).structurallyValid()).isTrue();
    }

    @Test
    void distinctTensorAliasesShareOneLiveStorage() {
        TraceHealth health = HealthAnalyzer.analyze(failedDocument()
                .memory(alloc("base", "root", 64).at(1).storage("shared"))
                .memory(alloc("view", "root", 64).at(2).storage("shared"))
                .memory(free("view", "root", 64).at(3).storage("shared"))
                .build());

        assertThat(health.structurallyValid()).isTrue();
        assertThat(health.issues()).extracting(HealthIssue::code).doesNotContain("duplicate_allocation", "retained_allocations");
    }

    @Test
    void storagesPairByDeviceAndStorageIdWithTheirBytes() {
        TraceHealth health = HealthAnalyzer.analyze(completeDocument()
                .memory(alloc("a", "root", 64).at(1).storage("s1"))
                .memory(alloc("b", "root", 32).at(2).storage("s1"))
                .memory(alloc("a", "root", 64).at(2).storage("s1"))
                .memory(free("a", "root", 16).at(3).storage("s1"))
                .memory(free("a", "root", 16).at(4).storage("s1"))
                .memory(alloc("c", "root", 8).at(4).storage("s2").on("cuda:0"))
                .build());

        assertThat(errors(health)).containsExactly(
                "storage `s1` on `cpu` has conflicting allocation sizes",
                "tensor `a` repeated an allocation for storage `s1` on `cpu`",
                "storage `s1` allocated 64 bytes but freed 16",
                "storage `s1` on `cpu` was freed while not live");
        assertThat(issue(health, "retained_allocations").message()).isEqualTo("1 storages remained live at capture end");
    }

    @Test
    void terminalOutcomeRulesAreAlsoHealthIssuesForDocumentsBuiltInMemory() {
        TraceHealth reason = HealthAnalyzer.analyze(completeDocument().outcome(
                new io.tracegraph.domain.trace.RunOutcome(io.tracegraph.domain.trace.RunOutcome.Status.COMPLETE, "x", 10L))
                .build());
        assertThat(errors(reason)).containsExactly("complete terminal outcome cannot contain a failure reason");

        TraceHealth blank = HealthAnalyzer.analyze(failedDocument().failed(" ", 10).build());
        assertThat(errors(blank)).containsExactly("failed terminal outcome requires a non-empty reason");

        TraceHealth early = HealthAnalyzer.analyze(completeDocument().complete(4).build());
        assertThat(errors(early)).containsExactly("terminal timestamp 4 precedes host evidence ending at 5");
    }

    @Test
    void spansOpsIntervalsAndEdgesFollowTheTrace7Rules() {
        TraceHealth health = HealthAnalyzer.analyze(trace().complete(100)
                .span(span("root").duration(100).measured())
                .span(span("a").parent("root").start(10).duration(20))
                .span(span("b").parent("a").start(5).duration(50))
                .op(op("a", "matmul").at(25).duration(10))
                .interval("a", "cuda:0", 0, 0)
                .interval("ghost", "cuda:0", 0, 1)
                .edge(Traces.edge("root", "b", 50))
                .edge(Traces.edge("root", "a", 19))
                .edge(Traces.edge("root", "nowhere", 1))
                .dataEdge("x", "")
                .dataEdge("x", "y")
                .build());

        assertThat(errors(health)).containsExactly(
                "span `b` lies outside parent `a`",
                "device interval evidence refers to missing span `ghost`",
                "device interval for `a` has zero duration",
                "operation `matmul` lies outside span `a`",
                "call edge `root` -> `b` does not match the span hierarchy",
                "call edge `root` -> `a` reports 19 ns but the span reports 20 ns",
                "call edge `root` -> `nowhere` refers to a missing span",
                "data-edge tensor IDs cannot be empty",
                "data edge `x` -> `y` refers to unknown tensor evidence");
        assertThat(health.issues()).extracting(HealthIssue::code).doesNotContain("children_exceed_parent");
    }

    @Test
    void dataEdgeEndpointsAreFoundAmongOpInputsAndOutputs() {
        TraceHealth health = HealthAnalyzer.analyze(trace().complete(100)
                .span(span("root").duration(100).measured())
                .op(op("root", "matmul").at(10).duration(10).inputs("x", "w").output("h"))
                .op(op("root", "relu").at(30).duration(10).inputs("h").output("r"))
                .dataEdge("x", "h")
                .dataEdge("w", "r")
                .dataEdge("h", "r")
                .dataEdge("r", "gone")
                .dataEdge("lost", "w")
                .build());

        assertThat(errors(health)).containsExactly(
                "data edge `r` -> `gone` refers to unknown tensor evidence",
                "data edge `lost` -> `w` refers to unknown tensor evidence");
    }

    @Test
    void gapWarningsUseTheTrace7WordsAndCoverageSplitsEdges() {
        TraceHealth health = HealthAnalyzer.analyze(trace().complete(10).phase(io.tracegraph.domain.trace.ExecutionPhase.TRAIN)
                .span(span("root").duration(10).measured())
                .edge(Traces.edge("x", "y", 1)).dataEdge("a", "b").build());

        assertThat(health.gaps()).containsExactly(
                "no operation evidence was captured",
                "no tensor checkpoints were captured",
                "no logical storage events were captured",
                "no physical device-memory samples were captured",
                "no device timing intervals were captured",
                "no gradient facts were captured for this training run",
                "no forward span was tagged",
                "no backward span was tagged",
                "no optimizer span was tagged");
        assertThat(health.coverage().callEdges()).isEqualTo(1);
        assertThat(health.coverage().dataEdges()).isEqualTo(1);
        assertThat(health.coverage().edges()).isEqualTo(2);
    }

    @Test
    void aCompleteStructurallyValidCaptureIsTrusted() {
        TraceHealth health = HealthAnalyzer.analyze(completeDocument().contract(new CaptureContract(
                MeasurementScope.PRODUCTION_EQUIVALENT, CoverageLevel.COMPLETE, CoverageLevel.NONE, CoverageLevel.NONE,
                null, CoverageLevel.NONE, CoverageLevel.NONE, CoverageLevel.NONE, List.of("demo"), List.of(), List.of()))
                .build());

        assertThat(health.trusted()).isTrue();
        assertThat(health.structurallyValid()).isTrue();
        assertThat(health.captureComplete()).isTrue();
    }
}
