package io.tracegraph.domain.health;

import io.tracegraph.domain.trace.CaptureNote;
import io.tracegraph.domain.trace.EdgeEvent;
import io.tracegraph.domain.trace.Evidence;
import io.tracegraph.domain.trace.ExecutionPhase;
import io.tracegraph.domain.trace.ExecutionStep;
import io.tracegraph.domain.trace.MemoryAction;
import io.tracegraph.domain.trace.MemoryEvent;
import io.tracegraph.domain.trace.OpEvent;
import io.tracegraph.domain.trace.Saturating;
import io.tracegraph.domain.trace.SpanPositions;
import io.tracegraph.domain.trace.SpanRecord;
import io.tracegraph.domain.trace.TensorEvent;
import io.tracegraph.domain.trace.TraceDocument;
import io.tracegraph.domain.trace.TraceOrigin;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The structural health checks of spec section 3, in the original's order, in linear time. A
 * document that declares its outcome (a terminal record: candle-graph trace/7 and later) is checked
 * by the rules of its revision instead ({@link CaptureHealthRules}); one that does not, whatever its
 * schema, by the trace/6 rules below.
 */
public final class HealthAnalyzer {
    private HealthAnalyzer() {
    }

    public static TraceHealth analyze(TraceDocument doc) {
        if (doc.outcome().isDeclared()) {
            return CaptureHealthRules.analyze(doc);
        }
        return analyzeTrace6(doc);
    }

