package io.tracegraph.cli.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class ScreenTest {
    @Test
    void widthComesFromColumnsElse120() {
        assertThat(Screen.of(true, Map.of("COLUMNS", "80"), ColorMode.AUTO).width()).isEqualTo(80);
        assertThat(Screen.of(true, Map.of(), ColorMode.AUTO).width()).isEqualTo(120);
        assertThat(Screen.of(true, Map.of("COLUMNS", "wide"), ColorMode.AUTO).width()).isEqualTo(120);
        assertThat(Screen.of(true, Map.of("COLUMNS", "0"), ColorMode.AUTO).width()).isEqualTo(120);
        assertThat(Screen.of(true, Map.of("COLUMNS", "10"), ColorMode.AUTO).width()).isEqualTo(Screen.MIN_WIDTH);
    }

    @Test
    void colourIsOnOnlyOnTerminalsUnlessAskedFor() {
        assertThat(Screen.of(true, Map.of(), ColorMode.AUTO).color()).isTrue();
        assertThat(Screen.of(false, Map.of(), ColorMode.AUTO).color()).isFalse();
        assertThat(Screen.of(false, Map.of(), ColorMode.ALWAYS).color()).isTrue();
        assertThat(Screen.of(true, Map.of(), ColorMode.NEVER).color()).isFalse();
    }

    @Test
    void noColorAndADumbTerminalTurnAutomaticColourOff() {
        assertThat(Screen.of(true, Map.of("NO_COLOR", "1"), ColorMode.AUTO).color()).isFalse();
        assertThat(Screen.of(true, Map.of("NO_COLOR", ""), ColorMode.AUTO).color()).isTrue();
        assertThat(Screen.of(true, Map.of("TERM", "dumb"), ColorMode.AUTO).color()).isFalse();
        assertThat(Screen.of(true, Map.of("NO_COLOR", "1"), ColorMode.ALWAYS).color()).isTrue();
    }

    @Test
    void theColourOptionNamesWhatItAccepts() {
        ColorMode.Converter converter = new ColorMode.Converter();
        assertThat(converter.convert("never")).isEqualTo(ColorMode.NEVER);
        assertThat(converter.convert("Always")).isEqualTo(ColorMode.ALWAYS);
        assertThatThrownBy(() -> converter.convert("blue")).isInstanceOf(CommandLine.TypeConversionException.class)
                .hasMessage("'blue' is not a colour mode (expected auto, always or never)");
    }

    @Test
    void stylesAddEscapesOnlyWithColour() {
        assertThat(Style.BAD.apply("slower", true)).isEqualTo("\u001b[31mslower\u001b[0m");
        assertThat(Style.BAD.apply("slower", false)).isEqualTo("slower");
        assertThat(Style.PLAIN.apply("x", true)).isEqualTo("x");
    }
}
