package io.tracegraph.cli;

import picocli.CommandLine.Option;

/** The {@code --format} option of every listing command. */
final class FormatOption {
    @Option(names = "--format", paramLabel = "FORMAT", converter = FormatConverter.class,
            description = "table, csv or json (default: table on a terminal, json otherwise).")
    Format format;

    /** The format asked for, else a table for a person and JSON for a script. */
    Format chosen(CliIo io) {
        return Format.orDefault(format, io);
    }
}
