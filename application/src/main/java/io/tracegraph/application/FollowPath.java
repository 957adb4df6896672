package io.tracegraph.application;

import io.tracegraph.domain.graph.TimeBasis;
import io.tracegraph.domain.port.PathHistory;
import io.tracegraph.domain.run.PathHistoryPoint;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Use case: one semantic path's self time, total time and bytes across the stored runs, oldest
 * first; on device time its device self and total time, in the runs where it has device time;
 * failed captures are left out and named.
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

    /**
     * The path's points in the runs whose capture did not fail, oldest first, and the failed runs that
     * have the path, left out (a failed capture measured only part of its work).
     */
    public record Result(List<PathHistoryPoint> points, List<String> failedLeftOut) {
        public Result {
            points = List.copyOf(points);
            failedLeftOut = List.copyOf(failedLeftOut);
        }
    }

    public Outcome<Result> follow(Command command) {
        List<PathHistoryPoint> all = history.history(command.path(), command.entrypoint());
        if (all.isEmpty()) {
            return Outcome.rejected("no stored run has the path `" + command.path() + "`");
        }
        List<PathHistoryPoint> points = new ArrayList<>(all.size());
        List<String> failed = new ArrayList<>();
        for (PathHistoryPoint p : all) {
            if (p.failed()) {
                failed.add(p.runId());
            } else {
                points.add(p);
            }
        }
        if (points.isEmpty()) {
            return Outcome.rejected("the path `" + command.path() + "` is only in failed runs: "
                    + String.join(", ", failed));
        }
        if (command.time() == TimeBasis.HOST) {
            return Outcome.done(new Result(points, failed));
        }
        List<PathHistoryPoint> device = new ArrayList<>();
        for (PathHistoryPoint p : points) {
            if (p.stats().hasDeviceTime()) {
                device.add(new PathHistoryPoint(p.run(), p.timestamp(), p.capturedAt(), p.importedAt(), p.entrypoint(),
                        p.stats().onDeviceTime(), p.outcome()));
            }
        }
        if (device.isEmpty()) {
            return Outcome.rejected("the path `" + command.path() + "` has no device time in the " + points.size()
                    + (points.size() == 1 ? " stored run that has it" : " stored runs that have it")
                    + " (ask with --time host)");
        }
        return Outcome.done(new Result(device, failed));
    }
}
