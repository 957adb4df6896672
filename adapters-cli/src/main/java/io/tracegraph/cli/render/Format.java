package io.tracegraph.cli.render;

/** Output formats of listing commands. */
public enum Format {
    /** Aligned columns: fitted to the terminal with numbers for people, or plain when piped. */
    TABLE,
    CSV,
    JSON,
    /** GitHub-flavoured Markdown: a pull-request comment or a CI job summary. */
    MARKDOWN
}
