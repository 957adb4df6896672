package io.tracegraph.cli;

import io.tracegraph.application.CompareSets;
import io.tracegraph.application.FollowPath;
import io.tracegraph.cli.render.Report;
import io.tracegraph.cli.render.Rendering;
import io.tracegraph.cli.render.ReportRenderer;
import io.tracegraph.cli.render.RunReports;
import io.tracegraph.domain.run.PathHistoryPoint;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tracegraph history PATH [--entrypoint E]}. */
@Command(header = "Follow one span path's time and bytes across the stored runs.", name = "history", mixinStandardHelpOptions = true,
        description = {
            "One span path's self time, total time and bytes across the stored runs, oldest first, "
                    + "with a small bar chart of the total time on a terminal. PATH is the semantic path: the "
                    + "span names from the root down joined by '/', as `compare` prints them (e.g. "
                    + "tinygpt::train::update/update/Model::forward). With --time device: the path's device "
                    + "self and total time, in the runs where it has device time.",
        })
final class HistoryCommand implements Callable<Integer> {
    private final Main.Services services;

    @Mixin
    CommonOptions common;

    @Mixin
    DatabaseOptions database;

    @Parameters(paramLabel = "PATH", description = "The semantic path.")
    String path;

    @Option(names = "--entrypoint", paramLabel = "E", description = "Only runs of this entrypoint.")
    String entrypoint;

    @Mixin
    TimeOption time;

    @Mixin
    FormatOption format;

    HistoryCommand(Main.Services services) {
        this.services = services;
    }

    @Override
    public Integer call() {
        try (Main.UseCases cases = services.useCases(database)) {
            FollowPath.Result followed = InputRejected.valueOf(cases.followPath().follow(
                    new FollowPath.Command(path, entrypoint, time.time)));
            List<PathHistoryPoint> points = followed.points();
            Rendering rendering = format.rendering(services.io(), services.env());
            Report report = RunReports.history(path, points, rendering.format(), followed.failedLeftOut(), time.time);
            if (!followed.failedLeftOut().isEmpty()) {
                services.io().error(CompareSets.leftOut(followed.failedLeftOut()));
            }
            Output.write(services.io(), null, out -> ReportRenderer.render(report, rendering, out));
            return ExitCode.OK;
        }
    }
}
