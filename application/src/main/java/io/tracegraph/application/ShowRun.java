package io.tracegraph.application;

import io.tracegraph.domain.port.RunCatalog;
import io.tracegraph.domain.run.RunRef;
import io.tracegraph.domain.run.RunSummary;
import java.util.Objects;
import java.util.Optional;

/** Use case: a stored run's summary (metadata, health, graph summary, memory). */
public final class ShowRun {
    /** {@code reference}: a run_id, an unambiguous prefix of one, {@code latest} or {@code latest~N}. */
    public record Command(String reference) {
        public Command {
            Objects.requireNonNull(reference, "reference");
        }
    }

    private final RunSources sources;
    private final RunCatalog catalog;

    public ShowRun(RunSources sources, RunCatalog catalog) {
        this.sources = Objects.requireNonNull(sources, "sources");
        this.catalog = Objects.requireNonNull(catalog, "catalog");
    }

    public Outcome<RunSummary> show(Command command) {
        RunRef ref;
        try {
            ref = sources.resolve(command.reference());
        } catch (RunSources.Rejection e) {
            return Outcome.rejected(e.getMessage());
        }
        Optional<RunSummary> found = catalog.summary(ref);
        return found.<Outcome<RunSummary>>map(Outcome::done)
                .orElseGet(() -> Outcome.rejected("run `" + ref.runId() + "` is no longer stored"));
    }
}
