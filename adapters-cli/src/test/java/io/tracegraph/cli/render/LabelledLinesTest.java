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
    void longValuesWrapBelowTheirLabel() {
        LabelledLines lines = new LabelledLines().add("Memory", "199 MiB on cuda:0 at 12.3 ms (activation 143 MiB)")
                .add("Run", "r1");
        assertThat(lines.lines(30, false)).containsExactly(
                "Memory:  199 MiB on cuda:0 at",
                "         12.3 ms (activation",
                "         143 MiB)",
                "Run:     r1");
    }

    @Test
    void aWordLongerThanTheWidthIsCut() {
        LabelledLines lines = new LabelledLines().add("Tags", "x".repeat(100));
        String line = lines.lines(40, false).get(0);
        assertThat(TextWidth.of(line)).isEqualTo(40);
        assertThat(line).startsWith("Tags:  xxx").endsWith("…");
    }
}
