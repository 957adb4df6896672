package io.tracegraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The command line a run builds holds only the subcommand its arguments name; it must behave as
 * the whole tree does: the same help, the same errors, the same names.
 */
class CommandLineTreeTest {
    private static final Path HOME = Path.of("/nonexistent/tracegraph-test-home");

    @Test
    void aSubcommandAloneHelpsAndFailsAsInTheWholeTree() {
        CommandLine whole = Main.createCommandLine(io(new ByteArrayOutputStream()), Map.of(), HOME);
        List<String> names = List.copyOf(whole.getSubcommands().keySet());
        assertThat(names).containsExactly("build", "check", "query", "import", "runs", "show", "compare", "history",
                "sql", "db", "report", "export", "help");

        for (String name : names) {
            for (String[] args : List.of(new String[] {name, "--help"}, new String[] {name, "--no-such-option"})) {
                assertThat(run(true, args)).as(String.join(" ", args)).isEqualTo(run(false, args));
            }
            CommandLine alone = Main.createCommandLine(io(new ByteArrayOutputStream()), Map.of(), HOME, name);
            if (!name.equals("help")) {
                assertThat(alone.getSubcommands()).containsOnlyKeys(name);
            }
        }
        for (String[] args : List.of(new String[] {}, new String[] {"--help"}, new String[] {"help", "runs"},
                new String[] {"rusn"}, new String[] {"db", "status", "--help"})) {
            assertThat(run(true, args)).as(String.join(" ", args)).isEqualTo(run(false, args));
        }
    }

    /** Status, output and errors of {@code args} on the tree built for them ({@code alone}) or the whole. */
    private static List<Object> run(boolean alone, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        CliIo io = CliIo.of(out, err, false);
        CommandLine cli = alone ? Main.createCommandLine(io, Map.of(), HOME, args)
                : Main.createCommandLine(io, Map.of(), HOME);
        int status = cli.execute(args);
        io.out().flush();
        io.err().flush();
        return List.of(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static CliIo io(ByteArrayOutputStream out) {
        return CliIo.of(out, out, false);
    }
}
