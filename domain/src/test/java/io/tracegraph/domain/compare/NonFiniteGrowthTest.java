package io.tracegraph.domain.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tracegraph.domain.trace.Shape;
import io.tracegraph.domain.trace.TensorStats;
import java.util.List;
import org.junit.jupiter.api.Test;

class NonFiniteGrowthTest {
    private static TensorStats stats(String label, long nonFinite) {
        return new TensorStats("s1", label, Shape.SCALAR, "f32", 100, nonFinite, 1.0, 2.0, 0.0);
    }

    @Test
    void flagsTheLabelsWhoseNonFiniteCountGrewLargestGrowthFirst() {
        List<TensorStats> base = List.of(stats("logits", 0), stats("loss", 1), stats("attn", 2));
        List<TensorStats> cand = List.of(stats("logits", 5), stats("loss", 1), stats("attn", 1), stats("new", 3),
                stats("logits", 2));

        assertThat(NonFiniteGrowth.between(base, cand)).containsExactly(new NonFiniteGrowth("logits", 0, 7),
                new NonFiniteGrowth("new", 0, 3));
        assertThat(NonFiniteGrowth.between(cand, base)).containsExactly(new NonFiniteGrowth("attn", 1, 2));
        assertThat(NonFiniteGrowth.between(base, base)).isEmpty();
    }

    @Test
    void betweenSetsComparesEachSidesLargestCount() {
        List<List<TensorStats>> baseline = List.of(List.of(stats("loss", 0)), List.of(stats("loss", 2)));
        assertThat(NonFiniteGrowth.betweenSets(baseline, List.of(List.of(stats("loss", 2)), List.of())))
                .isEmpty();
        assertThat(NonFiniteGrowth.betweenSets(baseline, List.of(List.of(stats("loss", 3)))))
                .containsExactly(new NonFiniteGrowth("loss", 2, 3));
    }

    @Test
    void isAGrowth() {
        assertThatThrownBy(() -> new NonFiniteGrowth("loss", 2, 2)).isInstanceOf(IllegalArgumentException.class);
    }
}
