package io.tracegraph.application;

import io.tracegraph.domain.port.PathHistory;
import io.tracegraph.domain.run.PathHistoryPoint;
import java.util.List;
import java.util.Objects;

/** Use case: one semantic path's self time, total time and bytes across the stored runs, oldest first. */
public final class FollowPath {
    /**
     * @param path       the semantic path: the span names from the root down joined by {@code /}
     * @param entrypoint only runs of this entrypoint, or null for all
     */
    public record Command(String path, String entrypoint) {
        public Command {
            Objects.requireNonNull(path, "path");
        }
    }

    private final PathHistory history;

    public FollowPath(PathHistory history) {
        this.history = Objects.requireNonNull(history, "history");
    }

    public Outcome<List<PathHistoryPoint>> follow(Command command) {
        List<PathHistoryPoint> points = history.history(command.path(), command.entrypoint());
        if (points.isEmpty()) {
            return Outcome.rejected("no stored run has the path `" + command.path() + "`");
        }
        return Outcome.done(points);
    }
}
