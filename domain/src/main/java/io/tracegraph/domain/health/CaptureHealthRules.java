package io.tracegraph.domain.health;

import static io.tracegraph.domain.task.Tasks.join;

import io.tracegraph.domain.task.Tasks;
import io.tracegraph.domain.trace.CaptureContract;
import io.tracegraph.domain.trace.DataEdgeEvent;
import io.tracegraph.domain.trace.DeviceInterval;
import io.tracegraph.domain.trace.DeviceMemoryEvent;
import io.tracegraph.domain.trace.EdgeEvent;
import io.tracegraph.domain.trace.ExecutionPhase;
import io.tracegraph.domain.trace.ExecutionStep;
import io.tracegraph.domain.trace.MemoryAction;
import io.tracegraph.domain.trace.MemoryEvent;
import io.tracegraph.domain.trace.OpEvent;
import io.tracegraph.domain.trace.RunOutcome;
import io.tracegraph.domain.trace.RustText;
import io.tracegraph.domain.trace.Saturating;
import io.tracegraph.domain.trace.SpanPositions;
import io.tracegraph.domain.trace.SpanRecord;
import io.tracegraph.domain.trace.TensorEvent;
import io.tracegraph.domain.trace.TensorStats;
import io.tracegraph.domain.trace.TraceDocument;
import io.tracegraph.domain.trace.TraceSchemas;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * The health checks of traces with a terminal record (candle-graph trace/7 to /10), in the
 * original's order and words, per revision: trace/7 and /8 as candle-graph 0.8.0 has them, trace/9
 * adds the exact gradient contract, trace/10 the provenance check, memory placement, tensor
 * statistics and required semantic labels as errors (candle-graph 0.9.5). A document of another
 * schema that declares its outcome gets the newest rules. Linear apart from sorting memory records.
 */
final class CaptureHealthRules {
    private final TraceDocument doc;
    private final int revision;
    private final boolean failed;
    private final List<HealthIssue> issues = new ArrayList<>();
    /** Each span id's position in the document (a later duplicate takes the id). */
    private final Map<String, Integer> positions;

    private CaptureHealthRules(TraceDocument doc) {
        this.doc = doc;
        int r = doc.revision();
        this.revision = r >= 7 ? r : TraceSchemas.NEWEST;
        this.failed = doc.outcome().isFailed();
        this.positions = SpanPositions.byId(doc.spans());
    }

    static TraceHealth analyze(TraceDocument doc) {
        return new CaptureHealthRules(doc).run();
    }

