package io.tracegraph.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The store's SQL decoders of packed columns (V5 packed_values, packed_value_at) read what the
 * Java packer writes, and the Java reader reads what the SQL packer (pack_values, which converted
 * the runs stored before V5) writes: the same values either way, in every form.
 */
@ExtendWith(PostgresExtension.class)
class PackedValuesIT {
    private final DatabaseConfig config;

    PackedValuesIT(DatabaseConfig config) {
        this.config = config;
    }

    @Test
    void decodesInSqlWhatJavaPacked() throws SQLException {
        try (Database database = Database.open(config); Connection c = database.dataSource().getConnection()) {
            for (long[] values : PackingTest.columns()) {
                long[] reference = PackingTest.reference(values);
                for (byte[] packed : new byte[][] {Packing.pack(values), Packing.pack(values, null, true),
                    Packing.pack(values, reference, false)}) {
                    assertThat(sqlValues(c, packed, reference)).as(Arrays.toString(Arrays.copyOf(values,
                            Math.min(4, values.length)))).containsExactly(values);
                }
                byte[] relative = Packing.pack(values, reference, false);
                for (int i : new int[] {0, values.length / 2, values.length - 1, values.length}) {
                    Long expected = i >= 0 && i < values.length ? values[i] : null;
                    assertThat(sqlValueAt(c, Packing.pack(values), i, null)).as("value " + i).isEqualTo(expected);
                    assertThat(sqlValueAt(c, relative, i, expected == null ? null : reference[i])).as("value " + i)
                            .isEqualTo(expected);
                }
            }
        }
    }

    @Test
    void readsInJavaWhatSqlPacked() throws SQLException {
        try (Database database = Database.open(config); Connection c = database.dataSource().getConnection()) {
            for (long[] values : PackingTest.columns()) {
                long[] reference = PackingTest.reference(values);
                try (PreparedStatement s = c.prepareStatement("SELECT pack_values(?::bigint[]), "
                        + "pack_values(?::bigint[], NULL, true), pack_values(?::bigint[], ?::bigint[])")) {
                    s.setArray(1, array(c, values));
                    s.setArray(2, array(c, values));
                    s.setArray(3, array(c, values));
                    s.setArray(4, array(c, reference));
                    try (ResultSet rs = s.executeQuery()) {
                        rs.next();
                        assertThat(Packing.unpack(rs.getBytes(1), null)).containsExactly(values);
                        assertThat(Packing.unpack(rs.getBytes(2), null)).containsExactly(values);
                        assertThat(Packing.unpack(rs.getBytes(3), reference)).containsExactly(values);
                    }
                }
            }
            long[] rising = LongStream.range(0, 10_000).map(i -> 5_000_000_000L + 3 * i).toArray();
            try (PreparedStatement s = c.prepareStatement("SELECT pack_values(?::bigint[], NULL, true)")) {
                s.setArray(1, array(c, rising));
                try (ResultSet rs = s.executeQuery()) {
                    rs.next();
                    byte[] packed = rs.getBytes(1);
                    assertThat(packed[0]).as("deltas").isEqualTo((byte) Packing.DELTAS);
                    assertThat(Packing.unpack(packed, null)).containsExactly(rising);
                }
            }
        }
    }

