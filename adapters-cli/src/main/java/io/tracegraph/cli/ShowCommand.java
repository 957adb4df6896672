package io.tracegraph.cli;

import io.tracegraph.application.QueryKind;
import io.tracegraph.application.ReadRun;
import io.tracegraph.application.RunGraph;
import io.tracegraph.application.ShowRun;
import io.tracegraph.cli.render.Rendering;
import io.tracegraph.cli.render.Report;
import io.tracegraph.cli.render.ReportRenderer;
import io.tracegraph.cli.render.RunSummaryText;
import io.tracegraph.cli.render.RunReports;
import io.tracegraph.domain.graph.DeviceTimeSummary;
import io.tracegraph.domain.graph.TimeBasis;
import io.tracegraph.domain.run.RunSummary;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code tracegraph show RUN}. */
@Command(header = "Summarise a stored run: metadata, health, slowest and heaviest spans, memory.", name = "show", mixinStandardHelpOptions = true,
        description = {
            "A stored run's summary: metadata, health warnings, total time (and device time, when the run has "
                    + "some), slowest and heaviest "
                    + "spans, memory peak with its breakdown by category and by device. RUN is a run_id, an "
                    + "unambiguous prefix of one, latest or latest~N.",
        })
final class ShowCommand implements Callable<Integer> {
    private final Main.Services services;

    @Spec
    CommandSpec spec;

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

    /**
     * The run's device time, read from its nodes only when its summary says it has some (the nodes
     * of a run without device time are not read).
     */
    private static DeviceTimeSummary deviceTime(Main.UseCases cases, RunSummary summary) {
        if (summary.summary().slowestDeviceSpans().isEmpty()) {
            return DeviceTimeSummary.NONE;
        }
        RunGraph graph = InputRejected.valueOf(cases.readRun().read(ReadRun.Command.toAnswer(
                summary.run().meta().runId(), QueryKind.SLOWEST, TimeBasis.DEVICE)));
        return DeviceTimeSummary.of(graph.graph().spans());
    }

    @Override
    public Integer call() {
        RunArguments.run(spec, "RUN", run);
        try (Main.UseCases cases = services.useCases(database)) {
            RunSummary summary = InputRejected.valueOf(cases.showRun().show(new ShowRun.Command(run)));
            DeviceTimeSummary device = deviceTime(cases, summary);
            Rendering rendering = format.rendering(services.io(), services.env());
            if (rendering.terminalTable()) {
                // For a person: a summary of a few labelled lines; JSON, CSV and Markdown keep every field.
                Output.write(services.io(), null, out -> ReportRenderer.text(out,
                        w -> w.print(RunSummaryText.render(summary, device, rendering.screen()))));
                return ExitCode.OK;
            }
            Report report = RunReports.show(summary, device);
            Output.write(services.io(), null, out -> ReportRenderer.render(report, rendering, out));
            return ExitCode.OK;
        }
    }
}
