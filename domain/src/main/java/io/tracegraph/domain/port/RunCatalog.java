package io.tracegraph.domain.port;

import io.tracegraph.domain.run.RunFilter;
import io.tracegraph.domain.run.RunListing;
import io.tracegraph.domain.run.RunRef;
import io.tracegraph.domain.run.RunResolution;
import io.tracegraph.domain.run.RunSummary;
import java.util.List;
import java.util.Optional;

/**
 * The catalogue of stored runs: which runs there are, which run a reference names, and what a run
 * is. Nothing here changes the store.
 *
 * <p>"Newest first" is the order of capture time (the meta timestamp, when it is ISO-8601), then of
 * import time: runs whose timestamp is not ISO-8601 come after the others.
 */
public interface RunCatalog {
    /** Stored runs matching {@code filter}, newest first. */
    List<RunListing> runs(RunFilter filter);

    /**
     * The run a reference names: a run_id (exactly), {@code latest}, {@code latest~N} (the N-th run
     * before the newest, newest first) or an unambiguous prefix of a run_id.
     */
    RunResolution resolve(String reference);

    /** The run's metadata, health, graph summary and memory, or empty when it is no longer stored. */
    Optional<RunSummary> summary(RunRef run);
}
