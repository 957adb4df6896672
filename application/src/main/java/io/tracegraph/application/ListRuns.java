package io.tracegraph.application;

import io.tracegraph.domain.port.RunCatalog;
import io.tracegraph.domain.run.RunFilter;
import io.tracegraph.domain.run.RunListing;
import java.util.List;
import java.util.Objects;

/** Use case: the stored runs a filter selects, newest first. */
public final class ListRuns {
    public record Command(RunFilter filter) {
        public Command {
            Objects.requireNonNull(filter, "filter");
        }
    }

    private final RunCatalog catalog;

    public ListRuns(RunCatalog catalog) {
        this.catalog = Objects.requireNonNull(catalog, "catalog");
    }

    public List<RunListing> list(Command command) {
        return catalog.runs(command.filter());
    }
}
