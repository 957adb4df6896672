package io.tracegraph.cli;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

/** Runs the command line as a user would, capturing its output and status. */
record CliRun(int status, String out, String err) {
    private static final Path NO_HOME = Path.of("/nonexistent/tracegraph-test-home");

    static CliRun of(String... args) {
        return run(false, Map.of(), NO_HOME, args);
    }

    static CliRun onTerminal(String... args) {
        return run(true, Map.of(), NO_HOME, args);
    }

    /** On a terminal, with an environment (COLUMNS, NO_COLOR, TRACEGRAPH_DB_URL...) and a home of the test's own. */
    static CliRun onTerminal(Map<String, String> env, Path home, String... args) {
        return run(true, env, home, args);
    }

    /** With an environment (e.g. TRACEGRAPH_DB_URL) and a tracegraph home of the test's own. */
    static CliRun with(Map<String, String> env, Path home, String... args) {
        return run(false, env, home, args);
    }

    private static CliRun run(boolean terminal, Map<String, String> env, Path home, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        CliIo io = CliIo.of(out, err, terminal);
        int status = Main.createCommandLine(io, env, home, args).execute(args);
        io.out().flush();
        io.err().flush();
        return new CliRun(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
