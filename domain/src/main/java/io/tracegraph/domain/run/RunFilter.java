package io.tracegraph.domain.run;

import io.tracegraph.domain.trace.ComparisonIdentity;
import io.tracegraph.domain.trace.RunOutcome;
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
 * @param identity only runs whose comparison identity has every one of these members (named as in
 *     {@link ComparisonIdentity#MEMBERS}) with that value (numbers in decimal)
 * @param outcome only runs whose capture ended so, or {@code null} for all
 */
public record RunFilter(String entrypoint, Map<String, String> tags, Instant since, int limit,
        Map<String, String> identity, RunOutcome.Status outcome) {
    public RunFilter {
        tags = Map.copyOf(Objects.requireNonNull(tags, "tags"));
        identity = Map.copyOf(Objects.requireNonNull(identity, "identity"));
        for (String member : identity.keySet()) {
            if (!ComparisonIdentity.MEMBERS.contains(member)) {
                throw new IllegalArgumentException("not a comparison identity member: " + member);
            }
        }
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1: " + limit);
        }
    }

    /** Runs of any identity and outcome. */
    public RunFilter(String entrypoint, Map<String, String> tags, Instant since, int limit) {
        this(entrypoint, tags, since, limit, Map.of(), null);
    }

    /** Every stored run. */
    public static RunFilter all() {
        return new RunFilter(null, Map.of(), null, Integer.MAX_VALUE);
    }

    public RunFilter withEntrypoint(String entrypoint) {
        return new RunFilter(entrypoint, tags, since, limit, identity, outcome);
    }

    public RunFilter withTags(Map<String, String> tags) {
        return new RunFilter(entrypoint, tags, since, limit, identity, outcome);
    }

    public RunFilter withSince(Instant since) {
        return new RunFilter(entrypoint, tags, since, limit, identity, outcome);
    }

    public RunFilter withLimit(int limit) {
        return new RunFilter(entrypoint, tags, since, limit, identity, outcome);
    }

    public RunFilter withIdentity(Map<String, String> identity) {
        return new RunFilter(entrypoint, tags, since, limit, identity, outcome);
    }

    public RunFilter withOutcome(RunOutcome.Status outcome) {
        return new RunFilter(entrypoint, tags, since, limit, identity, outcome);
    }
}
