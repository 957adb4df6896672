package io.tracegraph.cli.render;

/**
 * How a cell looks on a colour terminal: a regression red, an improvement green, what proves
 * nothing dim. Plain text shows no difference, so a style never carries meaning alone: the words
 * say it too.
 */
public enum Style {
    PLAIN(""),
    BAD("\u001b[31m"),
    GOOD("\u001b[32m"),
    DIM("\u001b[2m"),
    BOLD("\u001b[1m");

    private static final String RESET = "\u001b[0m";

    private final String start;

    Style(String start) {
        this.start = start;
    }

    /** {@code text} in this style when {@code color} is on, else as it is. */
    public String apply(String text, boolean color) {
        return !color || this == PLAIN || text.isEmpty() ? text : start + text + RESET;
    }
}