    @Test
    void readsPathPacksWithExceptionsAsThoseWithout() throws SQLException {
        java.util.Random random = new java.util.Random(3);
        int n = 3_000;
        long[] hashes = LongStream.range(0, n).map(i -> random.nextLong()).toArray();
        String[] texts = new String[n];
        long[] kinds = new long[n];
        long[] counts = new long[n];
        long[] self = new long[n];
        long[] total = new long[n];
        long[] bytes = new long[n];
        long[] peak = new long[n];
        long[] depths = new long[n];
        for (int i = 0; i < n; i++) {
            texts[i] = "root/p" + i;
            kinds[i] = i % 3;
            counts[i] = 1 + (i % 17 == 0 ? 1_000_000 : i % 2);
            self[i] = 1_000 + random.nextInt(5_000);
            total[i] = self[i] + (i % 50 == 0 ? 1L << 40 : 0);
            bytes[i] = i % 101 == 0 ? 1L << 33 : 64;
            peak[i] = bytes[i] + (i % 7);
            depths[i] = 1 + i % 4;
        }
        long[] byHash = LongStream.range(0, n).boxed().sorted((a, b) -> Long.compare(hashes[(int) (long) a],
                hashes[(int) (long) b])).mapToLong(Long::longValue).toArray();
        try (Database database = Database.open(config); Connection c = database.dataSource().getConnection()) {
            for (int key : new int[] {901, 902}) {
                boolean patched = key == 901;
                try (PreparedStatement s = c.prepareStatement("INSERT INTO run_strings VALUES (?, ?, '{}')")) {
                    s.setInt(1, key);
                    s.setArray(2, c.createArrayOf("text", new Object[] {"op", "function", "module"}));
                    s.execute();
                }
                try (PreparedStatement s = c.prepareStatement("INSERT INTO path_packs VALUES (?, ?, ?, ?, ?, ?, ?, ?, "
                        + "?, ?, ?, ?, ?)")) {
                    s.setInt(1, key);
                    s.setInt(2, n);
                    s.setArray(3, array(c, hashes));
                    s.setBytes(4, patched ? Packing.pack(kinds) : Packing.packFrame(kinds, null));
                    s.setBytes(5, patched ? Packing.pack(counts) : Packing.packFrame(counts, null));
                    s.setBytes(6, patched ? Packing.pack(self, null, true) : Packing.packFrame(self, null));
                    s.setBytes(7, patched ? Packing.pack(total, self, false) : Packing.packFrame(total, self));
                    s.setBytes(8, patched ? Packing.pack(bytes) : Packing.packFrame(bytes, null));
                    s.setBytes(9, patched ? Packing.pack(peak, bytes, false) : Packing.packFrame(peak, bytes));
                    s.setBytes(10, patched ? Packing.pack(depths, null, true) : Packing.packFrame(depths, null));
                    s.setBytes(11, Packing.pack(byHash));
                    s.setArray(12, c.createArrayOf("text", texts));
                    s.setBytes(13, new byte[7 * 32]);
                    s.execute();
                }
            }
            assertThat(ByteBuffer.wrap(Packing.pack(counts)).getInt(14)).as("exceptions in the patched pack").isPositive();
            String rows = "SELECT string_agg(p::text, E'\\n' ORDER BY path_rank) FROM run_path_rows(%d) p";
            try (Statement s = c.createStatement();
                 ResultSet patched = s.executeQuery(String.format(rows, 901))) {
                patched.next();
                String viaArrays = patched.getString(1);
                try (ResultSet frames = c.createStatement().executeQuery(String.format(rows, 902))) {
                    frames.next();
                    assertThat(viaArrays).isEqualTo(frames.getString(1)).contains("root/p2999");
                }
            }
            // run_path_stats() (inlined SQL since V8) gives run_path_rows()'s rows for both packs: the
            // pack the import writes through its own decoding, the patched one through run_path_rows().
            String listed = "SELECT string_agg(concat_ws(',', run_key, path_hash, path, kind, count, self_time_ns, "
                    + "total_time_ns, bytes, peak_bytes), E'\\n' ORDER BY path_hash) FROM %s(%d) p";
            for (int key : new int[] {901, 902}) {
                try (Statement s = c.createStatement();
                     ResultSet stats = s.executeQuery(String.format(listed, "run_path_stats", key));
                     ResultSet rowsOf = c.createStatement().executeQuery(
                             String.format(listed.replace("run_key,", key + ","), "run_path_rows", key))) {
                    stats.next();
                    rowsOf.next();
                    assertThat(stats.getString(1)).as("run %d", key).isEqualTo(rowsOf.getString(1))
                            .contains("root/p2999,module");
                }
                String plan = explain(c, "SELECT path, self_time_ns FROM run_path_stats(" + key + ")");
                assertThat(plan).as("run %d: %s", key, plan).contains("Function Scan on run_path_rows");
                if (key == 902) {
                    assertThat(plan).as(plan).contains("Function Scan on run_path_rows p (never executed)")
                            .doesNotContain("run_strings");
                } else {
                    assertThat(plan).as(plan).doesNotContain("Function Scan on run_path_rows p (never executed)")
                            .contains("Function Scan on u (never executed)");
                }
            }
            try (ResultSet one = c.createStatement().executeQuery("SELECT count, total_time_ns FROM "
                    + "run_path_figures(901, " + hashes[1700] + ")")) {
                one.next();
                assertThat(one.getLong(1)).isEqualTo(counts[1700]);
                assertThat(one.getLong(2)).isEqualTo(total[1700]);
            }
        }
    }

    private static String explain(Connection c, String query) throws SQLException {
        StringBuilder plan = new StringBuilder();
        try (ResultSet rs = c.createStatement().executeQuery("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) " + query)) {
            while (rs.next()) {
                plan.append(rs.getString(1)).append('\n');
            }
        }
        return plan.toString();
    }

    private static long[] sqlValues(Connection c, byte[] packed, long[] reference) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT packed_values(?, ?::bigint[])")) {
            s.setBytes(1, packed);
            s.setArray(2, array(c, reference));
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                Long[] values = (Long[]) rs.getArray(1).getArray();
                return Arrays.stream(values).mapToLong(Long::longValue).toArray();
            }
        }
    }

    private static Long sqlValueAt(Connection c, byte[] packed, int i, Long reference) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT packed_value_at(?, ?, ?)")) {
            s.setBytes(1, packed);
            s.setInt(2, i);
            s.setObject(3, reference, java.sql.Types.BIGINT);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                long value = rs.getLong(1);
                return rs.wasNull() ? null : value;
            }
        }
    }

    private static Array array(Connection c, long[] values) throws SQLException {
        return c.createArrayOf("bigint", Arrays.stream(values).boxed().toArray());
    }
}
