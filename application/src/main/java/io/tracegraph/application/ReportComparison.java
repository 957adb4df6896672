package io.tracegraph.application;

import io.tracegraph.domain.compare.GroupComparison;
import io.tracegraph.domain.compare.GroupOptions;
import io.tracegraph.domain.compare.RunComparison;
import io.tracegraph.domain.compare.RunFacts;
import io.tracegraph.domain.graph.ExecutionGraph;
import io.tracegraph.domain.graph.TimeBasis;
import io.tracegraph.domain.trace.CodePointOrder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Use case: what a comparison's report shows: two runs with their whole graphs and their
 * comparison, or two sets compared with the graph of each set's median run.
 */
public final class ReportComparison {
    /**
     * {@code base} and {@code candidate}: two runs, or (when either is a set) two sets; {@code time}:
     * what the tree, the bars and the tables compare (device time: every run must have some);
     * {@code allowMixedIdentity}: compare sets whose runs' comparison identities differ (else
     * refused, as {@link CompareSets} refuses them).
     */
    public record Command(String base, String candidate, double thresholdPercent, TimeBasis time,
            boolean allowMixedIdentity) {
        public Command {
            Objects.requireNonNull(base, "base");
            Objects.requireNonNull(candidate, "candidate");
            Objects.requireNonNull(time, "time");
        }

        /** Runs of different comparison identities refused. */
        public Command(String base, String candidate, double thresholdPercent, TimeBasis time) {
            this(base, candidate, thresholdPercent, time, false);
        }

        /** On host time. */
        public Command(String base, String candidate, double thresholdPercent) {
            this(base, candidate, thresholdPercent, TimeBasis.HOST);
        }
    }

    /**
     * What the report shows: the comparison on the time asked for, and, on host time when every run
     * has device time, the comparison of their device time too ({@code deviceComparison}, else null).
     */
    public sealed interface Result {
        TimeBasis time();
    }

    /** Two runs, whole, and their comparison (on {@code time}). */
    public record Runs(RunGraph base, RunGraph candidate, RunComparison comparison, RunComparison deviceComparison,
            TimeBasis time) implements Result {
        public Runs {
            Objects.requireNonNull(comparison, "comparison");
            Objects.requireNonNull(time, "time");
        }
    }

    /**
     * Two sets compared (on {@code time}), each with its runs' facts (on {@code time}) and its median
     * run's graph; {@code failedLeftOut}: the failed captures the sets named, left out as
     * {@link CompareSets} leaves them out (run ids, baseline's first).
     */
    public record Sets(Side base, Side candidate, GroupComparison comparison, List<RunFacts> baseRuns,
            List<RunFacts> candidateRuns, GroupComparison deviceComparison, TimeBasis time,
            List<String> failedLeftOut) implements Result {
        public Sets {
            Objects.requireNonNull(comparison, "comparison");
            baseRuns = List.copyOf(baseRuns);
            candidateRuns = List.copyOf(candidateRuns);
            Objects.requireNonNull(time, "time");
            failedLeftOut = List.copyOf(failedLeftOut);
        }

        /** Two sets without failed runs. */
        public Sets(Side base, Side candidate, GroupComparison comparison, List<RunFacts> baseRuns,
                List<RunFacts> candidateRuns, GroupComparison deviceComparison, TimeBasis time) {
            this(base, candidate, comparison, baseRuns, candidateRuns, deviceComparison, time, List.of());
        }
    }

    /**
     * One side of a set comparison: {@code label} the set as a heading shows it, {@code runs} how
     * many it has, {@code representative} the label of its median run, whose graph is shown.
     */
    public record Side(String label, int runs, String representative, ExecutionGraph graph) {
    }

    private final RunSources sources;

    public ReportComparison(RunSources sources) {
        this.sources = Objects.requireNonNull(sources, "sources");
    }

