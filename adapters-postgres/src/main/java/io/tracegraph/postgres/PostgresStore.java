package io.tracegraph.postgres;

import io.tracegraph.domain.port.AdHocSql;
import io.tracegraph.domain.port.ComparisonFacts;
import io.tracegraph.domain.port.PathHistory;
import io.tracegraph.domain.port.RunCatalog;
import io.tracegraph.domain.port.RunStore;
import io.tracegraph.domain.port.StoredGraphs;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
    /** Where the shards of an embedded sharded store live, in the tracegraph home. */
    static final String SHARD_HOMES = "shards";
    /** Connections a comparison reads runs on at once in a sharded store (each costs a backend per shard). */
    static final int SHARDED_READERS = 2;

    private final EmbeddedPostgresServer.Lease lease;
    private final List<EmbeddedPostgresServer.Lease> shardLeases;
    private final Database database;
    private final Shards shards;
    private final RunStore runStore;
    private final RunCatalog catalog;
    private final StoredGraphs graphs;
    private final ComparisonFacts comparisonFacts;
    private final PathHistory pathHistory;
    private Database reader;
    private AdHocSql adHocSql;

    private PostgresStore(EmbeddedPostgresServer.Lease lease, List<EmbeddedPostgresServer.Lease> shardLeases,
            Database database) {
        this.lease = lease;
        this.shardLeases = shardLeases;
        this.database = database;
        this.shards = Shards.of(database).orElse(null);
        this.runStore = new JdbiRunStore(database.jdbi(), shards);
        this.catalog = new JdbiRunCatalog(database.jdbi());
        this.graphs = new JdbiStoredGraphs(database.jdbi());
        // One reader of facts for the store's life: it keeps the path texts its last call read. On a
        // sharded store each reader's connection is a coordinator backend that opens a postgres_fdw
        // connection of its own to every shard it reads (a backend, a login and remote estimates
        // each): two readers, not four (docs/scaling.md, round 5).
        this.comparisonFacts = shards == null ? new JdbiComparisonFacts(database.jdbi())
                : new JdbiComparisonFacts(database.jdbi(), SHARDED_READERS);
        this.pathHistory = new JdbiPathHistory(database.jdbi(), shards != null);
    }

    /**
     * The database {@code config} names, migrated to the current schema; {@code upgrading} hears,
     * before it starts, of an upgrade that may take a while.
     */
    public static PostgresStore open(DatabaseConfig config, Consumer<String> upgrading) {
        return open(config, List.of(), upgrading);
    }

    /**
     * The store whose coordinator {@code config} names, spread over {@code shards} (docs/scaling.md):
     * an empty store is laid out over them on first use; a sharded one must name the same number of
     * shards (their addresses and logins are updated). With no shards given, a sharded store uses
     * those it knows and a single server stays one.
     */
    public static PostgresStore open(DatabaseConfig config, List<DatabaseConfig> shards, Consumer<String> upgrading) {
        Objects.requireNonNull(config, "config");
        Database database = Database.open(config, upgrading);
        try {
            if (!shards.isEmpty()) {
                layOut(database, shards, upgrading);
            }
            return new PostgresStore(null, List.of(), database);
        } catch (RuntimeException e) {
            database.close();
            throw e;
        }
    }

    /** Makes {@code database} the coordinator of {@code shards}, or points it at them again. */
    private static void layOut(Database database, List<DatabaseConfig> shards, Consumer<String> upgrading) {
        if (!database.isCoordinator()) {
            for (int i = 0; i < shards.size(); i++) {
                // Each shard holds a whole store's schema (its per-run tables are the partitions).
                Database.openShard(shards.get(i), upgrading, ShardLayout.serverName(i + 1)).close();
            }
            database.inTransaction("cannot lay the store out over its shards at " + database.config().describe(),
                    c -> {
                        ShardLayout.create(c, shards);
                        ShardLayout.derive(c);
                    });
            return;
        }
        database.inTransaction("cannot point the store at its shards at " + database.config().describe(), c -> {
            List<ShardLayout.Shard> known = ShardLayout.shards(c);
            if (known.size() != shards.size()) {
                throw new DatabaseException("the store is sharded over " + known.size() + " shard(s), not "
                        + shards.size() + "; adding a shard: see docs/scaling.md");
            }
            for (int i = 0; i < shards.size(); i++) {
                ShardLayout.Shard shard = known.get(i);
                DatabaseConfig wanted = shards.get(i);
                if (!ShardAddress.of(shard.config()).equals(ShardAddress.of(wanted))
                        || !shard.config().user().equals(wanted.user())
                        || !shard.config().password().equals(wanted.password())) {
                    ShardLayout.update(c, shard.server(), wanted);
                }
            }
        });
    }

    /** The shards of this store and the runs each holds; empty for a store on one server. */
    public List<ShardStatus> shardStatus() {
        if (shards == null) {
            return List.of();
        }
        return Reads.call(() -> database.jdbi().withHandle(h -> shards.list().stream()
                .map(shard -> new ShardStatus(shard.server(), shard.config().describe(), shard.remainder(),
                        shard.modulus(), h.createQuery("SELECT count(*) FROM public.runs WHERE satisfies_hash_partition("
                                + "'" + ShardLayout.PARTS + "." + ShardLayout.PLACEMENT + "'::regclass, :modulus, "
                                + ":remainder, run_key)")
                                .bind("modulus", shard.modulus()).bind("remainder", shard.remainder())
                                .mapTo(Long.class).one()))
                .toList()));
    }

    /**
     * A shard of a sharded store.
     *
     * @param server    the coordinator's foreign server for it ({@code shard_1}, ...)
     * @param address   where it is and who logs in, for people (no password)
     * @param remainder the hash partition of run_key it holds ({@code run_key}'s hash modulo {@code modulus})
     * @param runs      the catalogued runs it holds
     */
    public record ShardStatus(String server, String address, int remainder, int modulus, long runs) {
    }

    /**
     * The embedded server of the tracegraph {@code home} (started or joined), its database migrated
     * to the current schema; {@code upgrading} hears of an upgrade before it starts.
     */
    public static PostgresStore openEmbedded(Path home, Consumer<String> upgrading) {
        List<Path> shardHomes = shardHomes(home);
        EmbeddedPostgresServer.Lease lease = EmbeddedPostgresServer.acquire(home);
        List<EmbeddedPostgresServer.Lease> shardLeases = new ArrayList<>();
        try {
            for (Path shardHome : shardHomes) {
                // Only the coordinator connects to a shard: no login of ours to check it first.
                shardLeases.add(EmbeddedPostgresServer.acquire(shardHome, false));
            }
            List<DatabaseConfig> shards = shardLeases.stream().map(EmbeddedPostgresServer.Lease::config).toList();
            Database database = Database.open(lease.config(), upgrading);
            try {
                if (!shards.isEmpty()) {
                    layOut(database, shards, upgrading);
                }
                return new PostgresStore(lease, List.copyOf(shardLeases), database);
            } catch (RuntimeException e) {
                database.close();
                throw e;
            }
        } catch (RuntimeException e) {
            shardLeases.forEach(EmbeddedPostgresServer.Lease::close);
            lease.close();
            throw e;
        }
    }

    /**
     * Makes the embedded store of {@code home} one of {@code count} embedded shards on loopback
     * besides its coordinator ({@code db start --shards N}); a home that has them keeps them.
     *
     * @throws DatabaseException when the home has another number of shards, or runs on one server
     */
    public static void createEmbeddedShards(Path home, int count) {
        List<Path> existing = shardHomes(home);
        if (!existing.isEmpty()) {
            if (existing.size() != count) {
                throw new DatabaseException("the embedded store of " + home + " has " + existing.size()
                        + " shard(s), not " + count + "; adding a shard: see docs/scaling.md");
            }
            return;
        }
        for (int i = 1; i <= count; i++) {
            try {
                HomeFiles.createOwnerOnlyDirectory(home.resolve(SHARD_HOMES));
                HomeFiles.createOwnerOnlyDirectory(home.resolve(SHARD_HOMES).resolve(Integer.toString(i)));
            } catch (java.io.IOException e) {
                throw new DatabaseException("cannot create the shard home " + home.resolve(SHARD_HOMES) + ": "
                        + HomeFiles.reason(e), e);
            }
        }
    }

    /** The homes of the embedded shards of {@code home}, in shard order; none for a store on one server. */
    public static List<Path> shardHomes(Path home) {
        Path dir = home.resolve(SHARD_HOMES);
        List<Path> homes = new ArrayList<>();
        for (int i = 1; java.nio.file.Files.isDirectory(dir.resolve(Integer.toString(i))); i++) {
            homes.add(dir.resolve(Integer.toString(i)));
        }
        return homes;
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
            if (shards != null) {
                shards.close();
            }
            database.close();
        } finally {
            shardLeases.forEach(EmbeddedPostgresServer.Lease::close);
            if (lease != null) {
                lease.close();
            }
        }
    }

    /** Where the store (its coordinator) is, for people: host, port, database and login. */
    public String describe() {
        return database.config().describe();
    }

    @Override
    public String toString() {
        return "PostgresStore[" + database + "]";
    }
}
