package io.tracegraph.application;

import java.util.Objects;

/**
 * Use case: which runs a set names: a comma-separated list of runs (run_ids, prefixes,
 * {@code latest}, {@code latest~N}, trace files), {@code tag:K=V} (every stored run with that tag),
 * {@code identity:MEMBER=VALUE} (every stored run whose comparison identity has that member's value),
 * or a range such as {@code latest~9..latest}. A run named twice is kept twice, and said so
 * ({@link RunSet#duplicates()}).
 */
public final class ResolveRunSet {
    public record Command(String spec) {
        public Command {
            Objects.requireNonNull(spec, "spec");
        }
    }

    private final RunSources sources;

    public ResolveRunSet(RunSources sources) {
        this.sources = Objects.requireNonNull(sources, "sources");
    }

    public Outcome<RunSet> resolve(Command command) {
        try {
            return Outcome.done(sources.select(command.spec()));
        } catch (RunSources.Rejection e) {
            return Outcome.rejected(e.getMessage());
        }
    }
}