    public Outcome<Result> report(Command command) {
        try {
            if (!RunSources.isSet(command.base()) && !RunSources.isSet(command.candidate())) {
                RunGraph base = sources.graph(command.base(), ReadRun.Command.whole(command.base()).parts());
                RunGraph cand = sources.graph(command.candidate(),
                        ReadRun.Command.whole(command.candidate()).parts());
                RunFacts baseFacts = RunSources.factsOf(base.label(), base.graph());
                RunFacts candFacts = RunSources.factsOf(cand.label(), cand.graph());
                TimeBasis time = command.time();
                RunComparison comparison = RunComparison.compare(RunSources.on(time, baseFacts),
                        RunSources.on(time, candFacts));
                RunComparison device = time == TimeBasis.HOST && baseFacts.hasDeviceTime() && candFacts.hasDeviceTime()
                        ? RunComparison.compare(baseFacts.onDeviceTime(), candFacts.onDeviceTime()) : null;
                return Outcome.done(new Runs(base, cand, comparison, device, time));
            }
            return Outcome.done(sets(command));
        } catch (RunSources.Rejection e) {
            return Outcome.rejected(e.getMessage());
        }
    }

    private Sets sets(Command command) {
        List<RunSet> selected = List.of(sources.select(command.base()), sources.select(command.candidate()));
        List<List<RunFacts>> sides = sources.sets(selected);
        // As `compare` does for sets: failed captures left out (and said so), identities that differ refused.
        List<String> failed = new ArrayList<>();
        List<RunFacts> complete = CompareSets.complete(sides.get(0), command.base(), failed);
        List<RunFacts> completeCand = CompareSets.complete(sides.get(1), command.candidate(), failed);
        if (!command.allowMixedIdentity()) {
            Optional<String> mixed = CompareSets.mixedIdentity(complete, completeCand);
            if (mixed.isPresent()) {
                throw new RunSources.Rejection(mixed.get());
            }
        }
        TimeBasis time = command.time();
        List<RunFacts> base = RunSources.on(time, complete, "the baseline");
        List<RunFacts> cand = RunSources.on(time, completeCand, "the candidate");
        GroupOptions options = GroupOptions.defaults().withThreshold(command.thresholdPercent() / 100.0);
        GroupComparison comparison;
        GroupComparison device = null;
        try {
            comparison = GroupComparison.compare(base, cand, options);
            if (time == TimeBasis.HOST && base.stream().allMatch(RunFacts::hasDeviceTime)
                    && cand.stream().allMatch(RunFacts::hasDeviceTime)) {
                device = GroupComparison.compare(RunSources.on(TimeBasis.DEVICE, base, "the baseline"),
                        RunSources.on(TimeBasis.DEVICE, cand, "the candidate"), options);
            }
        } catch (IllegalArgumentException e) {
            throw new RunSources.Rejection(e.getMessage());
        }
        RunGraph baseRun = representative(base);
        RunGraph candRun = representative(cand);
        return new Sets(new Side(shortLabel(command.base()), base.size(), shortLabel(baseRun.label()),
                baseRun.graph()), new Side(shortLabel(command.candidate()), cand.size(), shortLabel(candRun.label()),
                candRun.graph()), comparison, base, cand, device, time, failed);
    }

    /**
     * The graph of the run with the median total time (of the time compared: the lower one of an even
     * count; ties by run id). A set names a trace file by its path and a stored run by its run_id.
     */
    private RunGraph representative(List<RunFacts> runs) {
        List<RunFacts> sorted = new ArrayList<>(runs);
        sorted.sort(Comparator.comparingDouble(RunFacts::totalMs)
                .thenComparing(RunFacts::runId, CodePointOrder.COMPARATOR));
        String id = sorted.get((sorted.size() - 1) / 2).runId();
        return sources.files().existing(id).isPresent()
                ? sources.graph(id, ReadRun.Command.whole(id).parts()) : sources.storedGraph(id);
    }

    /** A set as a heading can show it: a list by its first and last member (file names only), else as typed. */
    String shortLabel(String spec) {
        List<String> parts = new ArrayList<>();
        for (String part : spec.split(",")) {
            String p = part.strip();
            if (!p.isEmpty()) {
                Optional<TraceInput> file = sources.files().named(p);
                String name = file.map(f -> fileName(f.name())).orElse("");
                parts.add(name.isEmpty() ? p : name);
            }
        }
        if (parts.size() <= 1) {
            return parts.isEmpty() ? spec : parts.get(0);
        }
        if (parts.size() <= 3) {
            return String.join(", ", parts);
        }
        return parts.get(0) + ", " + parts.get(1) + ", \u2026, " + parts.get(parts.size() - 1) + " (" + parts.size()
                + " runs)";
    }

    /** The last name of a path as written ({@code a/b.jsonl} gives {@code b.jsonl}). */
    private static String fileName(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }
}
