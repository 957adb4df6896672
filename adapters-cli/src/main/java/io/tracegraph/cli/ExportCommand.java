package io.tracegraph.cli;

import io.tracegraph.application.ReadRun;
import io.tracegraph.application.RunGraph;
import io.tracegraph.json.ChromeTraceWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/** {@code tracegraph export RUN --format chrome -o FILE}. */
@Command(header = "Export a run for other trace viewers (Chrome trace-event JSON for Perfetto).", name = "export",
        mixinStandardHelpOptions = true,
        description = {
            "Write a run as Chrome trace-event JSON, the format that Perfetto UI",
            "(ui.perfetto.dev, \"Open trace file\") and chrome://tracing open:",
            "  - every span and op is a complete event (ts and dur in microseconds, exact",
            "    to the nanosecond): spans on the track `spans`, ops on one track per",
            "    device (`ops cuda:0`); events that overlap without nesting go to an extra",
            "    lane of their track (`spans (2)`), so that every lane nests properly;",
            "  - the memory timeline is a counter track per device (live bytes) and one",
            "    with the live bytes by category;",
            "  - node ids, parent ids, self and total time and bytes are in each event's",
            "    args.",
            "Nothing is pruned: the export holds every node and every memory record.",
            "",
            "--time device adds, beside the host tracks, one track per device",
            "(`device cuda:0`) whose events last their device time there (kernels,",
            "memcpys and memsets attributed to each span and op); a node's children follow",
            "one another from its start, so positions there are not device timestamps.",
            "Every event then also has device_self_time_ns and device_total_time_ns in its",
            "args. A run without device time is rejected.",
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  tracegraph export examples/train_small.jsonl -o train.trace.json",
            "  tracegraph export latest --format chrome -o latest.trace.json",
            "  tracegraph export step.pt.trace.json.gz --time device -o step.chrome.json",
        })
final class ExportCommand implements Callable<Integer> {
    private final Main.Services services;

    @Spec
    CommandSpec spec;

    @Mixin
    CommonOptions common;

    @Mixin
    DatabaseOptions database;

    @Parameters(paramLabel = "RUN",
            description = {"A trace file (FILE.jsonl, FILE.jsonl.gz or FILE.json, read without a database) or a",
                "stored run: a run_id, an unambiguous prefix of one, latest or latest~N."})
    String run;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "chrome",
            description = "chrome: Chrome trace-event JSON (default, and the only format so far).")
    String format;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE",
            description = "Write to FILE (created with its directories; replaced only when complete) instead of "
                    + "standard output.")
    Path output;

    @Mixin
    TimeOption time;

    ExportCommand(Main.Services services) {
        this.services = services;
    }

    @Override
    public Integer call() {
        if (!format.equals("chrome")) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "unknown export format '" + format + "' (expected chrome)");
        }
        RunArguments.run(spec, "RUN", run);
        try (Main.UseCases cases = services.useCases(database)) {
            RunGraph graph = InputRejected.valueOf(cases.readRun().read(ReadRun.Command.whole(run, time.time)));
            Output.write(services.io(), output, out -> ChromeTraceWriter.write(graph.graph(), graph.label(), time.time,
                    out));
            return ExitCode.OK;
        }
    }
}
