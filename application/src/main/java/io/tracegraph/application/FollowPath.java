package io.tracegraph.application;

import io.tracegraph.domain.graph.TimeBasis;
import io.tracegraph.domain.port.PathHistory;
import io.tracegraph.domain.run.PathHistoryPoint;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Use case: one semantic path's self time, total time and bytes across the stored runs, oldest
 * first; on device time its device self and total time, in the runs where it has device time.
 */
public final class FollowPath {
    /**
     * @param path       the semantic path: the span names from the root down joined by {@code /}
     * @param entrypoint only runs of this entrypoint, or null for all
     * @param time       host time, or device time (the path's device time as its self and total time)
     */
    public record Command(String path, String entrypoint, TimeBasis time) {
        public Command {
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(time, "time");
        }

        /** On host time. */
        public Command(String path, String entrypoint) {
            this(path, entrypoint, TimeBasis.HOST);
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
        if (command.time() == TimeBasis.HOST) {
            return Outcome.done(points);
        }
        List<PathHistoryPoint> device = new ArrayList<>();
        for (PathHistoryPoint p : points) {
            if (p.stats().hasDeviceTime()) {
                device.add(new PathHistoryPoint(p.run(), p.timestamp(), p.capturedAt(), p.importedAt(), p.entrypoint(),
                        p.stats().onDeviceTime()));
            }
        }
        if (device.isEmpty()) {
            return Outcome.rejected("the path `" + command.path() + "` has no device time in the " + points.size()
                    + (points.size() == 1 ? " stored run that has it" : " stored runs that have it")
                    + " (ask with --time host)");
        }
        return Outcome.done(device);
    }
}
