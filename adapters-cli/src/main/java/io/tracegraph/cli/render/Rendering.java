package io.tracegraph.cli.render;

import java.util.Objects;

/** How a listing is to be rendered: its format, the screen it goes to, and whether every column is wanted. */
public record Rendering(Format format, Screen screen, boolean wide) {
    public Rendering {
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(screen, "screen");
    }

    /** This rendering for a file: no terminal there, so no fitting and no colour. */
    public Rendering toFile() {
        return new Rendering(format, Screen.pipe(), wide);
    }

    /** Whether this is a table for a person at a terminal (fitted, numbers in their units). */
    public boolean terminalTable() {
        return format == Format.TABLE && screen.terminal();
    }
}
