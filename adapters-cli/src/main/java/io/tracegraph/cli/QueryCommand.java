package io.tracegraph.cli;

import io.tracegraph.application.TraceInput;
import io.tracegraph.application.TraceResult;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tracegraph query TRACE --kind K [--format F]}. */
@Command(name = "query", mixinStandardHelpOptions = true,
        description = {
            "Answer one question about a trace:",
            "  slowest     measured total, slowest spans (top 8) and ops (top 50) by self time",
            "  heaviest    memory peak, heaviest spans (top 8) and ops (top 50) by bytes",
            "  memory      memory summary, peak by category, peak breakdown, devices, timeline",
            "  efficiency  ops by bytes per nanosecond of self time (top 50)",
            "  spans       every span and op node, and every edge",
            "  tensors     tensor checkpoints",
            "  gradients   gradient facts",
        })
final class QueryCommand implements Callable<Integer> {
    private final Main.Services services;

    @Mixin
    CommonOptions common;

    @Parameters(paramLabel = "TRACE", description = "The trace: FILE.jsonl, FILE.jsonl.gz or FILE.json.")
    Path trace;

    @Option(names = "--kind", required = true, paramLabel = "KIND",
            description = "One of: ${COMPLETION-CANDIDATES}.", converter = KindConverter.class,
            completionCandidates = KindConverter.Candidates.class)
    GraphReports.Kind kind;

    @Mixin
    FormatOption format;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write the answer to FILE.")
    Path output;

    QueryCommand(Main.Services services) {
        this.services = services;
    }

    @Override
    public Integer call() {
        TraceResult result = services.buildGraph().build(TraceInput.of(trace));
        if (!(result instanceof TraceResult.Built built)) {
            return Rejections.report(services.io(), result);
        }
        Report report = GraphReports.report(kind, built.graph());
        Format chosen = format.chosen(services.io());
        Output.write(services.io(), output, out -> ReportRenderer.render(report, chosen, out));
        return ExitCode.OK;
    }
}
