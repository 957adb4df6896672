package io.tracegraph.domain.run;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * Which stored runs to list, newest first.
 *
 * @param entrypoint only runs of this entrypoint, or {@code null} for all
 * @param tags only runs carrying every one of these tags (key and value)
 * @param since only runs captured (or, when their timestamp is not ISO-8601, imported) at or after
 *     this instant, or {@code null} for all
 * @param limit at most this many runs
 */
public record RunFilter(String entrypoint, Map<String, String> tags, Instant since, int limit) {
    public RunFilter {
        tags = Map.copyOf(Objects.requireNonNull(tags, "tags"));
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1: " + limit);
        }
    }

    /** Every stored run. */
    public static RunFilter all() {
        return new RunFilter(null, Map.of(), null, Integer.MAX_VALUE);
    }

    public RunFilter withEntrypoint(String entrypoint) {
        return new RunFilter(entrypoint, tags, since, limit);
    }

    public RunFilter withTags(Map<String, String> tags) {
        return new RunFilter(entrypoint, tags, since, limit);
    }

    public RunFilter withSince(Instant since) {
        return new RunFilter(entrypoint, tags, since, limit);
    }

    public RunFilter withLimit(int limit) {
        return new RunFilter(entrypoint, tags, since, limit);
    }
}
