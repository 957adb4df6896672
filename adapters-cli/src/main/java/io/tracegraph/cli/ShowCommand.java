package io.tracegraph.cli;

import io.tracegraph.application.ShowRun;
import io.tracegraph.cli.render.Format;
import io.tracegraph.cli.render.Report;
import io.tracegraph.cli.render.ReportRenderer;
import io.tracegraph.cli.render.RunReports;
import io.tracegraph.domain.run.RunSummary;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code tracegraph show RUN}. */
@Command(header = "Summarise a stored run: metadata, health, slowest and heaviest spans, memory.", name = "show", mixinStandardHelpOptions = true,
        description = {
            "A stored run's summary: metadata, health warnings, total time, slowest and heaviest "
                    + "spans, memory peak with its breakdown by category and by device. RUN is a run_id, an "
                    + "unambiguous prefix of one, latest or latest~N.",
        })
final class ShowCommand implements Callable<Integer> {
    private final Main.Services services;

    @Mixin
    CommonOptions common;

    @Mixin
    DatabaseOptions database;

    @Parameters(paramLabel = "RUN", description = "The run.")
    String run;

    @Mixin
    FormatOption format;

    ShowCommand(Main.Services services) {
        this.services = services;
    }

    @Override
    public Integer call() {
        try (Main.UseCases cases = services.useCases(database)) {
            RunSummary summary = InputRejected.valueOf(cases.showRun().show(new ShowRun.Command(run)));
            Report report = RunReports.show(summary);
            Format chosen = format.chosen(services.io());
            Output.write(services.io(), null, out -> ReportRenderer.render(report, chosen, out));
            return ExitCode.OK;
        }
    }
}
