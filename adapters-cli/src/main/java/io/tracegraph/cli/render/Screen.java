package io.tracegraph.cli.render;

import java.util.Map;

/**
 * Where text output goes and what it may use there: whether standard output is a terminal (only
 * then are tables fitted and numbers shown for people; pipes and files keep the machine formats),
 * how many columns it has, and whether it gets colour.
 */
public record Screen(boolean terminal, int width, boolean color) {
    /** The width when {@code COLUMNS} does not tell one. */
    public static final int DEFAULT_WIDTH = 120;
    /** The narrowest width tables are fitted to; below it they are cut at this width. */
    public static final int MIN_WIDTH = 40;

    public Screen {
        if (width < MIN_WIDTH) {
            throw new IllegalArgumentException("width must be at least " + MIN_WIDTH + ": " + width);
        }
    }

    /**
     * The screen of a process: its width from {@code COLUMNS} (a positive integer; anything else,
     * or none, gives {@value #DEFAULT_WIDTH}; narrower than {@value #MIN_WIDTH} counts as that) and
     * its colour from {@code mode}, the terminal and the environment.
     */
    public static Screen of(boolean terminal, Map<String, String> env, ColorMode mode) {
        return new Screen(terminal, width(env.get("COLUMNS")), mode.enabled(terminal, env));
    }

    /** A terminal of {@code width} columns, without colour (tests). */
    public static Screen terminal(int width) {
        return new Screen(true, width, false);
    }

    /** Not a terminal: a pipe or a file. */
    public static Screen pipe() {
        return new Screen(false, DEFAULT_WIDTH, false);
    }

    static int width(String columns) {
        if (columns == null) {
            return DEFAULT_WIDTH;
        }
        try {
            int width = Integer.parseInt(columns.trim());
            return width <= 0 ? DEFAULT_WIDTH : Math.max(width, MIN_WIDTH);
        } catch (NumberFormatException e) {
            return DEFAULT_WIDTH;
        }
    }
}
