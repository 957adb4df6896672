package io.tracegraph.cli;

import io.tracegraph.cli.render.Format;
import picocli.CommandLine.Option;

/** The {@code --format} option of every listing command. */
final class FormatOption {
    @Option(names = "--format", paramLabel = "FORMAT", converter = FormatConverter.class,
            description = "table, csv or json (default: table on a terminal, json otherwise).")
    Format format;

    /** The format asked for, else (when the user named none) a table for a person and JSON for a script. */
    Format chosen(CliIo io) {
        if (format != null) {
            return format;
        }
        return io.terminal() ? Format.TABLE : Format.JSON;
    }
}