    private TraceHealth run() {
        List<SpanRecord> spans = doc.spans();
        RunOutcome outcome = doc.outcome();
        // The storage replay and the gradient manifest check read the document only, and take most
        // of a big trace's checks: they run on threads of their own beside the rest (the memory
        // analysis holds the other core meanwhile), their issues put in their place below.
        CompletableFuture<StorageCheck> storages =
                CompletableFuture.supplyAsync(this::checkStorages, HEALTH_CHECK);
        CompletableFuture<List<HealthIssue>> gradients = revision >= 9
                ? CompletableFuture.supplyAsync(() -> {
                    List<HealthIssue> found = new ArrayList<>();
                    GradientManifestCheck.check(doc, failed, found);
                    return found;
                }, HEALTH_CHECK)
                : null;

        // One pass per record list gathers what the checks below report, in the original's order.
        long latest = 0;
        long closed = 0;
        long roots = 0;
        long measured = 0;
        long forward = 0;
        long backward = 0;
        long optimizer = 0;
        for (SpanRecord span : spans) {
            latest = Math.max(latest, Saturating.add(span.startNs(), span.closed() ? span.durationNs() : 0));
            closed += span.closed() ? 1 : 0;
            roots += span.parentId() == null ? 1 : 0;
            measured += span.measured() ? 1 : 0;
            if (span.step() == ExecutionStep.FORWARD) {
                forward++;
            } else if (span.step() == ExecutionStep.BACKWARD) {
                backward++;
            } else if (span.step() == ExecutionStep.OPTIMIZER) {
                optimizer++;
            }
        }
        List<String> opsUnknown = new ArrayList<>(0);
        List<OpEvent> opsOutside = new ArrayList<>(0);
        latest = Math.max(latest, scanOps(opsUnknown, opsOutside));
        List<String> memoryUnknown = new ArrayList<>(0);
        List<MemoryEvent> memoryOutside = new ArrayList<>(0);
        latest = Math.max(latest, scanMemory(memoryUnknown, memoryOutside));
        for (DeviceMemoryEvent sample : doc.deviceMemory()) {
            latest = Math.max(latest, sample.timestampNs());
        }

        if (revision >= 10) {
            doc.run().provenanceProblem().ifPresent(problem -> error("run_provenance_invalid", problem));
        }
        if (!outcome.isFailed() && outcome.reason() != null) {
            error("complete_with_failure_reason", "complete terminal outcome cannot contain a failure reason");
        } else if (outcome.isFailed() && (outcome.reason() == null || RustText.isBlank(outcome.reason()))) {
            error("failed_without_reason", "failed terminal outcome requires a non-empty reason");
        }
        if (outcome.timestampNs() < latest) {
            error("terminal_precedes_evidence", "terminal timestamp " + outcome.timestampNs()
                    + " precedes host evidence ending at " + latest);
        }
        if (failed) {
            warning("capture_failed",
                    outcome.reason() != null ? outcome.reason() : "capture ended with a failed outcome");
        }
        if (positions.size() != spans.size()) {
            error("duplicate_span_id", "span IDs must be unique");
        }
        if (roots != 1) {
            error("root_count", "expected exactly one root span, found " + roots);
        }
        if (measured != 1 && !failed) {
            error("measurement_count", "expected exactly one measured region, found " + measured);
        }
        checkSpans(spans);
        opsUnknown.forEach(id -> unknownSpan("operation", id));
        for (TensorEvent tensor : doc.tensors()) {
            if (!positions.containsKey(tensor.spanId())) {
                unknownSpan("tensor", tensor.spanId());
            }
        }
        if (revision >= 10) {
            for (TensorStats stats : doc.tensorStats()) {
                if (!positions.containsKey(stats.spanId())) {
                    unknownSpan("tensor stats", stats.spanId());
                }
            }
        }
        memoryUnknown.forEach(id -> unknownSpan("memory", id));
        checkIntervals();
        for (OpEvent op : opsOutside) {
            error("operation_outside_span", "operation `" + op.opName() + "` lies outside span `" + op.spanId() + "`");
        }
        for (MemoryEvent event : memoryOutside) {
            error("memory_outside_span", "memory event for storage `" + event.pairingKey() + "` lies outside span `"
                    + event.spanId() + "`");
        }
        for (DeviceMemoryEvent sample : doc.deviceMemory()) {
            if (sample.isEmpty()) {
                error("empty_device_memory_sample", "device-memory sample for `" + sample.device()
                        + "` contains no measurements");
            }
        }
        checkEdges();
        StorageCheck storage = join(storages);
        issues.addAll(storage.issues);
        if (storage.live > 0) {
            warning("retained_allocations", storage.live + " storages remained live at capture end");
        }
        if (gradients != null) {
            issues.addAll(join(gradients));
        }

        boolean train = doc.run().phase() == ExecutionPhase.TRAIN;
        gap(doc.ops().isEmpty(), "operations_absent", "no operation evidence was captured");
        gap(doc.tensors().isEmpty(), "tensors_absent", "no tensor checkpoints were captured");
        gap(doc.memory().isEmpty(), "logical_memory_absent", "no logical storage events were captured");
        gap(doc.deviceMemory().isEmpty(), "physical_memory_absent", "no physical device-memory samples were captured");
        gap(doc.deviceIntervals().isEmpty(), "device_timing_absent", "no device timing intervals were captured");
        gap(train && doc.gradients().isEmpty(), "gradients_absent",
                "no gradient facts were captured for this training run");
        gap(train && forward == 0, "forward_absent", "no forward span was tagged");
        gap(train && backward == 0, "backward_absent", "no backward span was tagged");
        gap(train && optimizer == 0, "optimizer_absent", "no optimizer span was tagged");
        checkSemanticLabels();

        long callEdges = doc.edges().size();
        long dataEdges = doc.dataEdges().size();
        Coverage coverage = new Coverage(spans.size(), closed, roots, measured, doc.ops().size(), doc.tensors().size(),
                doc.memory().size(), doc.deviceMemory().size(), doc.gradients().size(), callEdges + dataEdges, forward,
                backward, optimizer, doc.deviceIntervals().size(), callEdges, dataEdges, doc.tensorStats().size());
        boolean valid = issues.stream().noneMatch(HealthIssue::isError);
        return new TraceHealth(valid && !failed, issues, coverage, outcome);
    }

