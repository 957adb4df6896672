package io.tracegraph.cli;

import io.tracegraph.application.TraceInput;
import io.tracegraph.application.TraceResult;
import io.tracegraph.domain.compare.GradientFact;
import io.tracegraph.domain.compare.PathStats;
import io.tracegraph.domain.compare.RunFacts;
import io.tracegraph.domain.graph.ExecutionGraph;
import io.tracegraph.domain.health.TraceHealth;
import io.tracegraph.domain.port.AdHocSql;
import io.tracegraph.domain.port.PathHistory;
import io.tracegraph.domain.port.RunCatalog;
import io.tracegraph.domain.port.StoredGraphs.GraphPart;
import io.tracegraph.domain.run.RunFilter;
import io.tracegraph.domain.run.RunListing;
import io.tracegraph.domain.run.RunRef;
import io.tracegraph.domain.run.RunResolution;
import io.tracegraph.domain.run.RunSummary;
import io.tracegraph.domain.run.StoredRun;
import io.tracegraph.postgres.PostgresStore;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns what the user typed into runs: a run_id, an unambiguous prefix, {@code latest},
 * {@code latest~N}, or a trace file (read without a database); for groups also
 * {@code tag:K=V}, comma-separated lists and ranges such as {@code latest~9..latest}. Opens the
 * store only when a reference needs it.
 */
final class RunSources implements AutoCloseable {
    private static final Pattern RANGE = Pattern.compile("latest(?:~(\\d+))?\\.\\.latest(?:~(\\d+))?");
    /** Names that are meant as trace files even when no such file exists (so that a typo is not a run). */
    private static final String[] TRACE_SUFFIXES = {".jsonl", ".jsonl.gz", ".json", ".json.gz"};

    /**
     * A run's graph (whole, unless only some parts of a stored one were asked for) with the health of
     * its trace: a trace file's, built now ({@code stored} is {@code null}), or a stored run's. {@code label} names it for people: the file or the run_id.
     */
    record RunGraph(String label, ExecutionGraph graph, TraceHealth health, StoredRun stored) {
    }

