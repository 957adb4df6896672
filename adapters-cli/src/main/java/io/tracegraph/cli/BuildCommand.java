package io.tracegraph.cli;

import io.tracegraph.application.TraceInput;
import io.tracegraph.application.TraceResult;
import io.tracegraph.json.GraphJsonWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tracegraph build TRACE [-o FILE]}. */
@Command(header = "Print the execution graph of a trace (candle-graph/graph/3 JSON).", name = "build", mixinStandardHelpOptions = true,
        description = {
            "Validate a trace and print its execution graph (candle-graph/graph/3 JSON):",
            "span and op nodes with total and self time and memory, call and data edges, tensors, "
                    + "gradients, the slowest and heaviest spans and the memory profile. A malformed or "
                    + "structurally untrusted trace is rejected (exit 1) with a one-line reason. A failed "
                    + "capture (candle-graph trace/7+) prints the partial graph of what it captured, its "
                    + "outcome included, and is rejected too (exit 1, `capture failed: REASON`).",
        })
final class BuildCommand implements Callable<Integer> {
    private final Main.Services services;

    @Spec
    CommandSpec spec;

    @Mixin
    CommonOptions common;

    @Parameters(paramLabel = "TRACE", description = "The trace: FILE.jsonl, FILE.jsonl.gz or FILE.json.")
    Path trace;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE",
            description = "Write the graph to FILE (created with its directories; replaced only when complete) "
                    + "instead of standard output.")
    Path output;

    BuildCommand(Main.Services services) {
        this.services = services;
    }

    @Override
    public Integer call() {
        RunArguments.traceFile(spec, trace);
        TraceResult result = services.buildGraph().build(TraceInput.of(trace));
        if (result instanceof TraceResult.Built built) {
            Output.write(services.io(), output, out -> GraphJsonWriter.writeGraph(built.graph(), out));
            return ExitCode.OK;
        }
        if (result instanceof TraceResult.Untrusted failed && failed.partialGraph() != null) {
            // A failed capture: what it captured, with its outcome, and still a rejection.
            Output.write(services.io(), output, out -> GraphJsonWriter.writeGraph(failed.partialGraph(), out));
        }
        return Rejections.report(services.io(), result);
    }
}