    // The passes over the big record lists are methods of their own, not loops of run(): each
    // loop of one long method that gets hot is compiled on its own (on-stack replacement), and
    // every such compilation compiles the whole method again — run() was compiled four times by
    // C1 (71 kB of code each) and twice by C2 on a 1M-op trace, the JIT's CPU beside the checks'.

    // Ops and memory records come in runs of one span (a span's records are written together): the
    // span is looked up once per run, not once per record (3M hash lookups of a 1M-op trace).

    /** The ops' latest end; ops of unknown spans and ops outside their span collected in order. */
    private long scanOps(List<String> opsUnknown, List<OpEvent> opsOutside) {
        long latest = 0;
        String lastSpanId = null;
        SpanRecord span = null;
        for (OpEvent op : doc.ops()) {
            latest = Math.max(latest, Saturating.add(op.timestampNs(), op.durationNs()));
            if (!op.spanId().equals(lastSpanId)) {
                lastSpanId = op.spanId();
                span = span(lastSpanId);
            }
            if (span == null) {
                opsUnknown.add(op.spanId());
            } else if (span.closed()) {
                long spanEnd = Saturating.add(span.startNs(), span.durationNs());
                if (op.timestampNs() < span.startNs() || Saturating.add(op.timestampNs(), op.durationNs()) > spanEnd) {
                    opsOutside.add(op);
                }
            }
        }
        return latest;
    }

    /** The memory records' latest time; records of unknown spans and (trace/10) outside their span collected. */
    private long scanMemory(List<String> memoryUnknown, List<MemoryEvent> memoryOutside) {
        long latest = 0;
        String lastSpanId = null;
        SpanRecord span = null;
        for (MemoryEvent event : doc.memory()) {
            latest = Math.max(latest, event.timestampNs());
            if (!event.spanId().equals(lastSpanId)) {
                lastSpanId = event.spanId();
                span = span(lastSpanId);
            }
            if (span == null) {
                memoryUnknown.add(event.spanId());
            } else if (revision >= 10 && span.closed() && (event.timestampNs() < span.startNs()
                    || event.timestampNs() > Saturating.add(span.startNs(), span.durationNs()))) {
                memoryOutside.add(event);
            }
        }
        return latest;
    }

    /**
     * Open spans, unknown parents, children outside their parent and parent cycles, span by span.
     * A cycle is looked for from the span that holds the id (a later duplicate takes it), as the
     * original walks its map: over positions, in one linear pass for all spans (as for trace/6).
     */
    private void checkSpans(List<SpanRecord> spans) {
        int[] parentOf = new int[spans.size()];
        for (int i = 0; i < parentOf.length; i++) {
            String parentId = spans.get(i).parentId();
            Integer p = parentId == null ? null : positions.get(parentId);
            parentOf[i] = p == null ? -1 : p;
        }
        boolean[] reachesCycle = HealthAnalyzer.ParentCycles.reaching(parentOf);
        for (int i = 0; i < parentOf.length; i++) {
            SpanRecord span = spans.get(i);
            if (!span.closed()) {
                if (failed) {
                    warning("open_span", "span `" + span.id() + "` was interrupted");
                } else {
                    error("open_span", "span `" + span.id() + "` was not closed");
                }
            }
            if (span.parentId() != null) {
                SpanRecord parent = parentOf[i] < 0 ? null : spans.get(parentOf[i]);
                if (parent == null) {
                    error("unknown_parent",
                            "span `" + span.id() + "` refers to missing parent `" + span.parentId() + "`");
                } else if (span.closed() && parent.closed()) {
                    long childEnd = Saturating.add(span.startNs(), span.durationNs());
                    long parentEnd = Saturating.add(parent.startNs(), parent.durationNs());
                    if (span.startNs() < parent.startNs() || childEnd > parentEnd) {
                        error("child_outside_parent", "span `" + span.id() + "` lies outside parent `"
                                + span.parentId() + "`");
                    }
                }
            }
            if (reachesCycle[positions.get(span.id())]) {
                error("span_cycle", "span `" + span.id() + "` participates in a parent cycle");
            }
        }
    }

