package io.tracegraph.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.tracegraph.domain.compare.PathStats;
import java.nio.ByteBuffer;
import java.nio.LongBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * V3 computes path_stats for the runs stored before it exactly as the store writes it for new ones,
 * and V4 gathers them into path_columns.
 */
@ExtendWith(PostgresExtension.class)
class PathStatsMigrationIT {
    private final DatabaseConfig config;

    PathStatsMigrationIT(DatabaseConfig config) {
        this.config = config;
    }

    @Test
    void backfillsTheRunsStoredBeforeVersions3And4InPathOrder() {
        Flyway.configure().dataSource(config.jdbcUrl(), config.user(), config.password())
                .locations(Database.MIGRATIONS).target("2").load().migrate();
        Jdbi jdbi = Jdbi.create(config.jdbcUrl(), config.user(), config.password());
        // Occurrences of one run: repeated paths (kinds that differ: the first occurrence's wins; sums
        // that saturate), a path beyond ASCII and upper before lower case (code point order, not the
        // server's collation).
        List<PathStats> occurrences = List.of(
                PathStats.of("step", -5, "root", 10, 100, 0, 0),
                PathStats.of("step/Zeta", 42, "function", 20, 30, 64, 64),
                PathStats.of("step/émbed", 7, "module", 5, 5, 8, 8),
                PathStats.of("step/Zeta", 42, "op", 1, 2, 32, 128),
                PathStats.of("step/alpha", Long.MIN_VALUE, "op", Long.MAX_VALUE, Long.MAX_VALUE, 1, 1),
                PathStats.of("step/alpha", Long.MIN_VALUE, "op", 3, 3, 1, 1));
        jdbi.useHandle(h -> {
            for (int i = 0; i < occurrences.size(); i++) {
                PathStats o = occurrences.get(i);
                h.createUpdate("INSERT INTO nodes (run_key, node_idx, id, parent_id, name, kind, depth, path, "
                        + "path_hash, start_ns, self_time_ns, total_time_ns, bytes, peak_bytes, residual_bytes) "
                        + "VALUES (7, :idx, :id, NULL, :name, :kind, 1, :path, :hash, 0, :self, :total, :bytes, "
                        + ":peak, 0)")
                        .bind("idx", i).bind("id", "n" + i).bind("name", o.path()).bind("kind", o.kind())
                        .bind("path", o.path()).bind("hash", o.pathHash()).bind("self", o.selfTimeNs())
                        .bind("total", o.totalTimeNs()).bind("bytes", o.bytes()).bind("peak", o.peakBytes())
                        .execute();
            }
        });

        List<String> notices = new ArrayList<>();
        try (Database database = Database.open(config, notices::add)) {
            assertThat(notices).containsExactly("upgrading the store from schema version 2 to "
                    + Migrations.newestVersion().getAsInt() + " (once; a big store takes a minute or more)");
            List<PathStats> stored = new ArrayList<>();
            List<Integer> ranks = new ArrayList<>();
            database.jdbi().useHandle(h -> h.createQuery("SELECT * FROM path_stats WHERE run_key = 7 "
                    + "ORDER BY path_rank").map((rs, ctx) -> {
                        ranks.add(rs.getInt("path_rank"));
                        return new PathStats(rs.getString("path"), rs.getLong("path_hash"), rs.getString("kind"),
                                rs.getLong("count"), rs.getLong("self_time_ns"), rs.getLong("total_time_ns"),
                                rs.getLong("bytes"), rs.getLong("peak_bytes"));
                    }).forEach(stored::add));

            assertThat(stored).isEqualTo(PathStats.aggregate(occurrences));
            assertThat(ranks).containsExactly(0, 1, 2, 3);
            long viewed = database.jdbi().withHandle(h -> h.createQuery("SELECT count(*) FROM run_paths "
                    + "WHERE run_key = 7").mapTo(Long.class).one());
            assertThat(viewed).isEqualTo(4);

            // V4 packs the same statistics into one row, in path order.
            List<PathStats> gathered = database.jdbi().withHandle(h -> h.createQuery("SELECT * FROM path_columns "
                    + "WHERE run_key = 7").map((rs, ctx) -> {
                        int n = rs.getInt("paths");
                        String[] kinds = rs.getString("kinds").split("\n", -1);
                        LongBuffer hashes = packed(rs.getBytes("path_hashes"));
                        LongBuffer counts = packed(rs.getBytes("counts"));
                        LongBuffer self = packed(rs.getBytes("self_times_ns"));
                        LongBuffer total = packed(rs.getBytes("total_times_ns"));
                        LongBuffer bytes = packed(rs.getBytes("bytes"));
                        LongBuffer peak = packed(rs.getBytes("peak_bytes"));
                        assertThat(kinds).hasSize(n);
                        assertThat(hashes.remaining()).isEqualTo(n);
                        // The digests the import would write for these columns.
                        assertThat(rs.getBytes("digests")).isEqualTo(digests(rs.getBytes("path_hashes"),
                                rs.getString("kinds").getBytes(StandardCharsets.UTF_8), rs.getBytes("counts"),
                                rs.getBytes("self_times_ns"), rs.getBytes("total_times_ns"), rs.getBytes("bytes"),
                                rs.getBytes("peak_bytes")));
                        assertThat(Arrays.copyOf(rs.getBytes("digests"), 32))
                                .isEqualTo(JdbiRunStore.sha256(array(hashes)));
                        List<PathStats> stats = new ArrayList<>();
                        for (int i = 0; i < n; i++) {
                            stats.add(new PathStats(stored.get(i).path(), hashes.get(i), kinds[i], counts.get(i),
                                    self.get(i), total.get(i), bytes.get(i), peak.get(i)));
                        }
                        return stats;
                    }).one());
            assertThat(gathered).isEqualTo(stored);
        }
        Database.open(config, notices::add).close();
        assertThat(notices).as("nothing to upgrade the second time").hasSize(1);
    }

    private static byte[] digests(byte[]... columns) {
        ByteBuffer all = ByteBuffer.allocate(columns.length * 32);
        try {
            for (byte[] column : columns) {
                all.put(MessageDigest.getInstance("SHA-256").digest(column));
            }
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        return all.array();
    }

    private static long[] array(LongBuffer values) {
        long[] array = new long[values.remaining()];
        values.duplicate().get(array);
        return array;
    }

    private static LongBuffer packed(byte[] bytes) {
        return ByteBuffer.wrap(bytes).asLongBuffer();
    }
}
