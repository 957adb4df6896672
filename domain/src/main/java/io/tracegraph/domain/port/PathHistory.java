package io.tracegraph.domain.port;

import io.tracegraph.domain.run.PathHistoryPoint;
import java.util.List;

/** One semantic path followed across the stored runs. Nothing here changes the store. */
public interface PathHistory {
    /**
     * One semantic path (its text as {@code /}-joined names from the root, like the paths that
     * comparisons print) across the stored runs that have it, oldest first (capture time, then
     * import time); only runs of {@code entrypoint} unless it is {@code null}.
     */
    List<PathHistoryPoint> history(String path, String entrypoint);
}
