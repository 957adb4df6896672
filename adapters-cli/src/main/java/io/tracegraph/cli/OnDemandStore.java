package io.tracegraph.cli;

import io.tracegraph.domain.compare.PathStats;
import io.tracegraph.domain.compare.RunFacts;
import io.tracegraph.domain.graph.ExecutionGraph;
import io.tracegraph.domain.graph.GradientRecord;
import io.tracegraph.domain.port.AdHocSql;
import io.tracegraph.domain.port.ComparisonFacts;
import io.tracegraph.domain.port.PathHistory;
import io.tracegraph.domain.port.RunCatalog;
import io.tracegraph.domain.port.RunStore;
import io.tracegraph.domain.port.StoredGraphs;
import io.tracegraph.domain.run.PathHistoryPoint;
import io.tracegraph.domain.run.ReadOnlySql;
import io.tracegraph.domain.run.RunFilter;
import io.tracegraph.domain.run.RunListing;
import io.tracegraph.domain.run.RunRef;
import io.tracegraph.domain.run.RunResolution;
import io.tracegraph.domain.run.RunSummary;
import io.tracegraph.domain.run.SqlOutcome;
import io.tracegraph.postgres.PostgresStore;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The store's read ports for one command, opened on first use: a command about a trace file never
 * starts a database, one about stored runs opens it once.
 */
final class OnDemandStore implements RunCatalog, StoredGraphs, ComparisonFacts, PathHistory, AdHocSql,
        AutoCloseable {
    private final Supplier<PostgresStore> opener;
    private PostgresStore store;

    OnDemandStore(Supplier<PostgresStore> opener) {
        this.opener = opener;
    }

    /** The store, opened now if it was not. */
    PostgresStore store() {
        if (store == null) {
            store = opener.get();
        }
        return store;
    }

    boolean opened() {
        return store != null;
    }

    RunStore runStore() {
        return store().runStore();
    }

    @Override
    public List<RunListing> runs(RunFilter filter) {
        return store().catalog().runs(filter);
    }

    @Override
    public RunResolution resolve(String reference) {
        return store().catalog().resolve(reference);
    }

    @Override
    public Optional<RunSummary> summary(RunRef run) {
        return store().catalog().summary(run);
    }

    @Override
    public Optional<ExecutionGraph> graph(RunRef run, Set<GraphPart> parts) {
        return store().graphs().graph(run, parts);
    }

    @Override
    public List<GradientRecord> gradients(RunRef run) {
        return store().graphs().gradients(run);
    }

    @Override
    public List<PathStats> pathStats(RunRef run) {
        return store().comparisonFacts().pathStats(run);
    }

    @Override
    public List<RunFacts> facts(List<RunRef> runs, boolean gradients) {
        return store().comparisonFacts().facts(runs, gradients);
    }

    @Override
    public List<PathHistoryPoint> history(String path, String entrypoint) {
        return store().pathHistory().history(path, entrypoint);
    }

    @Override
    public SqlOutcome sql(ReadOnlySql statement) {
        return store().adHocSql().sql(statement);
    }

    @Override
    public void close() {
        if (store != null) {
            store.close();
        }
    }
}
