package io.tracegraph.domain.health;

import io.tracegraph.domain.trace.SpanRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The id-keyed cycle search the checks used before {@link HealthAnalyzer.ParentCycles}, kept as the
 * tests' reference: "does walking up the parent links from this span revisit an id?" for every
 * span in linear total time, by memoising the answer per id of the {@code byId} graph.
 */
final class CycleFinder {
    private final Map<String, SpanRecord> byId;
    private final Map<String, Boolean> reaches = new HashMap<>();

    CycleFinder(Map<String, SpanRecord> byId) {
        this.byId = byId;
    }

    /** Whether walking up from the span that holds {@code id} in {@code byId} revisits an id. */
    boolean fromId(String id) {
        return resolve(id);
    }

    boolean reachesCycle(SpanRecord span) {
        if (byId.get(span.id()) != span) {
            return HealthAnalyzer.parentWalkRevisits(span, byId::get);
        }
        return resolve(span.id());
    }

    private boolean resolve(String start) {
        Boolean known = reaches.get(start);
        if (known != null) {
            return known;
        }
        // The usual case, without a walk: a root, or a span whose parent is already answered.
        String first = byId.get(start).parentId();
        if (first == null || !byId.containsKey(first)) {
            reaches.put(start, false);
            return false;
        }
        Boolean parentKnown = first.equals(start) ? null : reaches.get(first);
        if (parentKnown != null) {
            reaches.put(start, parentKnown);
            return parentKnown;
        }
        List<String> path = new ArrayList<>();
        Set<String> onPath = new HashSet<>();
        String current = start;
        boolean result;
        while (true) {
            Boolean memo = reaches.get(current);
            if (memo != null) {
                result = memo;
                break;
            }
            if (!onPath.add(current)) {
                result = true;
                break;
            }
            path.add(current);
            SpanRecord span = byId.get(current);
            String parent = span.parentId();
            if (parent == null || !byId.containsKey(parent)) {
                result = false;
                break;
            }
            current = parent;
        }
        for (String id : path) {
            reaches.put(id, result);
        }
        return result;
    }
}
