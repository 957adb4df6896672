package io.tracegraph.application;

import io.tracegraph.domain.compare.GradientFact;
import io.tracegraph.domain.compare.PathStats;
import io.tracegraph.domain.compare.RunFacts;
import io.tracegraph.domain.graph.ExecutionGraph;
import io.tracegraph.domain.graph.TimeBasis;
import io.tracegraph.domain.port.ComparisonFacts;
import io.tracegraph.domain.port.RunCatalog;
import io.tracegraph.domain.port.StoredGraphs.GraphPart;
import io.tracegraph.domain.port.StoredGraphs;
import io.tracegraph.domain.run.RunFilter;
import io.tracegraph.domain.run.RunListing;
import io.tracegraph.domain.run.RunRef;
import io.tracegraph.domain.run.RunResolution;
import io.tracegraph.domain.run.RunSummary;
import io.tracegraph.domain.trace.ComparisonIdentity;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where the use cases find runs (built by the composition root from the ports, and handed to
 * each use case that needs it; only they call it). Turns what a person typed into runs: a run_id, an unambiguous prefix,
 * {@code latest}, {@code latest~N}, or a trace file (read and built without the store); for sets
 * also {@code tag:K=V}, {@code identity:MEMBER=VALUE} (a comparison identity member, e.g.
 * {@code identity:model_id=llama}; {@code model} for {@code model_id}), comma-separated lists and ranges such as {@code latest~9..latest}. The
 * store is asked only when a reference needs it. A reference that names no run, or a trace that is
 * rejected, ends the question with a {@link Rejection}, which the use case returns as its
 * {@link Outcome.Rejected}.
 */
public final class RunSources {
    /** Nine digits at most, as the store reads {@code latest~N}: a longer N names no range. */
    /** A set of the stored runs of one comparison identity member's value: {@code identity:model_id=tinygpt}. */
    static final String IDENTITY = "identity:";

    private static final Pattern LATEST = Pattern.compile("latest(?:~(\\d{1,9}))?");
    private static final Pattern RANGE = Pattern.compile("latest(?:~(\\d{1,9}))?\\.\\.latest(?:~(\\d{1,9}))?");

