package io.tracegraph.application;

import io.tracegraph.domain.compare.GradientFact;
import io.tracegraph.domain.compare.PathStats;
import io.tracegraph.domain.compare.RunFacts;
import io.tracegraph.domain.graph.ExecutionGraph;
import io.tracegraph.domain.graph.GradientRecord;
import io.tracegraph.domain.graph.GraphBuilder;
import io.tracegraph.domain.graph.GraphOutcome;
import io.tracegraph.domain.port.AdHocSql;
import io.tracegraph.domain.port.ComparisonFacts;
import io.tracegraph.domain.port.PathHistory;
import io.tracegraph.domain.port.RunCatalog;
import io.tracegraph.domain.port.StoredGraphs;
import io.tracegraph.domain.run.PathHistoryPoint;
import io.tracegraph.domain.run.ReadOnlySql;
import io.tracegraph.domain.run.RunFilter;
import io.tracegraph.domain.run.RunListing;
import io.tracegraph.domain.run.RunRef;
import io.tracegraph.domain.run.RunResolution;
import io.tracegraph.domain.run.RunSummary;
import io.tracegraph.domain.run.SqlOutcome;
import io.tracegraph.domain.run.StoredRun;
import io.tracegraph.domain.trace.TraceDocument;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A store in memory, with the read ports the use cases ask: runs kept in the order they were
 * added, the last one the newest. It remembers what it was asked, so tests can tell how.
 */
final class InMemoryStore implements RunCatalog, StoredGraphs, ComparisonFacts, PathHistory, AdHocSql {
    private static final Pattern LATEST = Pattern.compile("latest(?:~([0-9]{1,9}))?");

    private record Run(RunRef ref, TraceDocument trace, ExecutionGraph graph, Map<String, String> tags) {
    }

    private final List<Run> runs = new ArrayList<>();
    private final Set<Long> forgotten = new HashSet<>();
    /** The parts of the last graph read. */
    Set<GraphPart> lastParts;
    /** Each call of {@link #facts(List, boolean)}: the run_ids asked for. */
    final List<List<String>> factCalls = new ArrayList<>();

    /** Stores the run of {@code trace}, the newest now. */
    InMemoryStore add(TraceDocument trace, Map<String, String> tags) {
        GraphOutcome outcome = GraphBuilder.build(trace);
        runs.add(new Run(new RunRef(runs.size() + 1, trace.run().runId()), trace,
                ((GraphOutcome.Built) outcome).graph(), Map.copyOf(tags)));
        return this;
    }

    InMemoryStore add(TraceDocument trace) {
        return add(trace, Map.of());
    }

    /** The run's graph and summary are gone (deleted after its reference was resolved). */
    InMemoryStore forget(String runId) {
        find(runId).ifPresent(run -> forgotten.add(run.ref().key()));
        return this;
    }

    private Optional<Run> find(String runId) {
        return runs.stream().filter(r -> r.ref().runId().equals(runId)).findFirst();
    }

    private Optional<Run> stored(RunRef ref) {
        return runs.stream().filter(r -> r.ref().equals(ref) && !forgotten.contains(ref.key())).findFirst();
    }

    private List<Run> newestFirst() {
        List<Run> newest = new ArrayList<>(runs);
        Collections.reverse(newest);
        return newest;
    }

    @Override
    public List<RunListing> runs(RunFilter filter) {
        List<RunListing> listed = new ArrayList<>();
        for (Run run : newestFirst()) {
            if (listed.size() < filter.limit() && run.tags().entrySet().containsAll(filter.tags().entrySet())
                    && (filter.entrypoint() == null || filter.entrypoint().equals(run.trace().run().entrypoint()))) {
                listed.add(new RunListing(run.ref(), run.trace().run().timestamp(), null, Instant.EPOCH,
                        run.trace().run().entrypoint(), run.trace().run().phase(), run.trace().run().device(),
                        run.graph().summary().totalMs(), run.graph().summary().memory().peakBytes(), run.tags()));
            }
        }
        return listed;
    }

