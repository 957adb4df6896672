package io.tracegraph.domain.run;

import java.util.Objects;

/**
 * A stored run, as found by a run reference: the store's key for it and its run_id. The key is only
 * meaningful to the store that gave it.
 */
public record RunRef(long key, String runId) {
    public RunRef {
        Objects.requireNonNull(runId, "runId");
    }
}