    /** The input names no run, or a trace it names is rejected: the message says which. */
    static final class Rejection extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Rejection(String message) {
            super(message, null, false, false);
        }
    }

    private final RunCatalog catalog;
    private final StoredGraphs graphs;
    private final ComparisonFacts facts;
    private final LocalTraces files;
    private final BuildGraph buildGraph;

    public RunSources(RunCatalog catalog, StoredGraphs graphs, ComparisonFacts facts, LocalTraces files,
            BuildGraph buildGraph) {
        this.catalog = Objects.requireNonNull(catalog, "catalog");
        this.graphs = Objects.requireNonNull(graphs, "graphs");
        this.facts = Objects.requireNonNull(facts, "facts");
        this.files = Objects.requireNonNull(files, "files");
        this.buildGraph = Objects.requireNonNull(buildGraph, "buildGraph");
    }

    /** Whether {@code spec} names a set of runs (a list, {@code tag:K=V} or a range) rather than one run. */
    static boolean isSet(String spec) {
        String s = spec.strip();
        return s.contains(",") || (s.startsWith("tag:") && s.indexOf('=') > 4)
                || (s.startsWith(IDENTITY) && s.indexOf('=') > IDENTITY.length()) || RANGE.matcher(s).matches();
    }

    LocalTraces files() {
        return files;
    }

    RunRef resolve(String reference) {
        RunResolution resolution = catalog.resolve(reference);
        if (resolution instanceof RunResolution.Found found) {
            return found.run();
        }
        throw new Rejection(describe(resolution));
    }

    /**
     * The graph of one run, reading only {@code parts} of a stored one: a trace file (an existing
     * file, or a name with a trace file's suffix) is read and built whole, anything else is a stored
     * run.
     */
    RunGraph graph(String reference, Set<GraphPart> parts) {
        Optional<TraceInput> file = files.named(reference);
        if (file.isPresent()) {
            TraceResult.Built built = build(file.get(), "");
            return new RunGraph(file.get().name(), built.graph(), built.health(), null);
        }
        return storedGraph(reference, parts);
    }

    /** The whole graph of a stored run, never of a file (for run ids that a set already resolved). */
    RunGraph storedGraph(String reference) {
        return storedGraph(reference, EnumSet.allOf(GraphPart.class));
    }

    private RunGraph storedGraph(String reference, Set<GraphPart> parts) {
        RunRef ref = resolve(reference);
        Optional<ExecutionGraph> graph = graphs.graph(ref, parts);
        Optional<RunSummary> summary = graph.isPresent() ? catalog.summary(ref) : Optional.empty();
        if (summary.isEmpty()) {
            throw new Rejection("run `" + ref.runId() + "` is no longer stored");
        }
        return new RunGraph(ref.runId(), graph.get(), summary.get().health(), summary.get().run());
    }

    /** The facts of one run: a trace file when the reference is an existing file, else a stored run. */
    RunFacts facts(String reference) {
        Optional<TraceInput> file = files.existing(reference);
        if (file.isPresent()) {
            return factsOfTrace(file.get());
        }
        return facts.facts(List.of(resolve(reference))).get(0);
    }

    /**
     * The facts of one run for a two-run comparison: as {@link #facts(String)}, but {@code latest} and
     * {@code latest~N} count the runs whose capture did not fail (a failed capture is not compared);
     * the failed runs passed over, newer than the one found, are added to {@code skipped}.
     */
    RunFacts completeFacts(String reference, Collection<String> skipped) {
        Matcher latest = LATEST.matcher(reference.strip());
        if (!latest.matches() || files.existing(reference).isPresent()) {
            return facts(reference);
        }
        int back = latest.group(1) == null ? 0 : Integer.parseInt(latest.group(1));
        int limit = back + 1;
        while (true) {
            List<RunListing> newest = catalog.runs(RunFilter.all().withLimit(limit));
            List<String> failed = new ArrayList<>();
            int complete = 0;
            for (RunListing run : newest) {
                if (run.failed()) {
                    failed.add(run.runId());
                } else if (complete++ == back) {
                    skipped.addAll(failed);
                    return facts.facts(List.of(run.run())).get(0);
                }
            }
            if (newest.size() < limit || limit >= Integer.MAX_VALUE / 2) {
                if (failed.isEmpty()) {
                    // As without failed runs: the store's own message.
                    return facts(reference);
                }
                throw new Rejection("`" + reference.strip() + "` names no run: " + complete + " complete "
                        + (complete == 1 ? "run is" : "runs are") + " stored (and " + failed.size() + " failed)");
            }
            limit *= 2;
        }
    }

    /**
     * The facts of several sets of runs, in the order of {@code sets}: the stored runs of all of
     * them are read together (in parallel, the path texts read once), which is what a comparison of
     * two sets of big runs spends its time on.
     */
    List<List<RunFacts>> sets(List<RunSet> sets) {
        List<RunRef> stored = sets.stream().flatMap(s -> s.stored().stream()).distinct().toList();
        Map<RunRef, RunFacts> read = new HashMap<>();
        if (!stored.isEmpty()) {
            // Set comparisons do not compare gradients: not read.
            List<RunFacts> all = facts.facts(stored, false);
            for (int i = 0; i < stored.size(); i++) {
                read.put(stored.get(i), all.get(i));
            }
        }
        List<List<RunFacts>> result = new ArrayList<>();
        for (RunSet set : sets) {
            List<RunFacts> members = new ArrayList<>();
            for (TraceInput file : set.files()) {
                members.add(factsOfTrace(file));
            }
            set.stored().forEach(ref -> members.add(read.get(ref)));
            if (members.isEmpty()) {
                throw new Rejection("`" + set.spec() + "` names no run");
            }
            result.add(members);
        }
        return result;
    }

    /** The trace files and stored runs a set names, each as often as it is named. */
    RunSet select(String spec) {
        List<TraceInput> traces = new ArrayList<>();
        List<RunRef> stored = new ArrayList<>();
        for (String part : spec.split(",")) {
            String p = part.strip();
            if (p.isEmpty()) {
                continue;
            }
            Matcher range = RANGE.matcher(p);
            Optional<TraceInput> file;
            if (p.startsWith("tag:") && p.indexOf('=') > 4) {
                int eq = p.indexOf('=');
                List<RunListing> runs = catalog.runs(new RunFilter(null, Map.of(p.substring(4, eq),
                        p.substring(eq + 1)), null, 100_000));
                if (runs.isEmpty()) {
                    throw new Rejection("no stored run has tag " + p.substring(4));
                }
                runs.forEach(r -> stored.add(r.run()));
            } else if (p.startsWith(IDENTITY) && p.indexOf('=') > IDENTITY.length()) {
                int eq = p.indexOf('=');
                String name = p.substring(IDENTITY.length(), eq);
                String member = ComparisonIdentity.memberNamed(name).orElseThrow(() -> new Rejection("`" + name
                        + "` is not a comparison identity member (" + String.join(", ", ComparisonIdentity.MEMBERS)
                        + ")"));
                List<RunListing> runs = catalog.runs(RunFilter.all().withLimit(100_000)
                        .withIdentity(Map.of(member, p.substring(eq + 1))));
                if (runs.isEmpty()) {
                    throw new Rejection("no stored run has comparison identity " + member + "=" + p.substring(eq + 1));
                }
                runs.forEach(r -> stored.add(r.run()));
            } else if (range.matches()) {
                int a = range.group(1) == null ? 0 : Integer.parseInt(range.group(1));
                int b = range.group(2) == null ? 0 : Integer.parseInt(range.group(2));
                List<RunListing> newest = catalog.runs(new RunFilter(null, Map.of(), null, Math.max(a, b) + 1));
                for (int i = Math.min(a, b); i <= Math.max(a, b) && i < newest.size(); i++) {
                    stored.add(newest.get(i).run());
                }
            } else if ((file = files.existing(p)).isPresent()) {
                traces.add(file.get());
            } else {
                stored.add(resolve(p));
            }
        }
        return new RunSet(spec, traces, stored);
    }

    private RunFacts factsOfTrace(TraceInput file) {
        TraceResult.Built built = build(file, file.name() + ": ");
        return factsOf(file.name(), built.graph());
    }

    /** The trace built; rejected when malformed, or untrusted (its message after {@code untrustedPrefix}). */
    private TraceResult.Built build(TraceInput file, String untrustedPrefix) {
        TraceResult result = buildGraph.build(file);
        if (result instanceof TraceResult.Malformed malformed) {
            throw new Rejection(malformed.problem().render());
        }
        if (result instanceof TraceResult.Untrusted untrusted) {
            throw new Rejection(untrustedPrefix + untrusted.message());
        }
        return (TraceResult.Built) result;
    }

    /** What a comparison needs of a graph, under the run id {@code runId}. */
    static RunFacts factsOf(String runId, ExecutionGraph graph) {
        List<GradientFact> gradients = graph.gradients().stream().map(GradientFact::of).toList();
        return new RunFacts(runId, graph.summary().totalMs(), graph.summary().memory().peakBytes(),
                PathStats.ofGraph(graph.spans()), gradients, graph.outcome(),
                graph.capture() == null ? null : graph.capture().identity(), graph.tensorStats(), graph.deviceTimeNs());
    }

    /**
     * {@code runs} on {@code time}: as they are for host time; on device time each run's paths with
     * device time, rejected when a run has none (naming it, and how many of {@code side} have none).
     */
    static List<RunFacts> on(TimeBasis time, List<RunFacts> runs, String side) {
        if (time == TimeBasis.HOST) {
            return runs;
        }
        List<RunFacts> device = new ArrayList<>(runs.size());
        String first = null;
        int without = 0;
        for (RunFacts run : runs) {
            if (!run.hasDeviceTime()) {
                first = first == null ? run.runId() : first;
                without++;
            } else {
                device.add(run.onDeviceTime());
            }
        }
        if (first != null) {
            throw new Rejection(noDeviceTime(first) + (runs.size() == 1 ? ""
                    : " (" + without + " of the " + runs.size() + " runs of " + side + " have none)"));
        }
        return device;
    }

    /** One run on {@code time}, rejected on device time when it has none. */
    static RunFacts on(TimeBasis time, RunFacts run) {
        return on(time, List.of(run), "it").get(0);
    }

    /** The graph of a run that a question on device time is asked of: rejected when it has no device time. */
    static RunGraph requireDeviceTime(RunGraph run) {
        if (!run.graph().hasDeviceTime()) {
            throw new Rejection(noDeviceTime(run.label()));
        }
        return run;
    }

    /** Why a question on device time has no answer for a run. */
    static String noDeviceTime(String label) {
        return "`" + label + "` has no device time: no device intervals or kernels are recorded for it "
                + "(ask with --time host)";
    }

    static String describe(RunResolution resolution) {
        if (resolution instanceof RunResolution.NotFound notFound) {
            return notFound.message();
        }
        return ((RunResolution.Ambiguous) resolution).message();
    }
}
