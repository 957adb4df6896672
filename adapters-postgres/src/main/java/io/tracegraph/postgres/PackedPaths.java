package io.tracegraph.postgres;

import io.tracegraph.domain.compare.PathColumns;
import io.tracegraph.domain.compare.PathStats;
import java.nio.ByteBuffer;
import java.sql.SQLException;
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
        // Run like's digests are read first, on their own: a query that joins two runs' rows would
        // join a distributed table on two values of its distribution column, which Citus refuses
        // (docs/scaling.md). They come back into the query as a bytea literal (hexadecimal).
        Map<String, Object> likeRow = key == like ? Map.of() : h.createQuery("SELECT digests, device_digests "
                + "FROM path_packs WHERE run_key = :like").bind("like", like).mapToMap().findOne().orElse(Map.of());
        String digests = byteaLiteral((byte[]) likeRow.get("digests"));
        String deviceDigests = byteaLiteral((byte[]) likeRow.get("device_digests"));
        StringBuilder query = new StringBuilder("COPY (SELECT p.paths");
        for (int c = 0; c < COLUMNS.length; c++) {
            query.append(", ").append(unlessAlike(key, like, digests, c, "p." + COLUMNS[c]));
            if (COLUMNS[c].equals("kinds")) {
                // The kinds are references to the run's words: those come with them.
                query.append(", ").append(unlessAlike(key, like, digests, c,
                        "(SELECT s.words FROM run_strings s WHERE s.run_key = p.run_key)"));
            }
        }
        // V6: whether the run has device time, then its two device columns unless alike (device_digests).
        query.append(", CASE WHEN p.device_digests IS NULL THEN 0 ELSE 1 END");
        for (int c = 0; c < 2; c++) {
            String column = c == 0 ? "p.device_self_times_ns" : "p.device_total_times_ns";
            if (key == like) {
                query.append(", ").append(column);
            } else {
                String at = ", " + (1 + 32 * c) + ", 32)";
                query.append(", CASE WHEN substr(p.device_digests").append(at).append(" = substr(")
                        .append(deviceDigests).append(at).append(" THEN NULL ELSE ").append(column).append(" END");
            }
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

    /** {@code bytes} as a bytea literal of the query (hexadecimal), or a NULL bytea. */
    private static String byteaLiteral(byte[] bytes) {
        return bytes == null ? "CAST(NULL AS bytea)" : "'\\x" + java.util.HexFormat.of().formatHex(bytes) + "'::bytea";
    }

    /** {@code column} unless its digest equals that of run {@code like}'s (then NULL, not even read). */
    private static String unlessAlike(long key, long like, String likeDigests, int column, String value) {
        if (key == like) {
            return value;
        }
        String at = ", " + (1 + 32 * column) + ", 32)";
        return "CASE WHEN substr(p.digests" + at + " = substr(" + likeDigests + at + " THEN NULL ELSE " + value
                + " END";
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
