package io.tracegraph.domain.port;

import io.tracegraph.domain.run.ImportLogEntry;
import io.tracegraph.domain.run.KnownContent;
import io.tracegraph.domain.run.RunToStore;
import io.tracegraph.domain.run.StoreResult;
import java.util.Optional;

/**
 * Keeps runs. Storing is atomic (a run is stored whole or not at all) and idempotent by content
 * hash; it is safe to call from several threads and processes at once.
 */
public interface RunStore {
    /** What is known of this content hash: the run stored from it, or an earlier rejection. */
    Optional<KnownContent> knownContent(String contentSha256);

    /** Stores the run unless its content is already there or (without {@code replace}) its run_id is. */
    StoreResult store(RunToStore run, boolean replace);

    /** Appends to the import log. */
    void log(ImportLogEntry entry);
}
