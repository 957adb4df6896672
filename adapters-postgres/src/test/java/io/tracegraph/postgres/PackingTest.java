package io.tracegraph.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Packed integer columns: what is packed comes back, in few bytes, whatever the values. */
class PackingTest {
    /** Columns of every kind the store packs, and the extremes. */
    static List<long[]> columns() {
        Random random = new Random(42);
        List<long[]> columns = new ArrayList<>();
        columns.add(new long[0]);
        columns.add(new long[] {7});
        columns.add(new long[] {-1, -1, -1});
        columns.add(new long[] {Long.MIN_VALUE, Long.MAX_VALUE});
        columns.add(new long[] {Long.MAX_VALUE, -1, Long.MIN_VALUE, 0, Long.MAX_VALUE});
        columns.add(new long[] {0, 255, 256, 65_535, 65_536, 1L << 40, (1L << 56) - 1, 1L << 56, -(1L << 56)});
        long[] small = new long[5_000];
        for (int i = 0; i < small.length; i++) {
            small[i] = random.nextInt(3_000);
        }
        columns.add(small);
        long[] outliers = small.clone();
        for (int i = 0; i < outliers.length; i += 97) {
            outliers[i] = random.nextLong();
        }
        columns.add(outliers);
        long[] rising = new long[5_000];
        for (int i = 1; i < rising.length; i++) {
            rising[i] = rising[i - 1] + random.nextInt(40_000);
        }
        columns.add(rising);
        long[] wide = new long[3_000];
        for (int i = 0; i < wide.length; i++) {
            wide[i] = random.nextLong();
        }
        columns.add(wide);
        long[] sentinels = new long[2_000];
        for (int i = 0; i < sentinels.length; i++) {
            sentinels[i] = i % 3 == 0 ? -1 : random.nextInt(1 << 20);
        }
        columns.add(sentinels);
        return columns;
    }

    @Test
    void givesBackWhatItPackedInEveryForm() {
        for (long[] values : columns()) {
            long[] reference = reference(values);
            String what = Arrays.toString(Arrays.copyOf(values, Math.min(5, values.length)));
            assertThat(Packing.unpack(Packing.pack(values), null)).as(what).containsExactly(values);
            assertThat(Packing.unpack(Packing.pack(values, null, true), null)).as(what).containsExactly(values);
            assertThat(Packing.unpack(Packing.pack(values, reference, true), reference)).as(what)
                    .containsExactly(values);
            assertThat(Packing.unpack(ByteBuffer.wrap(Packing.pack(values, reference, false)), reference)).as(what)
                    .containsExactly(values);
        }
    }

    @Test
    void takesOneByteAValueWhereOneByteDoes() {
        long[] refs = new long[10_000];
        for (int i = 0; i < refs.length; i++) {
            refs[i] = 1_000 + i % 200;
        }
        byte[] packed = Packing.pack(refs);
        assertThat(packed[1]).as("width").isEqualTo((byte) 1);
        assertThat(packed).hasSize(Packing.HEADER + refs.length);
        assertThat(Packing.pack(new long[] {5, 5, 5, 5})).as("a constant column").hasSize(Packing.HEADER);
    }

    @Test
    void patchesTheRareValueThatDoesNotFit() {
        long[] values = new long[10_000];
        for (int i = 0; i < values.length; i++) {
            values[i] = i % 250;
        }
        values[1234] = 1L << 50;
        values[9999] = -5;
        byte[] packed = Packing.pack(values);
        ByteBuffer header = ByteBuffer.wrap(packed);
        assertThat(header.get(1)).as("width").isEqualTo((byte) 1);
        assertThat(header.getInt(14)).as("exceptions").isEqualTo(2);
        assertThat(packed).hasSize(Packing.HEADER + values.length + 2 * 12);
        assertThat(Packing.unpack(packed, null)).containsExactly(values);
    }

    @Test
    void storesARisingColumnAsDeltasAndAColumnLikeAnotherAsDifferences() {
        long[] rising = new long[1_000];
        long[] near = new long[1_000];
        for (int i = 0; i < rising.length; i++) {
            rising[i] = 1_000_000_000L + 100L * i + i % 7;
            near[i] = rising[i] + i % 3;
        }
        assertThat(Packing.pack(rising, null, true)[0]).as("flags").isEqualTo((byte) Packing.DELTAS);
        assertThat(Packing.pack(rising, null, true)).as("one byte a value, the first an exception")
                .hasSize(Packing.HEADER + rising.length + 12);
        assertThat(Packing.pack(near, rising, false)[0]).as("flags").isEqualTo((byte) Packing.RELATIVE);
        assertThat(Packing.pack(near, rising, false)[1]).as("width").isEqualTo((byte) 1);
        // Differences that would overflow are no candidate.
        long[] extremes = {Long.MAX_VALUE, Long.MIN_VALUE};
        assertThat(Packing.pack(extremes, new long[] {-1, 1}, true)[0]).isZero();
        assertThat(Packing.unpack(Packing.pack(extremes, new long[] {-1, 1}, true), new long[] {-1, 1}))
                .containsExactly(extremes);
    }

    @Test
    void packsAFrameWithoutExceptionsWhenAsked() {
        for (long[] values : columns()) {
            long[] reference = reference(values);
            for (byte[] packed : new byte[][] {Packing.packFrame(values, null), Packing.packFrame(values, reference)}) {
                ByteBuffer header = ByteBuffer.wrap(packed);
                assertThat(header.getInt(14)).as("exceptions").isZero();
                assertThat(header.get(0) & Packing.DELTAS).as("deltas").isZero();
                assertThat(Packing.unpack(packed, reference)).containsExactly(values);
            }
        }
    }

    @Test
    void refusesWhatIsNotAPackedColumn() {
        byte[] packed = Packing.pack(new long[] {1, 2, 3000});
        assertThatThrownBy(() -> Packing.unpack(Arrays.copyOf(packed, packed.length - 1), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("not a packed column");
        assertThatThrownBy(() -> Packing.unpack(new byte[3], null)).isInstanceOf(IllegalArgumentException.class);
        byte[] relative = Packing.pack(new long[] {1_000, 1_001, 70_000}, new long[] {1_000, 1_000, 69_999}, false);
        assertThat(relative[0]).as("flags").isEqualTo((byte) Packing.RELATIVE);
        assertThatThrownBy(() -> Packing.unpack(relative, null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("reference");
    }

    /** A column near {@code values}, to pack them relative to. */
    static long[] reference(long[] values) {
        long[] reference = new long[values.length];
        for (int i = 0; i < values.length; i++) {
            reference[i] = values[i] == Long.MIN_VALUE ? 0 : values[i] - i % 7;
        }
        return reference;
    }
}
