package io.tracegraph.cli;

import io.tracegraph.application.ImportReport;
import io.tracegraph.application.ImportTraces;
import io.tracegraph.application.TraceBatch;
import io.tracegraph.cli.render.Format;
import io.tracegraph.cli.render.Rendering;
import io.tracegraph.cli.render.ReportRenderer;
import io.tracegraph.cli.render.RunReports;
import io.tracegraph.files.TraceFiles;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** {@code tracegraph import PATH... [--jobs N] [--replace]}. */
@Command(header = "Import traces, directories and archives into the run store.", name = "import", mixinStandardHelpOptions = true,
        description = {
            "Import traces into the run store (PostgreSQL): trace files (.jsonl, .jsonl.gz, .json), "
                    + "directories (recursively) and archives (.zip, .tar, .tar.gz, .tgz), nested in any way. "
                    + "Archives are streamed, never extracted. Each trusted trace is stored as one run, whole "
                    + "or not at all; content already stored is skipped; malformed and untrusted traces are "
                    + "rejected with their reason and the rest is imported. Ends with a summary.",
            "",
            "candle-graph bundles (a folder with bundle.json, on disk or in an archive) and campaigns "
                    + "(a campaign/1 manifest, e.g. campaign.json) are read too: a bundle's trace is imported "
                    + "only once every file its bundle.json lists has the listed SHA-256, else the bundle is "
                    + "rejected naming the file; its run is tagged bundle=<sha256 of bundle.json>, and "
                    + "campaign=<id>, campaign.step=<n> when a campaign plans it.",
            "",
            "--split-steps stores each ProfilerStep#N of a PyTorch profiler trace as its own run: run id "
                    + "<the trace's run id>-step-N, tag step=N, the step as its root; so the steps of one trace "
                    + "are a set of runs (compare --baseline tag:step=5,... or by run ids). Traces without "
                    + "steps are stored whole. The summary then counts runs, not files.",
            "",
            "A failed capture (candle-graph trace/7+ whose terminal record says outcome failed) is a fact, "
                    + "not a fault: it is stored as a run with outcome failed, its reason and what could be built "
                    + "of it, and the summary lists it (failed_runs, and a line \"stored as failed run: REASON\" "
                    + "under failed_captures). `runs` and `show` give the outcome; comparisons and `history` "
                    + "leave failed runs out and say how many.",
            "",
            "Exits 0 when nothing was rejected (failed captures stored as failed runs included), 1 when some "
                    + "input was (now, or its content by an earlier import), 3 when the database or the file "
                    + "system failed.",
        })
final class ImportCommand implements Callable<Integer> {
    private final Main.Services services;

    @Spec
    CommandSpec spec;

    @Mixin
    CommonOptions common;

    @Mixin
    DatabaseOptions database;

    @Parameters(paramLabel = "PATH", arity = "1..*", description = "Trace files, directories or archives.")
    List<Path> paths;

    @Option(names = "--jobs", paramLabel = "N", description = "Traces processed at once (default: ${DEFAULT-VALUE}).")
    int jobs = Runtime.getRuntime().availableProcessors();

    @Option(names = "--replace", description = "Replace a stored run whose run_id comes again with other content "
            + "(default: reject it).")
    boolean replace;

    @Option(names = "--tag", paramLabel = "K=V", description = "Add this tag to every run stored by this import "
            + "(repeatable; replaces the trace's own tag of that key), e.g. --tag commit=abc123 for a directory of "
            + "traces recorded at one commit. Content already stored is not re-tagged.")
    Map<String, String> tags = new LinkedHashMap<>();

    @Option(names = "--split-steps", description = "Store each profiler step (ProfilerStep#N) of a PyTorch trace "
            + "as its own run, tagged step=N.")
    boolean splitSteps;

    @Option(names = "--max-trace-size", paramLabel = "SIZE", converter = SizeConverter.class,
            description = "Refuse a trace (or archive entry) larger than SIZE once decompressed, e.g. 512m, 8g "
                    + "(default: 16g).")
    long maxTraceBytes = 16L << 30;

    @Mixin
    FormatOption format;

    ImportCommand(Main.Services services) {
        this.services = services;
    }

    @Override
    public Integer call() throws Exception {
        if (jobs < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--jobs must be at least 1");
        }
        TraceFiles.Limits limits = new TraceFiles.Limits(maxTraceBytes, TraceFiles.Limits.defaults().maxNesting());
        TraceBatch batch = TraceFiles.batch(paths, limits);
        ImportReport report;
        try (Main.UseCases cases = services.useCases(database)) {
            ImportTraces importTraces = cases.importTraces();
            try (ProgressDisplay progress = ProgressDisplay.start(services.io())) {
                report = importTraces.run(new ImportTraces.Command(batch, jobs, replace, progress, tags,
                        splitSteps));
            }
        }
        Rendering rendering = format.rendering(services.io(), services.env());
        Output.write(services.io(), null, out -> ReportRenderer.render(RunReports.importSummary(report), rendering, out));
        // Content rejected by an earlier import is still not stored: the user must hear of it.
        return report.rejections().isEmpty() ? ExitCode.OK : ExitCode.REJECTED;
    }
}
