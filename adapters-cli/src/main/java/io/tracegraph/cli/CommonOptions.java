package io.tracegraph.cli;

import picocli.CommandLine.Option;

/** Options every command takes. */
final class CommonOptions {
    @Option(names = "--debug", description = "Print stack traces of failures.")
    boolean debug;
}
