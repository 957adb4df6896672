package io.tracegraph.domain.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class PathColumnsTest {
    private static final List<PathStats> STATS = List.of(
            new PathStats("step", -5, "root", 1, 10, 100, 0, 0),
            new PathStats("step/matmul", Long.MIN_VALUE, "op", 3, 7, 7, 64, 128));

    @Test
    void holdsTheStatisticsItIsMadeOfAsAnUnmodifiableList() {
        PathColumns columns = PathColumns.of(STATS);

        assertThat(columns).isEqualTo(STATS).hasSameHashCodeAs(STATS);
        assertThat(columns.get(1)).isEqualTo(STATS.get(1));
        assertThat(columns.hash(0)).isEqualTo(-5);
        assertThat(columns.path(1)).isEqualTo("step/matmul");
        assertThat(columns.kind(1)).isEqualTo("op");
        assertThat(columns.selfTimeNs(1)).isEqualTo(7);
        assertThat(columns.totalTimeNs(0)).isEqualTo(100);
        assertThat(columns.bytes(1)).isEqualTo(64);
        assertThat(PathColumns.of(columns)).isSameAs(columns);
        assertThat(PathColumns.of(List.of())).isEmpty();
        assertThatThrownBy(() -> columns.get(2)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> columns.add(STATS.get(0))).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> columns.set(0, STATS.get(0))).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void checksColumnsAsPathStatsChecksItsFields() {
        assertThat(of(1, 5)).isEqualTo(List.of(new PathStats("p", 9, "op", 1, 5, 5, 5, 5)));
        assertThatThrownBy(() -> of(0, 5)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("count must be at least 1: 0");
        assertThatThrownBy(() -> of(1, -1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("selfTimeNs must not be negative: -1");
        assertThatThrownBy(() -> PathColumns.of(new String[] {"p"}, new long[] {9}, new String[] {"op"},
                new long[] {1}, new long[] {1}, new long[0], new long[] {1}, new long[] {1}))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("columns of different lengths");
        assertThatThrownBy(() -> PathColumns.of(new String[] {null}, new long[] {9}, new String[] {"op"},
                new long[] {1}, new long[] {1}, new long[] {1}, new long[] {1}, new long[] {1}))
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    void holdsDeviceTimeColumnsOrNoneForARunWithoutDeviceTime() {
        PathColumns columns = PathColumns.of(new String[] {"p", "p/k"}, new long[] {9, 10}, new String[] {"root", "op"},
                new long[] {1, 1}, new long[] {1, 2}, new long[] {3, 2}, new long[] {0, 0}, new long[] {0, 0},
                new long[] {0, 7}, new long[] {7, 7});
        assertThat(columns.get(1)).isEqualTo(new PathStats("p/k", 10, "op", 1, 2, 2, 0, 0, 7, 7));
        assertThat(columns.deviceTotalTimeNs(0)).isEqualTo(7);
        assertThat(columns.hasDeviceTime()).isTrue();
        assertThat(PathColumns.of(STATS).hasDeviceTime()).isFalse();
        assertThat(PathColumns.of(STATS).deviceSelfTimeNs(1)).isZero();
        assertThatThrownBy(() -> PathColumns.of(new String[] {"p"}, new long[] {9}, new String[] {"op"},
                new long[] {1}, new long[] {1}, new long[] {1}, new long[] {1}, new long[] {1}, new long[] {1}, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("device time columns missing or of different lengths");
        assertThatThrownBy(() -> PathColumns.of(new String[] {"p"}, new long[] {9}, new String[] {"op"},
                new long[] {1}, new long[] {1}, new long[] {1}, new long[] {1}, new long[] {1}, new long[] {1},
                new long[] {-1}))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("deviceTotalTimeNs must not be negative: -1");
    }

    private static PathColumns of(long count, long value) {
        return PathColumns.of(new String[] {"p"}, new long[] {9}, new String[] {"op"}, new long[] {count},
                new long[] {value}, new long[] {value}, new long[] {value}, new long[] {value});
    }
}
