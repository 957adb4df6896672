package io.tracegraph.domain.health;

import static io.tracegraph.domain.Traces.alloc;
import static io.tracegraph.domain.Traces.deviceMemory;
import static io.tracegraph.domain.Traces.edge;
import static io.tracegraph.domain.Traces.free;
import static io.tracegraph.domain.Traces.gradient;
import static io.tracegraph.domain.Traces.op;
import static io.tracegraph.domain.Traces.span;
import static io.tracegraph.domain.Traces.tensor;
import static io.tracegraph.domain.Traces.trace;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tracegraph.domain.Traces;
import io.tracegraph.domain.trace.ExecutionPhase;
import io.tracegraph.domain.trace.ExecutionStep;
import io.tracegraph.domain.trace.GradientState;
import io.tracegraph.domain.trace.TraceDocument;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class HealthAnalyzerTest {
    private static final long MAX = Long.MAX_VALUE;

    private static HealthIssue error(String code, String message) {
        return new HealthIssue(HealthSeverity.ERROR, code, message);
    }

    private static HealthIssue warning(String code, String message) {
        return new HealthIssue(HealthSeverity.WARNING, code, message);
    }

    /** An inference trace with every kind of evidence, so that no gap warning fires. */
    private static Traces.TraceBuilder complete() {
        return trace()
                .span(span("root").duration(100).measured())
                .span(span("a").parent("root").start(10).duration(50))
                .op(op("a", "mm").output("t").duration(5))
                .tensor(tensor("a", "t"))
                .memory(alloc("t", "a", 8).at(1))
                .memory(free("t", "a", 8).at(2))
                .deviceMemory(deviceMemory("cpu", 0, 8, 8));
    }

    private static List<HealthIssue> issuesOf(TraceDocument doc) {
        return HealthAnalyzer.analyze(doc).issues();
    }

    @Test
    void findsNoIssueInACompleteWellFormedTrace() {
        TraceHealth health = HealthAnalyzer.analyze(complete().build());

        assertThat(health.issues()).isEmpty();
        assertThat(health.trusted()).isTrue();
    }

    @Nested
    class SpanStructure {
        @Test
        void reportsDuplicateSpanIds() {
            TraceDocument doc = complete().span(span("a").parent("root").start(10).duration(50)).build();

            assertThat(issuesOf(doc)).containsExactly(
                    error("duplicate_span_id", "span IDs must be unique; found 3 records but 2 unique IDs"));
        }

        @Test
        void resolvesParentsOfDuplicateIdsToTheLaterSpan() {
            TraceDocument doc = complete()
                    .span(span("p").parent("root").start(0).duration(10))
                    .span(span("p").parent("root").start(50).duration(40))
                    .span(span("c").parent("p").start(60).duration(10))
                    .build();

            assertThat(issuesOf(doc)).containsExactly(
                    error("duplicate_span_id", "span IDs must be unique; found 5 records but 4 unique IDs"));
        }

        @Test
        void requiresExactlyOneRoot() {
            TraceDocument doc = complete().span(span("other").duration(1)).build();

            assertThat(issuesOf(doc)).containsExactly(error("root_count", "expected exactly one root span, found 2"));
        }

        @Test
        void requiresExactlyOneMeasuredRegion() {
            TraceDocument none = trace().span(span("root").duration(10)).build();
            TraceDocument two = trace()
                    .span(span("root").duration(10).measured())
                    .span(span("a").parent("root").duration(5).measured())
                    .build();

            assertThat(issuesOf(none)).contains(
                    error("measurement_count", "expected exactly one measured region, found 0"));
            assertThat(issuesOf(two)).contains(
                    error("measurement_count", "expected exactly one measured region, found 2"));
            assertThat(issuesOf(two)).extracting(HealthIssue::code).doesNotContain("root_count");
        }

        @Test
        void reportsOpenSpans() {
            TraceDocument doc = complete().span(span("late").parent("root").start(70).open()).build();

            assertThat(issuesOf(doc)).containsExactly(error("open_span", "span `late` was not closed"));
        }

        @Test
        void reportsMissingParentWithoutCheckingItsInterval() {
            TraceDocument doc = complete().span(span("orphan").parent("ghost").start(500).duration(5)).build();

            assertThat(issuesOf(doc)).containsExactly(
                    error("unknown_parent", "span `orphan` refers to missing parent `ghost`"));
        }

        @Test
        void reportsChildStartingBeforeOrEndingAfterItsParent() {
            TraceDocument doc = trace()
                    .span(span("root").start(10).duration(100).measured())
                    .span(span("early").parent("root").start(5).duration(10))
                    .span(span("late").parent("root").start(50).duration(61))
                    .span(span("flush").parent("root").start(10).duration(100))
                    .build();

            assertThat(HealthAnalyzer.analyze(doc).errors()).containsExactly(
                    error("child_outside_parent",
                            "span `early` interval 5..15 is outside parent `root` interval 10..110"),
                    error("child_outside_parent",
                            "span `late` interval 50..111 is outside parent `root` interval 10..110"),
                    error("children_exceed_parent",
                            "children of span `root` total 171 ns, exceeding its 100 ns duration"));
        }

        @Test
        void saturatesIntervalEndsAtTheLargestValue() {
            TraceDocument doc = trace()
                    .span(span("root").start(10).duration(MAX).measured())
                    .span(span("inside").parent("root").start(20).duration(MAX))
                    .span(span("early").parent("root").start(5).duration(MAX))
                    .build();

            assertThat(HealthAnalyzer.analyze(doc).errors()).containsExactly(error("child_outside_parent",
                    "span `early` interval 5..9223372036854775807 is outside parent `root` interval "
                            + "10..9223372036854775807"));
        }

        @Test
        void reportsEverySpanOnOrBelowAParentCycle() {
            TraceDocument doc = trace()
                    .span(span("root").duration(10).measured())
                    .span(span("a").parent("b"))
                    .span(span("b").parent("a"))
                    .span(span("c").parent("a"))
                    .span(span("self").parent("self"))
                    .span(span("fine").parent("root").duration(1))
                    .build();

            assertThat(HealthAnalyzer.analyze(doc).errors()).containsExactly(
                    error("span_cycle", "span `a` participates in a parent cycle"),
                    error("span_cycle", "span `b` participates in a parent cycle"),
                    error("span_cycle", "span `c` participates in a parent cycle"),
                    error("span_cycle", "span `self` participates in a parent cycle"));
        }

        @Test
        void countsNoRootWhenEverySpanIsOnACycle() {
            TraceDocument doc = trace()
                    .span(span("a").parent("b").measured())
                    .span(span("b").parent("a"))
                    .build();

            assertThat(HealthAnalyzer.analyze(doc).errors()).containsExactly(
                    error("root_count", "expected exactly one root span, found 0"),
                    error("span_cycle", "span `a` participates in a parent cycle"),
                    error("span_cycle", "span `b` participates in a parent cycle"));
        }

        @Test
        void checksEachSpanCompletelyBeforeTheNext() {
            TraceDocument doc = trace()
                    .span(span("root").duration(100).measured())
                    .span(span("a").parent("ghost").open())
                    .span(span("b").parent("root").start(90).duration(20))
                    .span(span("c").parent("d").open())
                    .span(span("d").parent("c"))
                    .build();

            assertThat(HealthAnalyzer.analyze(doc).errors()).containsExactly(
                    error("open_span", "span `a` was not closed"),
                    error("unknown_parent", "span `a` refers to missing parent `ghost`"),
                    error("child_outside_parent", "span `b` interval 90..110 is outside parent `root` interval 0..100"),
                    error("open_span", "span `c` was not closed"),
                    error("span_cycle", "span `c` participates in a parent cycle"),
                    error("span_cycle", "span `d` participates in a parent cycle"));
        }

        @Test
        void reportsChildrenWhoseDurationsExceedTheParents() {
            TraceDocument doc = trace()
                    .span(span("root").duration(100).measured())
                    .span(span("a").parent("root").duration(60))
                    .span(span("b").parent("root").start(40).duration(60))
                    .build();

            assertThat(HealthAnalyzer.analyze(doc).errors()).containsExactly(error("children_exceed_parent",
                    "children of span `root` total 120 ns, exceeding its 100 ns duration"));
        }

        @Test
        void saturatesTheChildDurationSumInsteadOfWrapping() {
            TraceDocument doc = trace()
                    .span(span("root").duration(MAX - 1).measured())
                    .span(span("a").parent("root").duration(MAX - 1))
                    .span(span("b").parent("root").duration(2))
                    .build();

            assertThat(HealthAnalyzer.analyze(doc).errors()).containsExactly(error("children_exceed_parent",
                    "children of span `root` total 9223372036854775807 ns, exceeding its 9223372036854775806 ns duration"));
        }
    }

    @Nested
    class Evidence {
        @Test
        void reportsOpsThenTensorsThenMemoryOnMissingSpans() {
            TraceDocument doc = complete()
                    .memory(alloc("m", "gone", 1).at(5))
                    .tensor(tensor("nowhere", "x"))
                    .op(op("missing", "add"))
                    .op(op("missing2", "mul"))
                    .build();

            assertThat(HealthAnalyzer.analyze(doc).errors()).containsExactly(
                    error("unknown_span", "operation evidence refers to missing span `missing`"),
                    error("unknown_span", "operation evidence refers to missing span `missing2`"),
                    error("unknown_span", "tensor evidence refers to missing span `nowhere`"),
                    error("unknown_span", "memory evidence refers to missing span `gone`"));
        }

        @Test
        void reportsEdgesToOrFromMissingSpansOncePerEdge() {
            TraceDocument doc = complete()
                    .edge(edge("root", "a", 1))
                    .edge(edge("root", "ghost", 1))
                    .edge(edge("ghost", "ghost2", 1))
                    .build();

            assertThat(HealthAnalyzer.analyze(doc).errors()).containsExactly(
                    error("unknown_edge_span", "edge `root` -> `ghost` refers to a missing span"),
                    error("unknown_edge_span", "edge `ghost` -> `ghost2` refers to a missing span"));
        }
    }

    @Nested
    class Allocations {
        @Test
        void reportsASecondAllocationOfALiveTensor() {
            TraceDocument doc = complete()
                    .memory(alloc("w", "a", 4).at(10))
                    .memory(alloc("w", "a", 4).at(11))
                    .build();

            assertThat(issuesOf(doc)).containsExactly(
                    error("duplicate_allocation", "tensor `w` was allocated twice without a free"),
                    warning("retained_allocations", "1 explicit allocations remained live at measurement end"));
        }

        @Test
        void reportsAFreeWithoutLiveAllocation() {
            TraceDocument doc = complete().memory(free("w", "a", 4).at(10)).build();

            assertThat(issuesOf(doc)).containsExactly(
                    error("unpaired_free", "tensor `w` was freed without a live allocation"));
        }

        @Test
        void replaysMemoryByTimestampWithFileOrderBreakingTies() {
            TraceDocument later = complete()
                    .memory(alloc("w", "a", 4).at(10))
                    .memory(free("w", "a", 4).at(5))
                    .build();
            TraceDocument tieFreeFirst = complete()
                    .memory(free("w", "a", 4).at(5))
                    .memory(alloc("w", "a", 4).at(5))
                    .build();
            TraceDocument tieAllocFirst = complete()
                    .memory(alloc("w", "a", 4).at(5))
                    .memory(free("w", "a", 4).at(5))
                    .build();

            List<HealthIssue> expected = List.of(
                    error("unpaired_free", "tensor `w` was freed without a live allocation"),
                    warning("retained_allocations", "1 explicit allocations remained live at measurement end"));
            assertThat(issuesOf(later)).isEqualTo(expected);
            assertThat(issuesOf(tieFreeFirst)).isEqualTo(expected);
            assertThat(issuesOf(tieAllocFirst)).isEmpty();
        }

        @Test
        void keysLiveTensorsByDeviceAndTensorId() {
            TraceDocument twoDevices = complete()
                    .memory(alloc("w", "a", 4).at(10))
                    .memory(alloc("w", "a", 4).at(11).on("cuda:0"))
                    .memory(free("w", "a", 4).at(12).on("cuda:0"))
                    .memory(free("w", "a", 4).at(13))
                    .build();
            TraceDocument wrongDevice = complete()
                    .memory(alloc("w", "a", 4).at(10))
                    .memory(free("w", "a", 4).at(11).on("cuda:0"))
                    .build();

            assertThat(issuesOf(twoDevices)).isEmpty();
            assertThat(issuesOf(wrongDevice)).containsExactly(
                    error("unpaired_free", "tensor `w` was freed without a live allocation"),
                    warning("retained_allocations", "1 explicit allocations remained live at measurement end"));
        }

        @Test
        void warnsAboutAllocationsLiveAtTheEndWithoutLosingTrust() {
            TraceDocument doc = complete()
                    .memory(alloc("w", "a", 4).at(10))
                    .memory(alloc("w", "a", 4).at(11).on("cuda:0"))
                    .memory(alloc("kv", "a", 4).at(12))
                    .build();

            TraceHealth health = HealthAnalyzer.analyze(doc);

            assertThat(health.issues()).containsExactly(
                    warning("retained_allocations", "3 explicit allocations remained live at measurement end"));
            assertThat(health.trusted()).isTrue();
        }
    }

    @Nested
    class Gaps {
        @Test
        void warnsAboutEveryMissingKindOfEvidenceInATrainingRun() {
            TraceDocument doc = trace()
                    .phase(ExecutionPhase.TRAIN)
                    .span(span("root").duration(10).measured())
                    .build();

            TraceHealth health = HealthAnalyzer.analyze(doc);

            assertThat(health.issues()).containsExactly(
                    warning("operations_absent", "no timed operation evidence was captured"),
                    warning("tensors_absent", "no tensor checkpoints were captured"),
                    warning("memory_absent", "no tensor memory events were captured"),
                    warning("device_memory_absent", "no device-memory checkpoints were captured"),
                    warning("gradients_absent", "no gradient facts were captured for this training run"),
                    warning("forward_absent", "no forward span was tagged"),
                    warning("backward_absent", "no backward span was tagged"),
                    warning("optimizer_absent", "no optimizer span was tagged"));
            assertThat(health.trusted()).isTrue();
        }

        @Test
        void asksInferenceRunsForNoGradientsOrSteps() {
            TraceDocument doc = trace().span(span("root").duration(10).measured()).build();

            assertThat(issuesOf(doc)).extracting(HealthIssue::code).containsExactly(
                    "operations_absent", "tensors_absent", "memory_absent", "device_memory_absent");
        }

        @Test
        void warnsAboutEachTrainingGapOnlyWhileItIsOpen() {
            Traces.TraceBuilder builder = complete().phase(ExecutionPhase.TRAIN);
            assertThat(issuesOf(builder.build())).extracting(HealthIssue::code).containsExactly(
                    "gradients_absent", "forward_absent", "backward_absent", "optimizer_absent");

            builder.gradient(gradient("w", GradientState.MISSING, null));
            assertThat(issuesOf(builder.build())).extracting(HealthIssue::code).containsExactly(
                    "forward_absent", "backward_absent", "optimizer_absent");

            builder.span(span("fw").parent("root").start(10).step(ExecutionStep.FORWARD));
            assertThat(issuesOf(builder.build())).extracting(HealthIssue::code).containsExactly(
                    "backward_absent", "optimizer_absent");

            builder.span(span("bw").parent("root").start(10).step(ExecutionStep.BACKWARD));
            assertThat(issuesOf(builder.build())).extracting(HealthIssue::code).containsExactly("optimizer_absent");

            builder.span(span("opt").parent("root").start(10).step(ExecutionStep.OPTIMIZER));
            assertThat(issuesOf(builder.build())).isEmpty();
        }

        @Test
        void warnsAboutEachGeneralGapSeparately() {
            TraceDocument noOps = trace().span(span("root").duration(10).measured())
                    .tensor(tensor("root", "t")).memory(alloc("t", "root", 1)).memory(free("t", "root", 1))
                    .deviceMemory(deviceMemory("cpu", 0, 1, 1)).build();
            TraceDocument noDeviceMemory = trace().span(span("root").duration(10).measured())
                    .op(op("root", "x")).tensor(tensor("root", "t")).memory(alloc("t", "root", 1))
                    .memory(free("t", "root", 1)).build();

            assertThat(issuesOf(noOps)).extracting(HealthIssue::code).containsExactly("operations_absent");
            assertThat(issuesOf(noDeviceMemory)).extracting(HealthIssue::code).containsExactly("device_memory_absent");
        }
    }

    @Test
    void appendsIssuesInTheOrderOfTheChecks() {
        TraceDocument doc = trace()
                .phase(ExecutionPhase.TRAIN)
                .edge(edge("x", "nowhere", 1))
                .memory(alloc("t", "nowhere", 1).at(3))
                .memory(alloc("t", "nowhere", 1).at(4))
                .memory(free("u", "root", 1).at(1))
                .tensor(tensor("nowhere", "t"))
                .op(op("nowhere", "add"))
                .span(span("root").duration(10))
                .span(span("x").parent("root").duration(8))
                .span(span("x").parent("root").duration(8))
                .span(span("y").open())
                .build();

        assertThat(issuesOf(doc)).extracting(HealthIssue::code).containsExactly(
                "duplicate_span_id",
                "root_count",
                "measurement_count",
                "open_span",
                "children_exceed_parent",
                "unknown_span",
                "unknown_span",
                "unknown_span",
                "unknown_span",
                "unknown_edge_span",
                "unpaired_free",
                "duplicate_allocation",
                "retained_allocations",
                "device_memory_absent",
                "gradients_absent",
                "forward_absent",
                "backward_absent",
                "optimizer_absent");
    }

    @Test
    void countsCoverage() {
        TraceDocument doc = trace()
                .span(span("root").duration(100).measured())
                .span(span("f1").parent("root").step(ExecutionStep.FORWARD))
                .span(span("f2").parent("root").step(ExecutionStep.FORWARD))
                .span(span("b1").parent("root").step(ExecutionStep.BACKWARD).open())
                .span(span("o1").parent("root").step(ExecutionStep.OPTIMIZER).measured())
                .span(span("o2").parent("root").step(ExecutionStep.OPTIMIZER))
                .span(span("o3").parent("root").step(ExecutionStep.OPTIMIZER))
                .span(span("loose").open())
                .op(op("root", "a")).op(op("root", "b"))
                .tensor(tensor("root", "t")).tensor(tensor("root", "u")).tensor(tensor("root", "v"))
                .memory(alloc("t", "root", 1)).memory(free("t", "root", 1)).memory(alloc("u", "root", 1))
                .memory(free("u", "root", 1))
                .deviceMemory(deviceMemory("cpu", 0, 0, 0)).deviceMemory(deviceMemory("cpu", 1, 0, 0))
                .deviceMemory(deviceMemory("cpu", 2, 0, 0)).deviceMemory(deviceMemory("cpu", 3, 0, 0))
                .deviceMemory(deviceMemory("cpu", 4, 0, 0))
                .gradient(gradient("w", GradientState.PRESENT, 1.0))
                .edge(edge("root", "f1", 1)).edge(edge("root", "f2", 1)).edge(edge("f1", "f2", 1))
                .edge(edge("f2", "f1", 1)).edge(edge("root", "o1", 1)).edge(edge("o1", "o2", 1))
                .build();

        assertThat(HealthAnalyzer.analyze(doc).coverage()).isEqualTo(new Coverage(8, 6, 2, 2, 2, 3, 4, 5, 1, 6, 2, 1, 3));
    }

    @Nested
    class Trust {
        @Test
        void trustsATraceWithWarningsOnlyAndListsThemAsGaps() {
            TraceHealth health = HealthAnalyzer.analyze(trace().span(span("root").duration(1).measured()).build());

            assertThat(health.trusted()).isTrue();
            assertThat(health.errors()).isEmpty();
            assertThat(health.gaps()).containsExactly("no timed operation evidence was captured",
                    "no tensor checkpoints were captured", "no tensor memory events were captured",
                    "no device-memory checkpoints were captured");
        }

        @Test
        void distrustsATraceWithASingleError() {
            TraceHealth health = HealthAnalyzer.analyze(complete().edge(edge("root", "ghost", 1)).build());

            assertThat(health.trusted()).isFalse();
            assertThat(health.gaps()).isEmpty();
            assertThat(health.untrustedMessage()).isEqualTo(
                    "trace is structurally untrusted: edge `root` -> `ghost` refers to a missing span");
        }

        @Test
        void refusesATrustedFlagThatContradictsTheIssues() {
            Coverage coverage = new Coverage(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
            List<HealthIssue> errors = List.of(error("open_span", "span `a` was not closed"));
            List<HealthIssue> warnings = List.of(warning("tensors_absent", "no tensor checkpoints were captured"));

            assertThatThrownBy(() -> new TraceHealth(true, errors, coverage))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> new TraceHealth(false, warnings, coverage))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }
}
