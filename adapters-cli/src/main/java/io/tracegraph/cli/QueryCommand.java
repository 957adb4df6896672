package io.tracegraph.cli;

import io.tracegraph.application.QueryKind;
import io.tracegraph.application.ReadRun;
import io.tracegraph.application.RunGraph;
import io.tracegraph.cli.render.Format;
import io.tracegraph.cli.render.GraphReports;
import io.tracegraph.cli.render.Report;
import io.tracegraph.cli.render.Rendering;
import io.tracegraph.cli.render.ReportRenderer;
import io.tracegraph.domain.graph.TimeBasis;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/** {@code tracegraph query RUN --kind K [--format F]}: over a trace file, or a run in the store. */
@Command(header = "Answer one question about a trace or a stored run.", name = "query", mixinStandardHelpOptions = true,
        description = {
            "Answer one question about a trace or a stored run:",
            "  slowest     measured total; slowest spans (8) and ops (50) by self time",
            "              (--time device: by device time, with each device's time)",
            "  heaviest    memory peak; heaviest spans (8) and ops (50) by bytes",
            "  memory      summary, peak by category, peak breakdown, devices, timeline",
            "  efficiency  ops by bytes per nanosecond of self time (top 50)",
            "  spans       every span and op node, and every edge",
            "  edges       every edge",
            "  tensors     tensor checkpoints",
            "  gradients   gradient facts",
            "  health      trusted, coverage counts and health issues",
        })
final class QueryCommand implements Callable<Integer> {
    private final Main.Services services;

    @Spec
    CommandSpec spec;

    @Mixin
    CommonOptions common;

    @Mixin
    DatabaseOptions database;

    @Parameters(paramLabel = "RUN",
            description = "A trace file (FILE.jsonl, FILE.jsonl.gz or FILE.json, read without a database) or a "
                    + "stored run: a run_id, an unambiguous prefix of one, latest or latest~N.")
    String run;

    @Option(names = "--kind", required = true, paramLabel = "KIND",
            description = "One of: ${COMPLETION-CANDIDATES}.", converter = KindConverter.class,
            completionCandidates = KindConverter.Candidates.class)
    QueryKind kind;

    @Mixin
    TimeOption time;

    @Mixin
    FormatOption format;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write the answer to FILE.")
    Path output;

    QueryCommand(Main.Services services) {
        this.services = services;
    }

    @Override
    public Integer call() {
        RunArguments.run(spec, "RUN", run);
        if (time.time == TimeBasis.DEVICE && kind != QueryKind.SLOWEST) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--time device answers --kind slowest only (the other kinds are not about time)");
        }
        try (Main.UseCases cases = services.useCases(database)) {
            RunGraph run = InputRejected.valueOf(cases.readRun().read(ReadRun.Command.toAnswer(this.run, kind,
                    time.time)));
            return write(GraphReports.report(kind, run.graph(), run.health(), time.time));
        }
    }

    private int write(Report report) {
        Rendering onScreen = format.rendering(services.io(), services.env());
        Rendering rendering = output == null ? onScreen : onScreen.toFile();
        Output.write(services.io(), output, out -> ReportRenderer.render(report, rendering, out));
        return ExitCode.OK;
    }
}