    @Override
    public RunResolution resolve(String reference) {
        Optional<Run> exact = find(reference);
        if (exact.isPresent()) {
            return new RunResolution.Found(reference, exact.get().ref());
        }
        Matcher latest = LATEST.matcher(reference);
        if (latest.matches()) {
            int back = latest.group(1) == null ? 0 : Integer.parseInt(latest.group(1));
            return back < runs.size() ? new RunResolution.Found(reference, newestFirst().get(back).ref())
                    : new RunResolution.NotFound(reference, "`" + reference + "` is not stored");
        }
        List<Run> matches = newestFirst().stream().filter(r -> r.ref().runId().startsWith(reference)).toList();
        if (matches.isEmpty()) {
            return new RunResolution.NotFound(reference, "no stored run has the run_id `" + reference
                    + "` or one starting with it");
        }
        if (matches.size() == 1) {
            return new RunResolution.Found(reference, matches.get(0).ref());
        }
        return new RunResolution.Ambiguous(reference, matches.stream().map(r -> r.ref().runId()).toList(),
                matches.size());
    }

    @Override
    public Optional<RunSummary> summary(RunRef ref) {
        return stored(ref).map(run -> new RunSummary(new StoredRun(run.ref(), run.trace().run(), null, Instant.EPOCH,
                run.ref().runId() + ".jsonl", "sha", 0, run.trace().schema(), run.graph().schema(),
                run.graph().spans().size(), run.graph().edges().size()),
                GraphBuilder.build(run.trace()).health(), run.graph().summary(), run.graph().memory().byDevice()));
    }

    @Override
    public Optional<ExecutionGraph> graph(RunRef ref, Set<GraphPart> parts) {
        lastParts = Set.copyOf(parts);
        return stored(ref).map(Run::graph);
    }

    @Override
    public List<GradientRecord> gradients(RunRef ref) {
        return stored(ref).map(run -> run.graph().gradients()).orElse(List.of());
    }

    @Override
    public List<PathStats> pathStats(RunRef ref) {
        return stored(ref).map(run -> PathStats.ofGraph(run.graph().spans())).orElse(List.of());
    }

    @Override
    public List<RunFacts> facts(List<RunRef> refs, boolean withGradients) {
        factCalls.add(refs.stream().map(RunRef::runId).toList());
        List<RunFacts> facts = new ArrayList<>();
        for (RunRef ref : refs) {
            Run run = stored(ref).orElseThrow(() -> new IllegalStateException(ref.runId() + " is gone"));
            List<GradientFact> gradients = withGradients
                    ? run.graph().gradients().stream().map(GradientFact::of).toList() : List.of();
            facts.add(new RunFacts(ref.runId(), run.graph().summary().totalMs(),
                    run.graph().summary().memory().peakBytes(), PathStats.ofGraph(run.graph().spans()), gradients));
        }
        return facts;
    }

    @Override
    public List<PathHistoryPoint> history(String path, String entrypoint) {
        List<PathHistoryPoint> points = new ArrayList<>();
        for (Run run : runs) {
            if (entrypoint != null && !entrypoint.equals(run.trace().run().entrypoint())) {
                continue;
            }
            PathStats.ofGraph(run.graph().spans()).stream().filter(p -> p.path().equals(path)).findFirst()
                    .ifPresent(stats -> points.add(new PathHistoryPoint(run.ref(), run.trace().run().timestamp(), null,
                            Instant.EPOCH, run.trace().run().entrypoint(), stats)));
        }
        return points;
    }

    @Override
    public SqlOutcome sql(ReadOnlySql statement) {
        if (!statement.text().strip().toUpperCase(Locale.ROOT).startsWith("SELECT")) {
            return new SqlOutcome.Refused("only SELECT");
        }
        return new SqlOutcome.Rows(List.of("n"), List.of("int4"), List.of(List.of(runs.size())), false);
    }
}