    private static TraceHealth analyzeTrace6(TraceDocument doc) {
        List<SpanRecord> spans = doc.spans();
        List<HealthIssue> issues = new ArrayList<>();
        // Spans by id as positions (a later duplicate takes the id), parents as positions: the
        // checks below look each id up once instead of once per question.
        int n = spans.size();
        Map<String, Integer> index = SpanPositions.byId(spans);
        if (index.size() != n) {
            issues.add(error("duplicate_span_id", "span IDs must be unique; found " + n
                    + " records but " + index.size() + " unique IDs"));
        }
        int[] parentOf = new int[n];
        long roots = 0;
        long measured = 0;
        for (int i = 0; i < n; i++) {
            SpanRecord span = spans.get(i);
            Integer p = span.parentId() == null ? null : index.get(span.parentId());
            parentOf[i] = p == null ? -1 : p;
            if (span.parentId() == null) {
                roots++;
            }
            if (span.measured()) {
                measured++;
            }
        }
        if (roots != 1) {
            issues.add(error("root_count", "expected exactly one root span, found " + roots));
        }
        if (measured != 1) {
            issues.add(error("measurement_count", "expected exactly one measured region, found " + measured));
        }

        boolean[] reachesCycle = ParentCycles.reaching(parentOf);
        for (int i = 0; i < n; i++) {
            SpanRecord span = spans.get(i);
            if (!span.closed()) {
                issues.add(error("open_span", "span `" + span.id() + "` was not closed"));
            }
            if (span.parentId() != null) {
                if (parentOf[i] < 0) {
                    issues.add(error("unknown_parent",
                            "span `" + span.id() + "` refers to missing parent `" + span.parentId() + "`"));
                } else {
                    SpanRecord parent = spans.get(parentOf[i]);
                    long childEnd = Saturating.add(span.startNs(), span.durationNs());
                    long parentEnd = Saturating.add(parent.startNs(), parent.durationNs());
                    if (span.startNs() < parent.startNs() || childEnd > parentEnd) {
                        issues.add(error("child_outside_parent", "span `" + span.id() + "` interval "
                                + span.startNs() + ".." + childEnd + " is outside parent `" + parent.id()
                                + "` interval " + parent.startNs() + ".." + parentEnd));
                    }
                }
            }
            int holder = index.get(span.id());
            if (holder == i ? reachesCycle[i] : ParentCycles.naiveWalk(span, spans, index)) {
                issues.add(error("span_cycle", "span `" + span.id() + "` participates in a parent cycle"));
            }
        }

        TraceOrigin origin = doc.origin();
        if (!origin.concurrentSpans()) {
            // Children totals by the parent's position (the holder of its id), in span order.
            long[] childTotals = new long[n];
            boolean[] hasChildren = new boolean[n];
            for (int i = 0; i < n; i++) {
                int p = parentOf[i];
                if (p >= 0) {
                    childTotals[p] = hasChildren[p] ? Saturating.add(childTotals[p], spans.get(i).durationNs())
                            : spans.get(i).durationNs();
                    hasChildren[p] = true;
                }
            }
            for (int i = 0; i < n; i++) {
                SpanRecord span = spans.get(i);
                int holder = index.get(span.id());
                if (hasChildren[holder] && childTotals[holder] > span.durationNs()) {
                    issues.add(error("children_exceed_parent", "children of span `" + span.id() + "` total "
                            + childTotals[holder] + " ns, exceeding its " + span.durationNs() + " ns duration"));
                }
            }
        }

        Set<String> ids = index.keySet();
        for (OpEvent op : doc.ops()) {
            if (!ids.contains(op.spanId())) {
                issues.add(error("unknown_span", "operation evidence refers to missing span `" + op.spanId() + "`"));
            }
        }
        for (TensorEvent tensor : doc.tensors()) {
            if (!ids.contains(tensor.spanId())) {
                issues.add(error("unknown_span", "tensor evidence refers to missing span `" + tensor.spanId() + "`"));
            }
        }
        for (MemoryEvent event : doc.memory()) {
            if (!ids.contains(event.spanId())) {
                issues.add(error("unknown_span", "memory evidence refers to missing span `" + event.spanId() + "`"));
            }
        }
        for (EdgeEvent edge : doc.edges()) {
            if (!ids.contains(edge.fromSpan()) || !ids.contains(edge.toSpan())) {
                issues.add(error("unknown_edge_span",
                        "edge `" + edge.fromSpan() + "` -> `" + edge.toSpan() + "` refers to a missing span"));
            }
        }

        long retained = checkAllocations(doc.memory(), issues);
        if (retained > 0) {
            issues.add(warning("retained_allocations",
                    retained + " explicit allocations remained live at measurement end"));
        }

        long forward = countStep(spans, ExecutionStep.FORWARD);
        long backward = countStep(spans, ExecutionStep.BACKWARD);
        long optimizer = countStep(spans, ExecutionStep.OPTIMIZER);
        if (doc.ops().isEmpty() && origin.records(Evidence.OPERATIONS)) {
            issues.add(warning("operations_absent", "no timed operation evidence was captured"));
        }
        if (doc.tensors().isEmpty() && origin.records(Evidence.TENSORS)) {
            issues.add(warning("tensors_absent", "no tensor checkpoints were captured"));
        }
        if (doc.memory().isEmpty() && origin.records(Evidence.MEMORY)) {
            issues.add(warning("memory_absent", "no tensor memory events were captured"));
        }
        if (doc.deviceMemory().isEmpty() && origin.records(Evidence.DEVICE_MEMORY)) {
            issues.add(warning("device_memory_absent", "no device-memory checkpoints were captured"));
        }
        if (doc.run().phase() == ExecutionPhase.TRAIN) {
            if (doc.gradients().isEmpty() && origin.records(Evidence.GRADIENTS)) {
                issues.add(warning("gradients_absent", "no gradient facts were captured for this training run"));
            }
            if (origin.records(Evidence.STEP_TAGS)) {
                if (forward == 0) {
                    issues.add(warning("forward_absent", "no forward span was tagged"));
                }
                if (backward == 0) {
                    issues.add(warning("backward_absent", "no backward span was tagged"));
                }
                if (optimizer == 0) {
                    issues.add(warning("optimizer_absent", "no optimizer span was tagged"));
                }
            }
        }
        for (CaptureNote note : origin.notes()) {
            issues.add(new HealthIssue(note.error() ? HealthSeverity.ERROR : HealthSeverity.WARNING, note.code(),
                    note.message()));
        }

        Coverage coverage = new Coverage(spans.size(), spans.stream().filter(SpanRecord::closed).count(), roots,
                measured, doc.ops().size(), doc.tensors().size(), doc.memory().size(), doc.deviceMemory().size(),
                doc.gradients().size(), doc.edges().size(), forward, backward, optimizer);
        boolean trusted = issues.stream().noneMatch(HealthIssue::isError);
        return new TraceHealth(trusted, issues, coverage);
    }

