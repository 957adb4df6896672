package io.tracegraph.postgres;

import io.tracegraph.domain.compare.PathColumns;
import io.tracegraph.domain.compare.PathStats;
import java.nio.ByteBuffer;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.jdbi.v3.core.Handle;

/**
 * A run's path statistics as stored at import (V5 {@code path_packs}: aggregated as
 * {@link PathStats#ofGraph} aggregates a graph's nodes; V6 adds the device times, zeros for a run
 * without), in path order, without their texts: one
 * row of packed columns, read with binary COPY (the key is a number of ours, not user input: it
 * is formatted into the statement, which COPY needs). A run without paths may have no row.
 */
final class PackedPaths {
    private static final PackedPaths NONE = new PackedPaths(new long[0], new String[0], new long[0], new long[0],
            new long[0], new long[0], new long[0], null, null, false, new long[0], new long[0], null);
    /** The columns in the order of their digests. */
    private static final String[] COLUMNS = {"hashes", "kinds", "counts", "self_times_ns", "total_times_ns",
        "bytes", "peak_bytes"};
    /** A column of {@link #COLUMNS} not sent: a NULL of its type. */
    private static final String[] NULLS = {"CAST(NULL AS bigint[])", "CAST(NULL AS bytea)", "CAST(NULL AS bytea)",
        "CAST(NULL AS bytea)", "CAST(NULL AS bytea)", "CAST(NULL AS bytea)", "CAST(NULL AS bytea)"};

    private final long[] hashes;
    private final String[] kinds;
    private final long[] counts;
    private final long[] self;
    private final long[] total;
    private final long[] bytes;
    private final long[] peak;
    /** total_times_ns and peak_bytes as sent, until their references (self times, bytes) are known. */
    private final ByteBuffer pendingTotal;
    private final ByteBuffer pendingPeak;
    /** V6: whether the run has device time, its paths' device self and total times (null: as the first run's). */
    private final boolean device;
    private final long[] deviceSelf;
    private final long[] deviceTotal;
    private final ByteBuffer pendingDeviceTotal;

    private PackedPaths(long[] hashes, String[] kinds, long[] counts, long[] self, long[] total, long[] bytes,
            long[] peak, ByteBuffer pendingTotal, ByteBuffer pendingPeak, boolean device, long[] deviceSelf,
            long[] deviceTotal, ByteBuffer pendingDeviceTotal) {
        this.hashes = hashes;
        this.kinds = kinds;
        this.counts = counts;
        this.self = self;
        this.total = total;
        this.bytes = bytes;
        this.peak = peak;
        this.pendingTotal = pendingTotal;
        this.pendingPeak = pendingPeak;
        this.device = device;
        this.deviceSelf = deviceSelf;
        this.deviceTotal = deviceTotal;
        this.pendingDeviceTotal = pendingDeviceTotal;
    }

