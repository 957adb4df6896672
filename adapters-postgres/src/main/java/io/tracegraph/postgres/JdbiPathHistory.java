package io.tracegraph.postgres;

import static io.tracegraph.postgres.Reads.call;
import static io.tracegraph.postgres.RunRows.NEWEST_FIRST;
import static io.tracegraph.postgres.RunRows.OLDEST_FIRST;
import static io.tracegraph.postgres.RunRows.instant;
import static io.tracegraph.postgres.RunRows.runRef;

import io.tracegraph.domain.compare.PathStats;
import io.tracegraph.domain.graph.SemanticPaths;
import io.tracegraph.domain.port.PathHistory;
import io.tracegraph.domain.run.PathHistoryPoint;
import io.tracegraph.domain.run.RunRef;
import io.tracegraph.domain.trace.RunOutcome;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.transaction.TransactionIsolationLevel;

/**
 * The PostgreSQL history of one semantic path across the stored runs: the path's statistics in each
 * run (V5 {@code path_packs}, found by hash with {@code run_path_figures()} in a few slices of each
 * run's packs; its device times since V6), oldest first, failed captures among them with their
 * outcome, in one snapshot (a repeatable-read transaction).
 */
final class JdbiPathHistory implements PathHistory {
    /** Newest runs searched for a path given by text whose names may contain {@code /}. */
    private static final int PATH_TEXT_RUNS = 20;

    private final Jdbi jdbi;
    /** A sharded store's coordinator (docs/scaling.md): the path is found on the shards. */
    private final boolean sharded;

    JdbiPathHistory(Jdbi jdbi) {
        this(jdbi, false);
    }

    JdbiPathHistory(Jdbi jdbi, boolean sharded) {
        this.jdbi = Objects.requireNonNull(jdbi, "jdbi");
        this.sharded = sharded;
    }

    @Override
    public List<PathHistoryPoint> history(String path, String entrypoint) {
        Objects.requireNonNull(path, "path");
        String text = JdbiRunStore.clean(path);
        long hash = SemanticPaths.hashOf(Arrays.asList(text.split("/", -1)));
        return call(() -> jdbi.inTransaction(TransactionIsolationLevel.REPEATABLE_READ, h -> {
            List<PathHistoryPoint> points = history(h, hash, entrypoint);
            if (!points.isEmpty()) {
                return points;
            }
            // A name containing '/' (or an abbreviated path): find the path by its text in the newest runs.
            // (The newest runs first, then their packs by key: no lateral subquery over the catalogue,
            // which Citus cannot push down, docs/scaling.md.)
            var newest = h.createQuery("SELECT run_key FROM runs"
                    + (entrypoint == null ? "" : " WHERE entrypoint = :entrypoint")
                    + " ORDER BY " + NEWEST_FIRST + " LIMIT :runs")
                    .bind("runs", PATH_TEXT_RUNS);
            if (entrypoint != null) {
                newest.bind("entrypoint", JdbiRunStore.clean(entrypoint));
            }
            List<Long> keys = newest.mapTo(Long.class).list();
            Map<Long, Long> hashes = new HashMap<>();
            h.createQuery("SELECT k.run_key, k.hashes[array_position(k.texts, :path)] AS path_hash FROM path_packs k "
                    + "WHERE k.run_key = ANY (:keys) AND array_position(k.texts, :path) IS NOT NULL")
                    .bind("path", text)
                    .bind("keys", keys.stream().mapToLong(Long::longValue).toArray())
                    .map((rs, ctx) -> Map.entry(rs.getLong("run_key"), rs.getLong("path_hash")))
                    .forEach(e -> hashes.put(e.getKey(), e.getValue()));
            Optional<Long> found = keys.stream().filter(hashes::containsKey).map(hashes::get).findFirst();
            return found.isPresent() && found.get() != hash ? history(h, found.get(), entrypoint) : points;
        }));
    }

    /** The runs that have the path of {@code hash}, oldest first, with its text read once (a hash names one). */
    private List<PathHistoryPoint> history(Handle h, long hash, String entrypoint) {
        String select = "SELECT r.run_key, r.run_id, r.run_timestamp, r.captured_at, r.imported_at, "
                + "r.entrypoint, r.outcome, r.outcome_reason, r.terminal_timestamp_ns, f.path_rank, f.kind, f.count, "
                + "f.self_time_ns, f.total_time_ns, f.bytes, f.peak_bytes, f.device_self_time_ns, "
                + "f.device_total_time_ns FROM runs r ";
        // Sharded: each shard finds the path in its runs with run_path_figures() (one remote query per
        // shard, at once), instead of the coordinator fetching every run's packs to call it.
        var query = h.createQuery(select + (sharded
                        ? "JOIN " + ShardLayout.PARTS + ".path_figures f ON f.run_key = r.run_key WHERE f.path_hash = :hash"
                        + (entrypoint == null ? "" : " AND r.entrypoint = :entrypoint")
                        : "CROSS JOIN LATERAL run_path_figures(r.run_key, :hash) f"
                        + (entrypoint == null ? "" : " WHERE r.entrypoint = :entrypoint"))
                + " ORDER BY r." + OLDEST_FIRST.replace(", ", ", r."))
                .bind("hash", hash);
        if (entrypoint != null) {
            query.bind("entrypoint", JdbiRunStore.clean(entrypoint));
        }
        List<Found> found = query.map((rs, ctx) -> new Found(runRef(rs), rs.getString("run_timestamp"),
                instant(rs, "captured_at"), instant(rs, "imported_at"), rs.getString("entrypoint"),
                rs.getInt("path_rank"), rs.getString("kind"), rs.getLong("count"), rs.getLong("self_time_ns"),
                rs.getLong("total_time_ns"), rs.getLong("bytes"), rs.getLong("peak_bytes"),
                rs.getLong("device_self_time_ns"), rs.getLong("device_total_time_ns"), RunRows.outcome(rs))).list();
        if (found.isEmpty()) {
            return List.of();
        }
        Found first = found.get(0);
        String text = h.createQuery(sharded
                        ? "SELECT path_text FROM " + ShardLayout.PARTS + ".path_texts WHERE run_key = :key AND path_rank = :rank"
                        : "SELECT texts[:rank + 1] FROM path_packs WHERE run_key = :key")
                .bind("rank", first.rank()).bind("key", first.run().key()).mapTo(String.class).one();
        return found.stream().map(f -> new PathHistoryPoint(f.run(), f.timestamp(), f.capturedAt(), f.importedAt(),
                f.entrypoint(), new PathStats(text, hash, f.kind(), f.count(), f.self(), f.total(), f.bytes(),
                        f.peak(), f.deviceSelf(), f.deviceTotal()), f.outcome())).toList();
    }

    /** One run's figures of the path, as the store found them (device times 0 for a run without). */
    private record Found(RunRef run, String timestamp, Instant capturedAt, Instant importedAt, String entrypoint,
            int rank, String kind, long count, long self, long total, long bytes, long peak, long deviceSelf,
            long deviceTotal, RunOutcome outcome) {
    }
}
