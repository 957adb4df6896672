package io.tracegraph.domain.trace;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@code import --split-steps}: a trace whose root has step spans ({@code ProfilerStep}, one per
 * {@code ProfilerStep#N} of a PyTorch profiler trace) as one document per step. A step's document
 * has the step span as its root (measured), its descendants, their ops, the device intervals of
 * those nodes, the allocations at them with their frees (wherever they are) and the device memory
 * samples within the step; its run id
 * is the trace's with {@code -step-N}, its capture step and tag {@code step} are N, its timestamp
 * the trace's moved to the step's start (so history orders the steps). What lies
 * outside every step (the gaps between steps, work the root holds) is in no step's document.
 *
 * <p>The trace's step numbers are consecutive from its capture step (the first step's number): the
 * profiler counts the steps of one recording window one by one. Linear in the document.
 */
public final class StepSplit {
    /** The name of a step span, as the PyTorch reader writes it ({@code ProfilerStep#6} loses its number). */
    public static final String STEP_NAME = "ProfilerStep";
    /** The tag each step's run gets: its step number. */
    public static final String STEP_TAG = "step";

    private StepSplit() {
    }

    /** The document's steps, each a document of its own; empty when its root has no step spans. */
    public static List<TraceDocument> steps(TraceDocument doc) {
        List<SpanRecord> spans = doc.spans();
        if (spans.isEmpty() || !doc.edges().isEmpty() || !doc.dataEdges().isEmpty() || !doc.tensors().isEmpty()) {
            return List.of();
        }
        Set<String> roots = new HashSet<>();
        long rootStart = Long.MAX_VALUE;
        for (SpanRecord s : spans) {
            if (s.parentId() == null) {
                roots.add(s.id());
                rootStart = Math.min(rootStart, s.startNs());
            }
        }
        // The step each span belongs to (by its ancestor step span); spans sorted by id are in pre-order.
        Map<String, Integer> stepOf = new HashMap<>(spans.size() * 2);
        List<SpanRecord> stepSpans = new ArrayList<>();
        List<List<SpanRecord>> members = new ArrayList<>();
        for (SpanRecord s : spans) {
            if (s.parentId() != null && roots.contains(s.parentId()) && s.name().equals(STEP_NAME)) {
                stepOf.put(s.id(), stepSpans.size());
                stepSpans.add(s);
                List<SpanRecord> own = new ArrayList<>();
                own.add(new SpanRecord(s.id(), null, s.name(), s.kind(), true, s.startNs(), s.closed(),
                        s.durationNs(), s.step()));
                members.add(own);
            }
        }
        if (stepSpans.isEmpty()) {
            return List.of();
        }
        for (SpanRecord s : spans) {
            Integer step = s.parentId() == null || stepOf.containsKey(s.id()) ? null : stepOf.get(s.parentId());
            if (step != null) {
                stepOf.put(s.id(), step);
                members.get(step).add(s);
            }
        }
        List<List<OpEvent>> ops = perStep(stepSpans.size());
        for (OpEvent op : doc.ops()) {
            add(ops, stepOf.get(op.spanId()), op);
        }
        // A step keeps its allocations and the frees of those: a tensor allocated before the step and
        // freed in it was not the step's (its free alone would be unpaired).
        List<List<MemoryEvent>> memory = perStep(stepSpans.size());
        Map<List<String>, Integer> allocatedIn = new HashMap<>();
        for (MemoryEvent m : doc.memory()) {
            Integer step = stepOf.get(m.spanId());
            List<String> key = List.of(m.device(), m.storageId() != null ? m.storageId() : m.tensorId());
            if (m.action() == MemoryAction.ALLOC) {
                if (step != null) {
                    allocatedIn.put(key, step);
                } else {
                    allocatedIn.remove(key);
                }
                add(memory, step, m);
            } else {
                Integer allocated = allocatedIn.remove(key);
                if (allocated != null) {
                    add(memory, allocated, m);
                }
            }
        }
        List<List<DeviceInterval>> intervals = perStep(stepSpans.size());
        for (DeviceInterval d : doc.deviceIntervals()) {
            add(intervals, stepOf.get(spanOf(d.spanId())), d);
        }
        List<TraceDocument> out = new ArrayList<>(stepSpans.size());
        for (int k = 0; k < stepSpans.size(); k++) {
            SpanRecord step = stepSpans.get(k);
            long end = Saturating.add(step.startNs(), step.durationNs());
            List<DeviceMemoryEvent> samples = new ArrayList<>();
            for (DeviceMemoryEvent e : doc.deviceMemory()) {
                if (e.timestampNs() >= step.startNs() && e.timestampNs() <= end) {
                    samples.add(e);
                }
            }
            long number = doc.run().captureStep() + k;
            String timestamp = shifted(doc.run().timestamp(), step.startNs() - rootStart);
            out.add(new TraceDocument(doc.schema(), meta(doc.run(), number, timestamp), members.get(k), ops.get(k), List.of(),
                    memory.get(k), samples, List.of(), List.of(), List.of(), intervals.get(k), List.of(),
                    doc.outcome(), doc.origin()));
        }
        return out;
    }

    /** The span of a node id: an op's node id is {@code SPAN/op/K}. */
    private static String spanOf(String nodeId) {
        int op = nodeId.lastIndexOf("/op/");
        return op < 0 ? nodeId : nodeId.substring(0, op);
    }

    private static <T> List<List<T>> perStep(int steps) {
        List<List<T>> lists = new ArrayList<>(steps);
        for (int k = 0; k < steps; k++) {
            lists.add(new ArrayList<>());
        }
        return lists;
    }

    private static <T> void add(List<List<T>> lists, Integer step, T item) {
        if (step != null) {
            lists.get(step).add(item);
        }
    }

    /** The trace's timestamp moved to the step's start; as it is when it is no ISO-8601 instant. */
    private static String shifted(String timestamp, long byNs) {
        try {
            return Instant.parse(timestamp).plusNanos(byNs).toString();
        } catch (DateTimeParseException e) {
            return timestamp;
        }
    }

    private static RunMeta meta(RunMeta run, long step, String timestamp) {
        Map<String, String> tags = new TreeMap<>(CodePointOrder.COMPARATOR);
        tags.putAll(run.tags());
        tags.remove("steps");
        tags.put(STEP_TAG, Long.toString(step));
        return new RunMeta(run.runId() + "-step-" + step, run.correlationId(), run.entrypoint(), run.phase(),
                timestamp, step, run.warmupSteps(), run.device(), run.timingMode(), tags, run.candleVersion(),
                run.measuredRegionDeviceSynchronized(), run.captureContract(), run.comparisonIdentity());
    }
}