    /** Device intervals of unknown spans, then empty ones. */
    private void checkIntervals() {
        for (DeviceInterval interval : doc.deviceIntervals()) {
            if (!positions.containsKey(interval.spanId())) {
                unknownSpan("device interval", interval.spanId());
            }
        }
        for (DeviceInterval interval : doc.deviceIntervals()) {
            if (interval.durationNs() == 0) {
                error("empty_device_interval", "device interval for `" + interval.spanId() + "` has zero duration");
            }
        }
    }

    /** The span that holds {@code id}, or {@code null}. */
    private SpanRecord span(String id) {
        Integer at = positions.get(id);
        return at == null ? null : doc.spans().get(at);
    }

    private void unknownSpan(String kind, String spanId) {
        error("unknown_span", kind + " evidence refers to missing span `" + spanId + "`");
    }

    /**
     * Call edges must join a span to one of its children and report the child's duration; data
     * edges must join known tensors. (The original checks both kinds in one pass in file order;
     * here call-edge issues come before data-edge issues: see docs/decisions.md.) Each walk is a
     * method of its own, for the reason given above the scans.
     */
    private void checkEdges() {
        checkCallEdges();
        if (doc.dataEdges().isEmpty()) {
            return;
        }
        // The tensor ids the data edges name, looked for among tensors and op inputs and outputs
        // until all are found: outputs first, inputs only for what is still pending (an op's input
        // is mostly an earlier op's output, so the first walk finds almost every endpoint at a
        // third of the lookups).
        Set<String> pending = dataEdgeEndpoints();
        removeTensors(pending);
        removeOutputs(pending);
        removeInputs(pending);
        for (DataEdgeEvent edge : doc.dataEdges()) {
            if (edge.fromTensor().isEmpty() || edge.toTensor().isEmpty()) {
                error("empty_data_edge_endpoint", "data-edge tensor IDs cannot be empty");
            } else if (pending.contains(edge.fromTensor()) || pending.contains(edge.toTensor())) {
                error("unknown_data_edge_tensor", "data edge `" + edge.fromTensor() + "` -> `" + edge.toTensor()
                        + "` refers to unknown tensor evidence");
            }
        }
    }

    private void checkCallEdges() {
        for (EdgeEvent edge : doc.edges()) {
            String from = edge.fromSpan();
            String to = edge.toSpan();
            if (!positions.containsKey(from) || !positions.containsKey(to)) {
                error("unknown_call_edge_span", "call edge `" + from + "` -> `" + to + "` refers to a missing span");
                continue;
            }
            SpanRecord target = span(to);
            if (!from.equals(target.parentId())) {
                error("call_edge_hierarchy_mismatch", "call edge `" + from + "` -> `" + to
                        + "` does not match the span hierarchy");
            }
            if (target.closed() && edge.durationNs() != target.durationNs()) {
                error("call_edge_duration_mismatch", "call edge `" + from + "` -> `" + to + "` reports "
                        + edge.durationNs() + " ns but the span reports " + target.durationNs() + " ns");
            }
        }
    }

    private Set<String> dataEdgeEndpoints() {
        Set<String> endpoints = new HashSet<>();
        for (DataEdgeEvent edge : doc.dataEdges()) {
            endpoints.add(edge.fromTensor());
            endpoints.add(edge.toTensor());
        }
        return endpoints;
    }

