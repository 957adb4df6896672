package io.tracegraph.cli;

import picocli.CommandLine.Command;

/** The top-level {@code tracegraph} command; its subcommands are added by {@link Main}. */
@Command(name = "tracegraph",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Execution graphs, health checks and queries for ML execution traces.",
            "",
            "A trace is a candle-graph JSONL file (candle-graph/trace/6 to /10) or its whole-document "
                    + "JSON form, or a PyTorch profiler trace (Chrome trace-event JSON), plain or "
                    + "gzip-compressed; each is told by its content. import also reads candle-graph "
                    + "bundles and campaigns, directories and archives. Imported runs are kept in "
                    + "PostgreSQL (an embedded server by default, or a coordinator and its shards) for "
                    + "runs, show, compare, history, sql and report.",
        },
        footerHeading = "%nExit status:%n",
        footer = {
            "  0  success",
            "  1  an input was rejected: a malformed or untrusted trace, a run",
            "     reference that names no run, a refused SQL statement, a",
            "     regression found by compare --fail-on-regression",
            "  2  usage error",
            "  3  infrastructure failure (I/O, database, internal error)",
            "",
            "Examples:",
            "  tracegraph build examples/train_small.jsonl -o graph.json",
            "  tracegraph check examples/train_small.jsonl",
            "  tracegraph query examples/train_small.jsonl --kind slowest",
            "  tracegraph import examples/",
            "  tracegraph runs --limit 10",
            "  tracegraph compare latest~1 latest",
            "  tracegraph compare --baseline tag:commit=abc123 \\",
            "      --candidate tag:commit=def456 --fail-on-regression 10",
            "  tracegraph sql \"SELECT run_id, total_ms FROM runs ORDER BY total_ms DESC\"",
            "  tracegraph db start && psql \"$(tracegraph db url)\"",
            "  tracegraph report examples/train_small.jsonl -o train.html",
            "  tracegraph report --compare latest~1 latest -o diff.html",
            "  tracegraph export latest --format chrome -o latest.trace.json",
        })
final class TracegraphCommand {
}
