package io.tracegraph.cli.render;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LabelledLinesTest {
    @Test
    void labelsAreAlignedAndMissingValuesLeftOut() {
        LabelledLines lines = new LabelledLines().add("Ran", "tinygpt::train::update on cuda:0")
                .add("Peak", "199 MiB").add("Device", null).add("Health", "trusted", Style.GOOD);
        assertThat(lines.lines(80, false)).containsExactly(
                "Ran:     tinygpt::train::update on cuda:0",
                "Peak:    199 MiB",
                "Health:  trusted");
        assertThat(lines.lines(80, true).get(2)).isEqualTo("Health:  \u001b[32mtrusted\u001b[0m");
    }

    @Test
    void longValuesAreCutToTheWidth() {
        LabelledLines lines = new LabelledLines().add("Tags", "x".repeat(100));
        String line = lines.lines(40, false).get(0);
        assertThat(TextWidth.of(line)).isEqualTo(40);
        assertThat(line).startsWith("Tags:  xxx").endsWith("…");
    }
}