    private void removeTensors(Set<String> pending) {
        List<TensorEvent> tensors = doc.tensors();
        for (int i = 0, n = tensors.size(); i < n && !pending.isEmpty(); i++) {
            pending.remove(tensors.get(i).tensorId());
        }
    }

    private void removeOutputs(Set<String> pending) {
        List<OpEvent> ops = doc.ops();
        for (int i = 0, n = ops.size(); i < n && !pending.isEmpty(); i++) {
            String output = ops.get(i).output();
            if (output != null) {
                pending.remove(output);
            }
        }
    }

    private void removeInputs(Set<String> pending) {
        List<OpEvent> ops = doc.ops();
        for (int i = 0, n = ops.size(); i < n && !pending.isEmpty(); i++) {
            List<String> inputs = ops.get(i).inputs();
            for (int k = 0; k < inputs.size(); k++) {
                pending.remove(inputs.get(k));
            }
        }
    }

    /**
     * Replays memory records in timestamp order (file order breaks ties), pairing by (device,
     * storage id): tensor ids allocated over a live storage are its aliases; returns how many
     * storages stay live and the issues found, in order.
     */
    private StorageCheck checkStorages() {
        List<HealthIssue> found = new ArrayList<>();
        MemoryEvent[] ordered = MemoryEvent.inTimeOrder(doc.memory());
        // A live storage is its first allocation record (its bytes and tensor id); the tensor ids
        // allocated over it later, its aliases, are kept aside, only for storages that have any.
        Map<String, Map<String, MemoryEvent>> live = new HashMap<>();
        Map<MemoryEvent, Set<String>> aliases = null;
        long liveCount = 0;
        // The device of the previous record and its storages: records come in runs on one device.
        String lastDevice = null;
        Map<String, MemoryEvent> onDevice = null;
        for (MemoryEvent event : ordered) {
            if (event.device() != lastDevice) {
                lastDevice = event.device();
                onDevice = live.computeIfAbsent(lastDevice, d -> new HashMap<>());
            }
            String storage = event.pairingKey();
            if (event.action() == MemoryAction.ALLOC) {
                // One lookup: a new storage is entered at once (an existing one is kept as it is).
                MemoryEvent existing = onDevice.putIfAbsent(storage, event);
                if (existing == null) {
                    liveCount++;
                } else if (existing.bytes() != event.bytes()) {
                    error(found, "allocation_size_mismatch", "storage `" + storage + "` on `" + event.device()
                            + "` has conflicting allocation sizes");
                } else {
                    boolean added = false;
                    if (!event.tensorId().equals(existing.tensorId())) {
                        if (aliases == null) {
                            aliases = new IdentityHashMap<>();
                        }
                        added = aliases.computeIfAbsent(existing, first -> new HashSet<>(4)).add(event.tensorId());
                    }
                    if (!added) {
                        error(found, "duplicate_allocation", "tensor `" + event.tensorId()
                                + "` repeated an allocation for storage `"
                                + storage + "` on `" + event.device() + "`");
                    }
                }
            } else {
                MemoryEvent existing = onDevice.remove(storage);
                if (existing == null) {
                    error(found, "unpaired_free",
                            "storage `" + storage + "` on `" + event.device() + "` was freed while not live");
                } else {
                    liveCount--;
                    if (aliases != null) {
                        aliases.remove(existing);
                    }
                    if (existing.bytes() != event.bytes()) {
                        error(found, "allocation_size_mismatch", "storage `" + storage + "` allocated "
                                + existing.bytes() + " bytes but freed " + event.bytes());
                    }
                }
            }
        }
        return new StorageCheck(liveCount, found);
    }

    /**
     * How many spans bear each name already in {@code counts}. The walk over the spans is a method
     * of its own (see above the scans): as a loop of its caller it was, in some builds, compiled by
     * C2 with the whole label check around it, 70 ms of the compiler for a 12 ms walk.
     */
    private void countSpanNames(Map<String, Integer> counts) {
        for (SpanRecord span : doc.spans()) {
            Integer count = counts.get(span.name());
            if (count != null) {
                counts.put(span.name(), count + 1);
            }
        }
    }