    /** A reference that names no run, or several: the user's input is at fault (Main maps it to exit 1). */
    static final class UnknownRun extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UnknownRun(String message) {
            super(message, null, false, false);
        }
    }

    private final Main.Services services;
    private final DatabaseOptions database;
    private PostgresStore store;

    RunSources(Main.Services services, DatabaseOptions database) {
        this.services = services;
        this.database = database;
    }

    private PostgresStore store() {
        if (store == null) {
            store = StoreAccess.open(database, services);
        }
        return store;
    }

    RunCatalog catalog() {
        return store().catalog();
    }

    PathHistory pathHistory() {
        return store().pathHistory();
    }

    /** SQL the user wrote, run as the store's read-only login where it has one. */
    AdHocSql adHocSql() {
        return store().adHocSql();
    }

    RunRef resolve(String reference) {
        RunResolution resolution = catalog().resolve(reference);
        if (resolution instanceof RunResolution.Found found) {
            return found.run();
        }
        throw new UnknownRun(describe(resolution));
    }

    /**
     * The whole graph of one run: a trace file (an existing file, or a name with a trace file's
     * suffix) is read and built, anything else is a stored run. A rejected trace or a run that names
     * nothing is an {@link UnknownRun}.
     */
    RunGraph graph(String reference) {
        return graph(reference, EnumSet.allOf(GraphPart.class));
    }

    /**
     * As {@link #graph(String)}, reading only {@code parts} of a stored graph (a trace file is always
     * built whole).
     */
    RunGraph graph(String reference, Set<GraphPart> parts) {
        Optional<Path> file = traceFile(reference);
        if (file.isPresent()) {
            TraceResult result = services.buildGraph().build(TraceInput.of(file.get()));
            if (result instanceof TraceResult.Malformed malformed) {
                throw new UnknownRun(malformed.problem().render());
            }
            if (result instanceof TraceResult.Untrusted untrusted) {
                throw new UnknownRun(untrusted.message());
            }
            TraceResult.Built built = (TraceResult.Built) result;
            return new RunGraph(file.get().toString(), built.graph(), built.health(), null);
        }
        return storedGraph(reference, parts);
    }

    /** The whole graph of a stored run, never of a file (for run ids that a group already resolved). */
    RunGraph storedGraph(String reference) {
        return storedGraph(reference, EnumSet.allOf(GraphPart.class));
    }

    private RunGraph storedGraph(String reference, Set<GraphPart> parts) {
        RunRef ref = resolve(reference);
        Optional<ExecutionGraph> graph = store().graphs().graph(ref, parts);
        Optional<RunSummary> summary = graph.isPresent() ? catalog().summary(ref) : Optional.empty();
        if (summary.isEmpty()) {
            throw new UnknownRun("run `" + ref.runId() + "` is no longer stored");
        }
        return new RunGraph(ref.runId(), graph.get(), summary.get().health(), summary.get().run());
    }

    /** The trace file {@code reference} names: an existing file, or a name with a trace file's suffix. */
    static Optional<Path> traceFile(String reference) {
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

    /** Whether {@code spec} names a set of runs (a list, {@code tag:K=V} or a range) rather than one run. */
    static boolean isSet(String spec) {
        String s = spec.strip();
        return s.contains(",") || (s.startsWith("tag:") && s.indexOf('=') > 4) || RANGE.matcher(s).matches();
    }

    /** The facts of one run: a trace file when the reference is a file, else a stored run. */
    RunFacts facts(String reference) {
        Path file = Path.of(reference);
        if (Files.isRegularFile(file)) {
            return factsOfTrace(file);
        }
        return store().comparisonFacts().facts(List.of(resolve(reference))).get(0);
    }

    /** The facts of a group of runs. */
    List<RunFacts> group(String spec) {
        return groups(List.of(spec)).get(0);
    }

    /**
     * The facts of several groups of runs, in the order of {@code specs}: the stored runs of all of
     * them are read together (in parallel, the path texts read once), which is what a comparison of
     * two sets of big runs spends its time on.
     */
    List<List<RunFacts>> groups(List<String> specs) {
        List<Selection> selections = specs.stream().map(this::select).toList();
        List<RunRef> stored = selections.stream().flatMap(s -> s.stored().stream()).distinct().toList();
        Map<RunRef, RunFacts> read = new HashMap<>();
        if (!stored.isEmpty()) {
            // Set comparisons do not compare gradients: not read.
            List<RunFacts> facts = store().comparisonFacts().facts(stored, false);
            for (int i = 0; i < stored.size(); i++) {
                read.put(stored.get(i), facts.get(i));
            }
        }
        List<List<RunFacts>> groups = new ArrayList<>();
        for (Selection selection : selections) {
            List<RunFacts> facts = new ArrayList<>();
            for (String file : selection.files()) {
                facts.add(factsOfTrace(Path.of(file)));
            }
            selection.stored().forEach(ref -> facts.add(read.get(ref)));
            if (facts.isEmpty()) {
                throw new UnknownRun("`" + selection.spec() + "` names no run");
            }
            groups.add(facts);
        }
        return groups;
    }

    /** The trace files and stored runs a set names. */
    private record Selection(String spec, List<String> files, List<RunRef> stored) {
    }

    private Selection select(String spec) {
        List<String> files = new ArrayList<>();
        List<RunRef> stored = new ArrayList<>();
        for (String part : spec.split(",")) {
            String p = part.strip();
            if (p.isEmpty()) {
                continue;
            }
            Matcher range = RANGE.matcher(p);
            if (p.startsWith("tag:") && p.indexOf('=') > 4) {
                int eq = p.indexOf('=');
                List<RunListing> runs = catalog().runs(new RunFilter(null, Map.of(p.substring(4, eq),
                        p.substring(eq + 1)), null, 100_000));
                if (runs.isEmpty()) {
                    throw new UnknownRun("no stored run has tag " + p.substring(4));
                }
                runs.forEach(r -> stored.add(r.run()));
            } else if (range.matches()) {
                int a = range.group(1) == null ? 0 : Integer.parseInt(range.group(1));
                int b = range.group(2) == null ? 0 : Integer.parseInt(range.group(2));
                List<RunListing> newest = catalog().runs(new RunFilter(null, Map.of(), null, Math.max(a, b) + 1));
                for (int i = Math.min(a, b); i <= Math.max(a, b) && i < newest.size(); i++) {
                    stored.add(newest.get(i).run());
                }
            } else if (Files.isRegularFile(Path.of(p))) {
                files.add(p);
            } else {
                stored.add(resolve(p));
            }
        }
        return new Selection(spec, files, stored);
    }

    private RunFacts factsOfTrace(Path file) {
        TraceResult result = services.buildGraph().build(TraceInput.of(file));
        if (result instanceof TraceResult.Malformed malformed) {
            throw new UnknownRun(malformed.problem().render());
        }
        if (result instanceof TraceResult.Untrusted untrusted) {
            throw new UnknownRun(file + ": " + untrusted.message());
        }
        return factsOf(file.toString(), ((TraceResult.Built) result).graph());
    }

    /** What a comparison needs of a graph, under the run id {@code runId}. */
    static RunFacts factsOf(String runId, ExecutionGraph graph) {
        List<GradientFact> gradients = graph.gradients().stream().map(GradientFact::of).toList();
        return new RunFacts(runId, graph.summary().totalMs(), graph.summary().memory().peakBytes(),
                PathStats.ofGraph(graph.spans()), gradients);
    }

    private static String describe(RunResolution resolution) {
        if (resolution instanceof RunResolution.NotFound notFound) {
            return notFound.message();
        }
        return ((RunResolution.Ambiguous) resolution).message();
    }

    @Override
    public void close() {
        if (store != null) {
            store.close();
        }
    }
}
