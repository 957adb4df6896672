package io.tracegraph.cli;

import io.tracegraph.application.TraceInput;
import io.tracegraph.application.TraceResult;
import io.tracegraph.domain.graph.ExecutionGraph;
import io.tracegraph.domain.run.RunRef;
import io.tracegraph.domain.run.RunSummary;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tracegraph query RUN --kind K [--format F]}: over a trace file, or a run in the store. */
@Command(header = "Answer one question about a trace or a stored run.", name = "query", mixinStandardHelpOptions = true,
        description = {
            "Answer one question about a trace or a stored run:",
            "  slowest     measured total, slowest spans (top 8) and ops (top 50) by self time",
            "  heaviest    memory peak, heaviest spans (top 8) and ops (top 50) by bytes",
            "  memory      memory summary, peak by category, peak breakdown, devices, timeline",
            "  efficiency  ops by bytes per nanosecond of self time (top 50)",
            "  spans       every span and op node, and every edge",
            "  edges       every edge",
            "  tensors     tensor checkpoints",
            "  gradients   gradient facts",
            "  health      trusted, coverage counts and health issues",
        })
final class QueryCommand implements Callable<Integer> {
    /** Names that are meant as trace files even when no such file exists (so that a typo is not a run). */
    private static final String[] TRACE_SUFFIXES = {".jsonl", ".jsonl.gz", ".json", ".json.gz"};

    private final Main.Services services;

    @Mixin
    CommonOptions common;

    @Mixin
    DatabaseOptions database;

    @Parameters(paramLabel = "RUN",
            description = {"A trace file (FILE.jsonl, FILE.jsonl.gz or FILE.json, read without a database) or a",
                "stored run: a run_id, an unambiguous prefix of one, latest or latest~N."})
    String run;

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
        Optional<Path> file = traceFile(run);
        if (file.isPresent()) {
            TraceResult result = services.buildGraph().build(TraceInput.of(file.get()));
            if (!(result instanceof TraceResult.Built built)) {
                return Rejections.report(services.io(), result);
            }
            return write(GraphReports.report(kind, built.graph(), built.health()));
        }
        try (RunSources sources = new RunSources(services, database)) {
            RunRef ref = sources.resolve(run);
            Optional<ExecutionGraph> graph = sources.queries().graph(ref, GraphReports.parts(kind));
            Optional<RunSummary> summary = graph.isPresent() ? sources.queries().summary(ref) : Optional.empty();
            if (summary.isEmpty()) {
                services.io().error("run `" + ref.runId() + "` is no longer stored");
                return ExitCode.REJECTED;
            }
            return write(GraphReports.report(kind, graph.get(), summary.get().health()));
        }
    }

    private int write(Report report) {
        Format chosen = format.chosen(services.io());
        Output.write(services.io(), output, out -> ReportRenderer.render(report, chosen, out));
        return ExitCode.OK;
    }

    /** The trace file {@code reference} names: an existing file, or a name with a trace file's suffix. */
    private static Optional<Path> traceFile(String reference) {
        try {
            Path path = Path.of(reference);
            if (Files.isRegularFile(path)) {
                return Optional.of(path);
            }
            for (String suffix : TRACE_SUFFIXES) {
                if (reference.endsWith(suffix)) {
                    return Optional.of(path);
                }
            }
            return Optional.empty();
        } catch (InvalidPathException e) {
            return Optional.empty();
        }
    }
}
