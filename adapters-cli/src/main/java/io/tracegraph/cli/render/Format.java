package io.tracegraph.cli.render;

/** Output formats of listing commands. */
public enum Format {
    TABLE,
    CSV,
    JSON
}
