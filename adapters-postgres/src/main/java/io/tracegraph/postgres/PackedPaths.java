package io.tracegraph.postgres;

import io.tracegraph.domain.compare.PathColumns;
import io.tracegraph.domain.compare.PathStats;
import java.sql.SQLException;
import org.jdbi.v3.core.Handle;

/**
 * A run's path statistics as stored at import (V4 {@code path_columns}: aggregated as
 * {@link PathStats#ofGraph} aggregates a graph's nodes), in path order, without their texts: one
 * row of packed columns, read with binary COPY (the key is a number of ours, not user input: it
 * is formatted into the statement, which COPY needs). A run without paths may have no row.
 */
record PackedPaths(long[] hashes, String[] kinds, long[] counts, long[] self, long[] total,
        long[] bytes, long[] peak) {
    private static final PackedPaths NONE = new PackedPaths(new long[0], new String[0], new long[0], new long[0],
            new long[0], new long[0], new long[0]);
    private static final String[] COLUMNS = {"path_hashes", "kinds", "counts", "self_times_ns", "total_times_ns",
        "bytes", "peak_bytes"};

    /**
     * Reads run {@code key}'s row. Its columns equal to those of run {@code like} (the first run of
     * a comparison; told by their digests, without reading them) come as null (NULL: not sent):
     * the runs of one model mostly have the same paths, kinds, counts and bytes, which need not
     * be sent and decoded again, and {@link #like} takes them from that run.
     */
    static PackedPaths read(Handle h, long key, long like) throws SQLException {
        StringBuilder query = new StringBuilder("COPY (SELECT p.paths");
        for (int c = 0; c < COLUMNS.length; c++) {
            if (key == like) {
                query.append(", p.").append(COLUMNS[c]);
            } else {
                // By their digests (V4): a column equal to the other run's is not even read.
                String digest = "(p.digests, " + (1 + 32 * c) + ", 32)";
                query.append(", CASE WHEN substr").append(digest).append(" = substr")
                        .append(digest.replace("p.", "l.")).append(" THEN NULL ELSE p.").append(COLUMNS[c])
                        .append(" END");
            }
        }
        query.append(" FROM path_columns p");
        if (key != like) {
            query.append(" LEFT JOIN path_columns l ON l.run_key = ").append(like);
        }
        query.append(" WHERE p.run_key = ").append(key).append(") TO STDOUT (FORMAT binary)");
        BinaryCopyReader copy = BinaryCopyReader.read(h.getConnection(), query.toString());
        if (!copy.nextRow()) {
            return NONE;
        }
        int n = copy.int4();
        return new PackedPaths(copy.int8Packed(n), copy.kindLines(n), copy.int8Packed(n), copy.int8Packed(n),
                copy.int8Packed(n), copy.int8Packed(n), copy.int8Packed(n));
    }

    /** These columns, those not sent taken from {@code first} (the run they equal, shared). */
    PackedPaths like(PackedPaths first) {
        return new PackedPaths(hashes != null ? hashes : first.hashes, kinds != null ? kinds : first.kinds,
                counts != null ? counts : first.counts, self != null ? self : first.self,
                total != null ? total : first.total, bytes != null ? bytes : first.bytes,
                peak != null ? peak : first.peak);
    }

    /** The statistics, {@code texts[i]} naming path {@code i}. */
    PathColumns stats(String[] texts) {
        return PathColumns.of(texts, hashes, kinds, counts, self, total, bytes, peak);
    }
}
