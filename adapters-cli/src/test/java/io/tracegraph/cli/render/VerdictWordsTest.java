package io.tracegraph.cli.render;

import static org.assertj.core.api.Assertions.assertThat;

import io.tracegraph.domain.compare.Verdict;
import org.junit.jupiter.api.Test;

class VerdictWordsTest {
    @Test
    void timesAreSlowerOrFasterAndSizesBiggerOrSmaller() {
        assertThat(VerdictWords.time(Verdict.SLOWER)).isEqualTo("slower");
        assertThat(VerdictWords.time(Verdict.FASTER)).isEqualTo("faster");
        assertThat(VerdictWords.size(Verdict.SLOWER)).isEqualTo("bigger");
        assertThat(VerdictWords.size(Verdict.FASTER)).isEqualTo("smaller");
        for (VerdictWords.Quantity q : VerdictWords.Quantity.values()) {
            assertThat(VerdictWords.word(Verdict.UNCHANGED, q)).isEqualTo("unchanged");
            assertThat(VerdictWords.word(Verdict.INCONCLUSIVE, q)).isEqualTo("inconclusive");
        }
    }

    @Test
    void regressionsAreRedImprovementsGreenAndInconclusiveDim() {
        assertThat(VerdictWords.style(Verdict.SLOWER)).isEqualTo(Style.BAD);
        assertThat(VerdictWords.style(Verdict.FASTER)).isEqualTo(Style.GOOD);
        assertThat(VerdictWords.style(Verdict.INCONCLUSIVE)).isEqualTo(Style.DIM);
        assertThat(VerdictWords.style(Verdict.UNCHANGED)).isEqualTo(Style.PLAIN);
    }
}
