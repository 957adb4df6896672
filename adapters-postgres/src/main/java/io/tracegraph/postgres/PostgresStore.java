package io.tracegraph.postgres;

import io.tracegraph.domain.port.AdHocSql;
import io.tracegraph.domain.port.ComparisonFacts;
import io.tracegraph.domain.port.PathHistory;
import io.tracegraph.domain.port.RunCatalog;
import io.tracegraph.domain.port.RunStore;
import io.tracegraph.domain.port.StoredGraphs;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The way into this adapter: an open, migrated store (a configured database, or a lease on the
 * shared embedded server in a tracegraph home) and the ports over it. Nothing of jdbi, JDBC or the
 * connections crosses it: callers give configuration and get the domain's ports.
 *
 * <p>Close it when done: it closes its connections and gives the embedded server back (the last
 * process out stops it, unless {@code db start} pinned it).
 */
public final class PostgresStore implements AutoCloseable {
    private final EmbeddedPostgresServer.Lease lease;
    private final Database database;
    private final RunStore runStore;
    private final RunCatalog catalog;
    private final StoredGraphs graphs;
    private final ComparisonFacts comparisonFacts;
    private final PathHistory pathHistory;
    private Database reader;
    private AdHocSql adHocSql;

    private PostgresStore(EmbeddedPostgresServer.Lease lease, Database database) {
        this.lease = lease;
        this.database = database;
        this.runStore = new JdbiRunStore(database.jdbi());
        this.catalog = new JdbiRunCatalog(database.jdbi());
        this.graphs = new JdbiStoredGraphs(database.jdbi());
        // One reader of facts for the store's life: it keeps the path texts its last call read.
        this.comparisonFacts = new JdbiComparisonFacts(database.jdbi());
        this.pathHistory = new JdbiPathHistory(database.jdbi());
    }

    /**
     * The database {@code config} names, migrated to the current schema; {@code upgrading} hears,
     * before it starts, of an upgrade that may take a while.
     */
    public static PostgresStore open(DatabaseConfig config, Consumer<String> upgrading) {
        Objects.requireNonNull(config, "config");
        return new PostgresStore(null, Database.open(config, upgrading));
    }

    /**
     * The embedded server of the tracegraph {@code home} (started or joined), its database migrated
     * to the current schema; {@code upgrading} hears of an upgrade before it starts.
     */
    public static PostgresStore openEmbedded(Path home, Consumer<String> upgrading) {
        EmbeddedPostgresServer.Lease lease = EmbeddedPostgresServer.acquire(home);
        try {
            return new PostgresStore(lease, Database.open(lease.config(), upgrading));
        } catch (RuntimeException e) {
            lease.close();
            throw e;
        }
    }

    /** Where runs are stored (atomically, idempotently by content). */
    public RunStore runStore() {
        return runStore;
    }

    /** The stored runs: listing, references, summaries. */
    public RunCatalog catalog() {
        return catalog;
    }

    /** The stored runs' execution graphs. */
    public StoredGraphs graphs() {
        return graphs;
    }

    /** What comparisons read of stored runs. */
    public ComparisonFacts comparisonFacts() {
        return comparisonFacts;
    }

    /** One semantic path across the stored runs. */
    public PathHistory pathHistory() {
        return pathHistory;
    }

    /**
     * Where SQL the user wrote runs: on the embedded server as its read-only role (connected on first
     * use); on a configured database as the configured login itself (give tracegraph a login without
     * superuser rights there).
     */
    public synchronized AdHocSql adHocSql() {
        if (adHocSql == null) {
            if (lease == null) {
                adHocSql = new JdbiAdHocSql(database.jdbi());
            } else {
                reader = Database.connect(lease.readerConfig());
                adHocSql = new JdbiAdHocSql(reader.jdbi());
            }
        }
        return adHocSql;
    }

    @Override
    public synchronized void close() {
        try {
            if (reader != null) {
                reader.close();
            }
            database.close();
        } finally {
            if (lease != null) {
                lease.close();
            }
        }
    }

    @Override
    public String toString() {
        return "PostgresStore[" + database + "]";
    }
}
