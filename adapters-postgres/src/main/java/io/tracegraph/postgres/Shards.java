package io.tracegraph.postgres;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.JdbiException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shards of a sharded store, as its writer uses them: which shard holds a run (by the
 * coordinator's hash partitioning of {@code run_key}), a direct connection to each (opened on first
 * use, so that a shard that is down only fails what needs it), and the sweep of rows that no
 * catalogued run owns (left by an import that died between its shard's commit and the catalogue's).
 */
final class Shards implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Shards.class);

    private final Jdbi coordinator;
    private final List<ShardLayout.Shard> shards;
    private final Map<Integer, Database> open = new ConcurrentHashMap<>();
    private final AtomicBoolean swept = new AtomicBoolean();

    private Shards(Jdbi coordinator, List<ShardLayout.Shard> shards) {
        this.coordinator = coordinator;
        this.shards = List.copyOf(shards);
    }

    /** The shards of the store {@code coordinator} opens; empty when it is not sharded. */
    static java.util.Optional<Shards> of(Database coordinator) {
        try (Connection c = coordinator.dataSource().getConnection()) {
            if (!ShardLayout.isCoordinator(c)) {
                return java.util.Optional.empty();
            }
            return java.util.Optional.of(new Shards(coordinator.jdbi(), ShardLayout.shards(c)));
        } catch (SQLException e) {
            throw coordinator.wrap("cannot read the shards of the store at " + coordinator.config().describe(), e);
        }
    }

    List<ShardLayout.Shard> list() {
        return shards;
    }

    /** The shard that holds run {@code key}, asked of the coordinator in {@code h}. */
    ShardLayout.Shard placement(Handle h, long key) {
        int number = h.createQuery("SELECT shard FROM " + ShardLayout.META + ".shards WHERE satisfies_hash_partition("
                + "'" + ShardLayout.PARTS + "." + ShardLayout.PLACEMENT + "'::regclass, modulus, remainder, "
                + "CAST(:key AS bigint))")
                .bind("key", key).mapTo(Integer.class).one();
        return shards.stream().filter(s -> s.number() == number).findFirst().orElseThrow();
    }

    /** Runs {@code work} in one transaction on {@code shard}'s own connection; a failure names the shard. */
    <T> T inTransaction(ShardLayout.Shard shard, ShardWork<T> work) {
        try {
            return database(shard).jdbi().inTransaction(work::run);
        } catch (SQLException | JdbiException | DatabaseException e) {
            throw new DatabaseException("shard " + shard.describe() + ": " + DatabaseConfig.redact(
                    e instanceof DatabaseException d ? d.getMessage() : DatabaseException.databaseMessage(e)), e);
        }
    }

    /** Work on a shard's connection. */
    interface ShardWork<T> {
        T run(Handle h) throws SQLException;
    }

    private Database database(ShardLayout.Shard shard) {
        return open.computeIfAbsent(shard.number(), n -> Database.connect(shard.config()));
    }

    /** The per-run tables of a shard's store (every table with a run_key but the catalogue's). */
    static List<String> perRunTables(Handle h) {
        return h.createQuery("SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                + "WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relname NOT IN ('runs', 'import_log') "
                + "AND EXISTS (SELECT FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'run_key' "
                + "AND NOT a.attisdropped) ORDER BY c.relname")
                .mapTo(String.class).list();
    }

    /** Deletes every row of the runs {@code keys} on {@code h}'s shard. */
    static void delete(Handle h, long[] keys) {
        for (String table : perRunTables(h)) {
            h.createUpdate("DELETE FROM public." + ShardLayout.quote(table) + " WHERE run_key = ANY (:keys)")
                    .bind("keys", keys).execute();
        }
    }

    /** Deletes run {@code key}'s rows on its shard, which no catalogue row owns any more; a failure is logged. */
    void deleteUncatalogued(long key) {
        ShardLayout.Shard shard = coordinator.withHandle(h -> placement(h, key));
        try {
            inTransaction(shard, h -> {
                delete(h, new long[] {key});
                return null;
            });
        } catch (DatabaseException e) {
            LOG.warn("the rows of replaced run {} stay on {} until the next import sweeps them: {}", key,
                    shard.describe(), e.getMessage());
        }
    }

    /**
     * Once per store: removes from every shard the rows of runs the catalogue does not hold and no
     * import is writing (an import holds the advisory lock of its run_key until the catalogue row is
     * committed). A shard that does not answer is left for a later sweep.
     */
    void sweepOnce() {
        if (!swept.compareAndSet(false, true)) {
            return;
        }
        for (ShardLayout.Shard shard : shards) {
            try {
                sweep(shard);
            } catch (DatabaseException e) {
                LOG.warn("could not sweep {} for rows of unfinished imports: {}", shard.describe(), e.getMessage());
            }
        }
    }

    private void sweep(ShardLayout.Shard shard) {
        long[] stored = inTransaction(shard, h -> {
            List<String> tables = perRunTables(h);
            List<String> selects = new ArrayList<>();
            for (String table : tables) {
                selects.add("SELECT run_key FROM public." + ShardLayout.quote(table));
            }
            return h.createQuery("SELECT DISTINCT run_key FROM (" + String.join(" UNION ", selects) + ") k")
                    .mapTo(Long.class).list().stream().mapToLong(Long::longValue).toArray();
        });
        if (stored.length == 0) {
            return;
        }
        coordinator.useTransaction(c -> {
            long[] unknown = c.createQuery("SELECT k FROM unnest(CAST(:keys AS bigint[])) k "
                    + "WHERE NOT EXISTS (SELECT FROM public.runs r WHERE r.run_key = k)")
                    .bind("keys", stored).mapTo(Long.class).list().stream().mapToLong(Long::longValue).toArray();
            if (unknown.length == 0) {
                return;
            }
            // Those no live import holds; the catalogue looked at again once they are locked.
            long[] locked = c.createQuery("SELECT k FROM unnest(CAST(:keys AS bigint[])) k "
                    + "WHERE pg_try_advisory_xact_lock(k)")
                    .bind("keys", unknown).mapTo(Long.class).list().stream().mapToLong(Long::longValue).toArray();
            long[] orphans = c.createQuery("SELECT k FROM unnest(CAST(:keys AS bigint[])) k "
                    + "WHERE NOT EXISTS (SELECT FROM public.runs r WHERE r.run_key = k)")
                    .bind("keys", locked).mapTo(Long.class).list().stream().mapToLong(Long::longValue).toArray();
            if (orphans.length > 0) {
                inTransaction(shard, h -> {
                    delete(h, orphans);
                    return null;
                });
                LOG.info("removed the rows of {} unfinished or replaced import(s) from {}", orphans.length,
                        shard.describe());
            }
        });
    }

    @Override
    public void close() {
        for (Database db : open.values()) {
            db.close();
        }
        open.clear();
    }

    @Override
    public String toString() {
        return "Shards" + shards.stream().map(ShardLayout.Shard::describe).toList();
    }

    Jdbi coordinator() {
        return Objects.requireNonNull(coordinator);
    }
}
