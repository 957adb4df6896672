package io.tracegraph.cli;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** Runs the command line as a user would, capturing its output and status. */
record CliRun(int status, String out, String err) {
    static CliRun of(String... args) {
        return run(false, args);
    }

    static CliRun onTerminal(String... args) {
        return run(true, args);
    }

    private static CliRun run(boolean terminal, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        CliIo io = CliIo.of(out, err, terminal);
        int status = Main.createCommandLine(io).execute(args);
        io.out().flush();
        io.err().flush();
        return new CliRun(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