    /**
     * Reads run {@code key}'s row. Its columns equal to those of run {@code like} (the first run of
     * a comparison; told by their digests, without reading them) come as null (NULL: not sent):
     * the runs of one model mostly have the same paths, kinds, counts and bytes, which need not
     * be sent and decoded again, and {@link #like} takes them from that run.
     */
    static PackedPaths read(Handle h, long key, long like) throws SQLException {
        // The two runs' digests are read first, on their own: a query that joins two runs' rows would
        // join a distributed table on two values of its distribution column, which Citus refuses
        // (docs/scaling.md). Which columns are alike is decided here, so that the query names only
        // the columns to send: on a sharded coordinator postgres_fdw fetches every column the select
        // list names, also one a CASE would then discard (it evaluates the select list itself), and a
        // 100k-node run's columns alike are ~2 MB of text (docs/scaling.md, round 7).
        Map<Long, Map<String, Object>> digests = new HashMap<>();
        if (key != like) {
            h.createQuery("SELECT run_key, digests, device_digests FROM path_packs WHERE run_key IN (:key, :like)")
                    .bind("key", key)
                    .bind("like", like)
                    .mapToMap()
                    .forEach(row -> digests.put(((Number) row.get("run_key")).longValue(), row));
        }
        byte[] own = bytes(digests, key, "digests");
        byte[] likeOwn = bytes(digests, like, "digests");
        byte[] ownDevice = bytes(digests, key, "device_digests");
        byte[] likeDevice = bytes(digests, like, "device_digests");
        StringBuilder query = new StringBuilder("COPY (SELECT p.paths");
        for (int c = 0; c < COLUMNS.length; c++) {
            boolean alike = key != like && alike(own, likeOwn, c);
            query.append(", ").append(alike ? NULLS[c] : "p." + COLUMNS[c]);
            if (COLUMNS[c].equals("kinds")) {
                // The kinds are references to the run's words: those come with them.
                query.append(", ").append(alike ? "CAST(NULL AS text[])"
                        : "(SELECT s.words FROM run_strings s WHERE s.run_key = p.run_key)");
            }
        }
        // V6: whether the run has device time, then its two device columns unless alike (device_digests).
        query.append(", CASE WHEN p.device_digests IS NULL THEN 0 ELSE 1 END");
        for (int c = 0; c < 2; c++) {
            boolean alike = key != like && alike(ownDevice, likeDevice, c);
            query.append(", ").append(alike ? "CAST(NULL AS bytea)"
                    : c == 0 ? "p.device_self_times_ns" : "p.device_total_times_ns");
        }
        query.append(" FROM path_packs p");
        query.append(" WHERE p.run_key = ").append(key).append(") TO STDOUT (FORMAT binary)");
        BinaryCopyReader copy = BinaryCopyReader.read(h.getConnection(), query.toString());
        if (!copy.nextRow()) {
            return NONE;
        }
        int n = copy.int4();
        long[] hashes = copy.int8ArrayOrNull();
        ByteBuffer kindRefs = copy.bytea();
        String[] words = copy.textArrayOrNull();
        long[] counts = unpack(copy.bytea(), null);
        long[] self = unpack(copy.bytea(), null);
        ByteBuffer total = copy.bytea();
        long[] bytes = unpack(copy.bytea(), null);
        ByteBuffer peak = copy.bytea();
        boolean device = copy.int4() == 1;
        long[] deviceSelf = unpack(copy.bytea(), null);
        ByteBuffer deviceTotal = copy.bytea();
        if (!device) {
            deviceSelf = new long[n];
        }
        String[] kinds = null;
        if (kindRefs != null) {
            long[] refs = Packing.unpack(kindRefs, null);
            kinds = new String[refs.length];
            for (int i = 0; i < refs.length; i++) {
                kinds[i] = words[(int) refs[i]];
            }
        }
        long[] deviceTotals = !device ? deviceSelf : deviceSelf == null ? null : unpack(deviceTotal, deviceSelf);
        PackedPaths sent = new PackedPaths(hashes, kinds, counts, self, self == null ? null : unpack(total, self),
                bytes, bytes == null ? null : unpack(peak, bytes), self == null ? total : null,
                bytes == null ? peak : null, device, deviceSelf, deviceTotals, deviceSelf == null ? deviceTotal : null);
        sent.requireLength(n);
        return sent;
    }

    /** The digests {@code column} of run {@code key}'s row in {@code rows}, or null. */
    private static byte[] bytes(Map<Long, Map<String, Object>> rows, long key, String column) {
        Map<String, Object> row = rows.get(key);
        return row == null ? null : (byte[]) row.get(column);
    }

    /**
     * Whether the 32-byte digests at {@code column} of two runs' digests are equal, as SQL's {@code
     * substr(a, 1 + 32 * column, 32) = substr(b, ...)} tells (false when either is null): that column
     * of the one run is then that of the other.
     */
    static boolean alike(byte[] a, byte[] b, int column) {
        if (a == null || b == null) {
            return false;
        }
        int from = 32 * column;
        int toA = Math.min(a.length, from + 32);
        int toB = Math.min(b.length, from + 32);
        return Arrays.equals(a, Math.min(from, toA), toA, b, Math.min(from, toB), toB);
    }

    private static long[] unpack(ByteBuffer packed, long[] reference) {
        return packed == null ? null : Packing.unpack(packed, reference);
    }

    private void requireLength(int n) throws SQLException {
        for (long[] column : new long[][] {hashes, counts, self, total, bytes, peak, deviceSelf, deviceTotal}) {
            if (column != null && column.length != n) {
                throw new SQLException("a packed path column of " + column.length + " values for " + n + " paths");
            }
        }
        if (kinds != null && kinds.length != n) {
            throw new SQLException("packed path kinds of " + kinds.length + " values for " + n + " paths");
        }
    }

    /** These columns, those not sent taken from {@code first} (the run they equal, shared). */
    PackedPaths like(PackedPaths first) {
        long[] s = self != null ? self : first.self;
        long[] b = bytes != null ? bytes : first.bytes;
        long[] ds = deviceSelf != null ? deviceSelf : first.deviceSelf;
        long[] dt = deviceTotal != null ? deviceTotal
                : pendingDeviceTotal != null ? Packing.unpack(pendingDeviceTotal, ds) : first.deviceTotal;
        return new PackedPaths(hashes != null ? hashes : first.hashes, kinds != null ? kinds : first.kinds,
                counts != null ? counts : first.counts, s,
                total != null ? total : pendingTotal != null ? Packing.unpack(pendingTotal, s) : first.total, b,
                peak != null ? peak : pendingPeak != null ? Packing.unpack(pendingPeak, b) : first.peak, null, null,
                device, ds, dt, null);
    }

    long[] hashes() {
        return hashes;
    }

    /** The statistics, {@code texts[i]} naming path {@code i}. */
    PathColumns stats(String[] texts) {
        return PathColumns.of(texts, hashes, kinds, counts, self, total, bytes, peak, deviceSelf, deviceTotal);
    }
}
