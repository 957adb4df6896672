package io.tracegraph.cli;

/** Output formats of listing commands. */
enum Format {
    TABLE,
    CSV,
    JSON;

    /** The format when the user named none: a table for a person, JSON for a script. */
    static Format orDefault(Format chosen, CliIo io) {
        if (chosen != null) {
            return chosen;
        }
        return io.terminal() ? TABLE : JSON;
    }
}