    /**
     * Every required semantic label names exactly one span. Warnings up to trace/9; from trace/10 on
     * errors (warnings for a failed capture), plus blank labels and the GPU-expected / CPU-only
     * classification, which must partition the required labels.
     */
    private void checkSemanticLabels() {
        CaptureContract contract = doc.run().captureContract();
        if (contract == null) {
            return;
        }
        if (contract.requiredSemanticLabels().isEmpty() && contract.gpuExpectedSemanticLabels().isEmpty()
                && contract.cpuOnlySemanticLabels().isEmpty()) {
            return;
        }
        Map<String, Integer> spanNames = new HashMap<>();
        contract.requiredSemanticLabels().forEach(label -> spanNames.put(label, 0));
        countSpanNames(spanNames);
        boolean strict = revision >= 10;
        Set<String> required = new HashSet<>();
        for (String label : contract.requiredSemanticLabels()) {
            if (strict && RustText.isBlank(label)) {
                labelIssue("empty_required_semantic_label", "required semantic labels must not be empty");
            }
            if (!required.add(label)) {
                labelIssue(strict, "duplicate_required_semantic_label",
                        "required semantic label `" + label + "` is declared more than once");
            }
            int count = spanNames.getOrDefault(label, 0);
            if (count != 1) {
                labelIssue(strict, "required_semantic_label_cardinality", "required semantic label `" + label
                        + "` must occur exactly once; observed " + count);
            }
        }
        if (!strict || (contract.gpuExpectedSemanticLabels().isEmpty() && contract.cpuOnlySemanticLabels().isEmpty())) {
            return;
        }
        Set<String> classified = new HashSet<>();
        String[] classes = {"GPU-expected", "CPU-only"};
        List<List<String>> lists = List.of(contract.gpuExpectedSemanticLabels(), contract.cpuOnlySemanticLabels());
        for (int c = 0; c < 2; c++) {
            Set<String> inClass = new HashSet<>();
            for (String label : lists.get(c)) {
                if (RustText.isBlank(label)) {
                    labelIssue("empty_semantic_label_classification",
                            classes[c] + " semantic labels must not be empty");
                }
                if (!inClass.add(label)) {
                    labelIssue("duplicate_semantic_label_classification", classes[c] + " semantic label `" + label
                            + "` is declared more than once");
                }
                if (!required.contains(label)) {
                    labelIssue("unrequired_semantic_label_classification", classes[c] + " semantic label `" + label
                            + "` is not a required application label");
                }
                if (!classified.add(label)) {
                    labelIssue("overlapping_semantic_label_classification", "semantic label `" + label
                            + "` is classified as both GPU-expected and CPU-only");
                }
            }
        }
        if (!classified.equals(required)) {
            labelIssue("incomplete_semantic_label_partition",
                    "GPU-expected and CPU-only semantic labels must partition all required application labels");
        }
    }

    /** A trace/10 label issue: an error, or a warning for a failed capture. */
    private void labelIssue(String code, String message) {
        labelIssue(true, code, message);
    }

    private void labelIssue(boolean strict, String code, String message) {
        if (strict && !failed) {
            error(code, message);
        } else {
            warning(code, message);
        }
    }

    private void gap(boolean absent, String code, String message) {
        if (absent) {
            warning(code, message);
        }
    }

    /** What the storage replay found: the storages live at the end and its issues, in order. */
    private record StorageCheck(long live, List<HealthIssue> issues) {
    }

    /** Runs a check on a thread of its own (a daemon: it never keeps the JVM alive). */
    private static final Executor HEALTH_CHECK = Tasks.ownThread("health-check");

    private static void error(List<HealthIssue> found, String code, String message) {
        found.add(new HealthIssue(HealthSeverity.ERROR, code, message));
    }

    private void error(String code, String message) {
        issues.add(new HealthIssue(HealthSeverity.ERROR, code, message));
    }

    private void warning(String code, String message) {
        issues.add(new HealthIssue(HealthSeverity.WARNING, code, message));
    }
}
