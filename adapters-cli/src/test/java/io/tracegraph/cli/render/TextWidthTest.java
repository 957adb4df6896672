package io.tracegraph.cli.render;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TextWidthTest {
    private static final String PATH = "tinygpt::train::update/update/Model::forward/Block::forward/Attention::forward/softmax";

    @Test
    void aPathThatFitsStaysWhole() {
        assertThat(TextWidth.shortenPath(PATH, PATH.length())).isEqualTo(PATH);
    }

    @Test
    void aLongPathLosesWholeComponentsFromTheLeft() {
        assertThat(TextWidth.shortenPath(PATH, 30)).isEqualTo("…/Attention::forward/softmax");
        assertThat(TextWidth.shortenPath(PATH, 45)).isEqualTo("…/Block::forward/Attention::forward/softmax");
        for (int width = 3; width < PATH.length(); width++) {
            String shown = TextWidth.shortenPath(PATH, width);
            assertThat(TextWidth.of(shown)).as("width %d: %s", width, shown).isLessThanOrEqualTo(width);
            if (width >= "…/softmax".length()) {
                assertThat(shown).as("width %d", width).endsWith("/softmax").startsWith("…/");
            } else if (width >= 4) {
                assertThat(shown).as("width %d", width).startsWith("…/").endsWith("…");
                assertThat("softmax").startsWith(shown.substring(2, shown.length() - 1));
            }
        }
    }

    @Test
    void aLeafTooLongForTheWidthKeepsItsBeginningAfterTheBoundary() {
        assertThat(TextWidth.shortenPath("a/very_long_leaf_name", 8)).isEqualTo("…/very_…");
        assertThat(TextWidth.shortenPath("very_long_leaf_name", 8)).isEqualTo("…/very_…");
        assertThat(TextWidth.shortenPath("a/very_long_leaf_name", 3)).isEqualTo("a/…");
    }

    @Test
    void twoPathsThatWouldReadTheSameEachKeepTheComponentThatTellsThemApart() {
        java.util.List<String> paths = java.util.List.of(
                "train/step/Model::forward/layer_0/Attention::forward/softmax",
                "train/step/Model::forward/layer_1/Attention::forward/softmax",
                "train/step/Model::forward/layer_1/Mlp::forward/gelu");
        assertThat(TextWidth.shortenPaths(paths, 30)).containsExactly(
                "…/layer_0/…/softmax",
                "…/layer_1/…/softmax",
                "…/layer_1/Mlp::forward/gelu");
        // Wide enough for the component itself: shortened as usual.
        assertThat(TextWidth.shortenPaths(paths, 40)).containsExactly(
                "…/layer_0/Attention::forward/softmax",
                "…/layer_1/Attention::forward/softmax",
                "…/layer_1/Mlp::forward/gelu");
        // From the root when that is what differs; the same path twice stays as shortenPath has it.
        assertThat(TextWidth.shortenPaths(java.util.List.of("a/x/y/leaf", "b/x/y/leaf", "b/x/y/leaf"), 9))
                .containsExactly("a/…/leaf", "b/…/leaf", "b/…/leaf");
        for (int width = 3; width < 70; width++) {
            java.util.List<String> shown = TextWidth.shortenPaths(paths, width);
            for (String s : shown) {
                assertThat(TextWidth.of(s)).as("width %d: %s", width, s).isLessThanOrEqualTo(width);
            }
            if (width >= "…/layer_0/…/softmax".length()) {
                assertThat(shown).as("width %d", width).doesNotHaveDuplicates();
            }
        }
    }

    @Test
    void wideCharactersTakeTwoColumnsAndMarksNone() {
        assertThat(TextWidth.of("注意力")).isEqualTo(6);
        assertThat(TextWidth.of("e\u0301")).isEqualTo(1);
        assertThat(TextWidth.of("µs")).isEqualTo(2);
        assertThat(TextWidth.of(Style.BAD.apply("slower", true))).isEqualTo(6);
        assertThat(TextWidth.clipEnd("注意力机制", 5)).isEqualTo("注意…");
        assertThat(TextWidth.clipStart("注意力机制", 5)).isEqualTo("…机制");
    }

    @Test
    void clippingMarksWhatWasLeftOut() {
        assertThat(TextWidth.clipEnd("Attention::forward", 10)).isEqualTo("Attention…");
        assertThat(TextWidth.clipEnd("short", 10)).isEqualTo("short");
        assertThat(TextWidth.clipStart("Attention::forward", 10)).isEqualTo("…::forward");
    }

    @Test
    void paddingCountsColumnsNotChars() {
        assertThat(TextWidth.pad("注意", 6, false)).isEqualTo("注意  ");
        assertThat(TextWidth.pad("1 µs", 6, true)).isEqualTo("  1 µs");
    }

    @Test
    void wrapsAtSpacesKeepingTheLeadingIndent() {
        assertThat(TextWidth.wrap("one two three four", 9, "  ")).containsExactly("one two", "  three", "  four");
        assertThat(TextWidth.wrap("  code: a message", 80, "    ")).containsExactly("  code: a message");
        assertThat(TextWidth.wrap("averyveryverylongword x", 8, "")).containsExactly("averyve…", "x");
        assertThat(TextWidth.wrap("", 8, "")).containsExactly("");
    }
}
