package io.tracegraph.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
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
