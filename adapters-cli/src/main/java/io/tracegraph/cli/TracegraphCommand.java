package io.tracegraph.cli;

import picocli.CommandLine.Command;

/** The top-level {@code tracegraph} command. */
@Command(name = "tracegraph",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Execution graphs, health checks and queries for candle-graph traces.",
            "",
            "A trace is a candle-graph JSONL file (candle-graph/trace/6), plain or gzip-compressed;",
            "FILE.json is read as the whole-document JSON form.",
        },
        subcommands = {BuildCommand.class, CheckCommand.class, QueryCommand.class, ImportCommand.class, DbCommand.class,
            picocli.CommandLine.HelpCommand.class},
        footerHeading = "%nExit status:%n",
        footer = {
            "  0  success",
            "  1  a trace was rejected (malformed, or structurally untrusted)",
            "  2  usage error",
            "  3  infrastructure failure (I/O, database, internal error)",
            "",
            "Examples:",
            "  tracegraph build examples/train_small.jsonl -o graph.json",
            "  tracegraph check examples/train_small.jsonl",
            "  tracegraph query examples/train_small.jsonl --kind slowest",
            "  tracegraph import examples/",
            "  tracegraph db start && psql \"$(tracegraph db url)\"",
        })
final class TracegraphCommand {
}