    /**
     * Replays allocations in timestamp order (file order breaks ties), keyed by (device, tensor id);
     * appends duplicate-allocation and unpaired-free errors and returns how many stay live.
     */
    private static long checkAllocations(List<MemoryEvent> memory, List<HealthIssue> issues) {
        MemoryEvent[] ordered = MemoryEvent.inTimeOrder(memory);
        Map<String, Set<String>> live = new HashMap<>();
        long liveCount = 0;
        for (MemoryEvent event : ordered) {
            Set<String> onDevice = live.computeIfAbsent(event.device(), d -> new HashSet<>());
            if (event.action() == MemoryAction.ALLOC) {
                if (!onDevice.add(event.tensorId())) {
                    issues.add(error("duplicate_allocation",
                            "tensor `" + event.tensorId() + "` was allocated twice without a free"));
                } else {
                    liveCount++;
                }
            } else if (!onDevice.remove(event.tensorId())) {
                issues.add(error("unpaired_free",
                        "tensor `" + event.tensorId() + "` was freed without a live allocation"));
            } else {
                liveCount--;
            }
        }
        return liveCount;
    }

    private static long countStep(List<SpanRecord> spans, ExecutionStep step) {
        return spans.stream().filter(s -> s.step() == step).count();
    }

    private static HealthIssue error(String code, String message) {
        return new HealthIssue(HealthSeverity.ERROR, code, message);
    }

    private static HealthIssue warning(String code, String message) {
        return new HealthIssue(HealthSeverity.WARNING, code, message);
    }

    /**
     * "Does walking up the parent links from this span revisit a span?" for every span at once, over
     * parents given as positions ({@code -1}: none, or not in the trace), in linear total time: each
     * walk stops at a span already answered, and every span it passed gets its answer.
     */
    static final class ParentCycles {
        private ParentCycles() {
        }

        static boolean[] reaching(int[] parentOf) {
            int n = parentOf.length;
            boolean[] result = new boolean[n];
            // 0: not seen, 1: on the current walk, 2: answered.
            byte[] state = new byte[n];
            int[] path = new int[16];
            for (int start = 0; start < n; start++) {
                if (state[start] == 2) {
                    continue;
                }
                int length = 0;
                int current = start;
                boolean answer;
                while (true) {
                    if (state[current] == 2) {
                        answer = result[current];
                        break;
                    }
                    if (state[current] == 1) {
                        answer = true;
                        break;
                    }
                    state[current] = 1;
                    if (length == path.length) {
                        path = Arrays.copyOf(path, length * 2);
                    }
                    path[length++] = current;
                    int parent = parentOf[current];
                    if (parent < 0) {
                        answer = false;
                        break;
                    }
                    current = parent;
                }
                for (int k = 0; k < length; k++) {
                    result[path[k]] = answer;
                    state[path[k]] = 2;
                }
            }
            return result;
        }

        /** The original's walk, for the rare span that lost its id to a later duplicate. */
        static boolean naiveWalk(SpanRecord span, List<SpanRecord> spans, Map<String, Integer> index) {
            return parentWalkRevisits(span, id -> {
                Integer at = index.get(id);
                return at == null ? null : spans.get(at);
            });
        }
    }

    /**
     * The original's walk up the parent links from {@code span}, one id at a time ({@code spanOf}:
     * the span holding an id, or {@code null}): whether it revisits an id.
     */
    static boolean parentWalkRevisits(SpanRecord span, Function<String, SpanRecord> spanOf) {
        Set<String> seen = new HashSet<>();
        seen.add(span.id());
        String parent = span.parentId();
        while (parent != null) {
            if (!seen.add(parent)) {
                return true;
            }
            SpanRecord next = spanOf.apply(parent);
            if (next == null) {
                return false;
            }
            parent = next.parentId();
        }
        return false;
    }
}
