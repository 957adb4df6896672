package io.tracegraph.cli;

import io.tracegraph.application.HealthResult;
import io.tracegraph.application.TraceInput;
import io.tracegraph.json.GraphJsonWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tracegraph check TRACE}. */
@Command(header = "Print a trace's health report: trusted, issues, coverage.", name = "check", mixinStandardHelpOptions = true,
        description = {
            "Check a trace's structure and print its health report as JSON: `trusted`, `issues` "
                    + "(errors make a trace untrusted, warnings name gaps in what was captured) and `coverage` "
                    + "(counts of what the trace holds). Exits 1 when the trace is malformed or untrusted (the "
                    + "report is still printed for an untrusted trace), 0 when it is trusted.",
        })
final class CheckCommand implements Callable<Integer> {
    private final Main.Services services;

    @Spec
    CommandSpec spec;

    @Mixin
    CommonOptions common;

    @Parameters(paramLabel = "TRACE", description = "The trace: FILE.jsonl, FILE.jsonl.gz or FILE.json.")
    Path trace;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write the report to FILE.")
    Path output;

    CheckCommand(Main.Services services) {
        this.services = services;
    }

    @Override
    public Integer call() {
        RunArguments.traceFile(spec, trace);
        HealthResult result = services.checkTrace().check(TraceInput.of(trace));
        if (result instanceof HealthResult.Malformed malformed) {
            return Rejections.report(services.io(), malformed);
        }
        HealthResult.Checked checked = (HealthResult.Checked) result;
        Output.write(services.io(), output, out -> GraphJsonWriter.writeHealth(checked.health(), out));
        if (!checked.health().trusted()) {
            services.io().error(checked.health().untrustedMessage());
            return ExitCode.REJECTED;
        }
        return ExitCode.OK;
    }
}
