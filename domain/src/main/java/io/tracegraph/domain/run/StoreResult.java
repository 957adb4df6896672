package io.tracegraph.domain.run;

/** What storing a run did. */
public sealed interface StoreResult permits StoreResult.Stored, StoreResult.Duplicate, StoreResult.Conflict {

    /** The run is stored; {@code replaced} when it took the place of an earlier run with its run_id. */
    record Stored(String runId, boolean replaced) implements StoreResult {
    }

    /** The same content is already stored (as {@code runId}); nothing was written. */
    record Duplicate(String runId) implements StoreResult {
    }

    /** Another trace with the same run_id is stored, with different content; nothing was written. */
    record Conflict(String runId, String storedSource) implements StoreResult {
        public String message() {
            return "run_id `" + runId + "` is already stored with different content (from " + storedSource
                    + "); use --replace to replace it";
        }
    }
}
