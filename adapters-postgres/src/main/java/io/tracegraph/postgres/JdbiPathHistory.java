package io.tracegraph.postgres;

import static io.tracegraph.postgres.Reads.call;
import static io.tracegraph.postgres.RunRows.NEWEST_FIRST;
import static io.tracegraph.postgres.RunRows.OLDEST_FIRST;
import static io.tracegraph.postgres.RunRows.instant;
import static io.tracegraph.postgres.RunRows.pathStats;
import static io.tracegraph.postgres.RunRows.runRef;

import io.tracegraph.domain.graph.SemanticPaths;
import io.tracegraph.domain.port.PathHistory;
import io.tracegraph.domain.run.PathHistoryPoint;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.transaction.TransactionIsolationLevel;

/**
 * The PostgreSQL history of one semantic path across the stored runs: the path's nodes aggregated
 * per run, oldest first, in one snapshot (a repeatable-read transaction).
 */
final class JdbiPathHistory implements PathHistory {
    /** Newest runs searched for a path given by text whose names may contain {@code /}. */
    private static final int PATH_TEXT_RUNS = 20;

    private final Jdbi jdbi;

    JdbiPathHistory(Jdbi jdbi) {
        this.jdbi = Objects.requireNonNull(jdbi, "jdbi");
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
            var byText = h.createQuery("SELECT n.path_hash FROM (SELECT run_key, captured_at, "
                    + "imported_at FROM runs" + (entrypoint == null ? "" : " WHERE entrypoint = :entrypoint")
                    + " ORDER BY " + NEWEST_FIRST + " LIMIT :runs) r "
                    + "CROSS JOIN LATERAL (SELECT path_hash FROM nodes n WHERE n.run_key = r.run_key "
                    + "AND n.path = :path ORDER BY n.node_idx LIMIT 1) n "
                    + "ORDER BY r." + NEWEST_FIRST.replace(", ", ", r.") + " LIMIT 1")
                    .bind("runs", PATH_TEXT_RUNS)
                    .bind("path", text);
            if (entrypoint != null) {
                byText.bind("entrypoint", JdbiRunStore.clean(entrypoint));
            }
            Optional<Long> found = byText.mapTo(Long.class).findOne();
            return found.isPresent() && found.get() != hash ? history(h, found.get(), entrypoint) : points;
        }));
    }

    private static List<PathHistoryPoint> history(Handle h, long hash, String entrypoint) {
        var query = h.createQuery("SELECT r.run_key, r.run_id, r.run_timestamp, r.captured_at, r.imported_at, "
                + "r.entrypoint, p.* FROM runs r CROSS JOIN LATERAL ("
                + "SELECT (array_agg(n.path ORDER BY n.node_idx))[1] AS path, :hash AS path_hash, "
                + "(array_agg(n.kind ORDER BY n.node_idx))[1] AS kind, count(*) AS count, "
                + "least(sum(n.self_time_ns), 9223372036854775807)::bigint AS self_time_ns, "
                + "least(sum(n.total_time_ns), 9223372036854775807)::bigint AS total_time_ns, "
                + "least(sum(n.bytes), 9223372036854775807)::bigint AS bytes, max(n.peak_bytes) AS peak_bytes "
                + "FROM nodes n WHERE n.run_key = r.run_key AND n.path_hash = :hash) p "
                + "WHERE p.count > 0" + (entrypoint == null ? "" : " AND r.entrypoint = :entrypoint")
                + " ORDER BY r." + OLDEST_FIRST.replace(", ", ", r."))
                .bind("hash", hash);
        if (entrypoint != null) {
            query.bind("entrypoint", JdbiRunStore.clean(entrypoint));
        }
        return query.map((rs, ctx) -> new PathHistoryPoint(runRef(rs), rs.getString("run_timestamp"),
                        instant(rs, "captured_at"), instant(rs, "imported_at"), rs.getString("entrypoint"),
                        pathStats(rs)))
                .list();
    }
}
