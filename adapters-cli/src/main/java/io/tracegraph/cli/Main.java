package io.tracegraph.cli;

import io.tracegraph.application.BuildGraph;
import io.tracegraph.application.CheckTrace;
import io.tracegraph.application.CompareRuns;
import io.tracegraph.application.CompareSets;
import io.tracegraph.application.FollowPath;
import io.tracegraph.application.ImportTraces;
import io.tracegraph.application.ListRuns;
import io.tracegraph.application.LocalTraces;
import io.tracegraph.application.ReadRun;
import io.tracegraph.application.ReportComparison;
import io.tracegraph.application.RunSources;
import io.tracegraph.application.RunSql;
import io.tracegraph.application.ShowRun;
import io.tracegraph.domain.port.TraceReader;
import io.tracegraph.domain.trace.MalformedTraceException;
import io.tracegraph.files.FileSystemTraces;
import io.tracegraph.files.TraceFormats;
import io.tracegraph.json.CandleTraceFormats;
import io.tracegraph.json.pytorch.PyTorchTraceFormat;
import io.tracegraph.postgres.DatabaseException;
import io.tracegraph.postgres.EmbeddedPostgresServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine;

/**
 * The composition root: wires adapters into use cases with plain constructors and maps every
 * outcome to an exit status in one place.
 */
public final class Main {
    private Main() {
    }

    /** The subcommands, in the order {@code --help} lists them. */
    private static final List<Class<?>> SUBCOMMANDS = List.of(BuildCommand.class, CheckCommand.class,
            QueryCommand.class, ImportCommand.class, RunsCommand.class, ShowCommand.class, CompareCommand.class,
            HistoryCommand.class, SqlCommand.class, DbCommand.class, ReportCommand.class, ExportCommand.class,
            CommandLine.HelpCommand.class);

    public static void main(String[] args) {
        CliIo io = CliIo.system();
        int status = createCommandLine(io, System.getenv(), EmbeddedPostgresServer.defaultHome(), args)
                .execute(args);
        io.out().flush();
        io.err().flush();
        System.exit(status);
    }

    /**
     * The command line that {@code args} need, wired; tests use it with captured streams, their own
     * environment (TRACEGRAPH_DB_URL, ...) and their own tracegraph home. When the first argument
     * names a subcommand (other than {@code help}), it holds the top command with that one alone:
     * picocli reads every command's annotations when it is added, and a command that answers in half
     * a second should not spend a tenth of it on eleven it does not run. Anything else (no arguments
     * included) gets them all: the top command's help lists them, a mistyped name gets suggestions.
     */
    public static CommandLine createCommandLine(CliIo io, Map<String, String> env, Path home, String... args) {
        String first = args.length > 0 ? args[0] : "";
        List<Class<?>> needed = SUBCOMMANDS.stream()
                .filter(type -> !first.equals("help") && type.getAnnotation(Command.class).name().equals(first))
                .toList();
        return createCommandLine(io, env, home, needed.isEmpty() ? SUBCOMMANDS : needed);
    }

    private static CommandLine createCommandLine(CliIo io, Map<String, String> env, Path home,
            List<Class<?>> subcommands) {
        // Input discovery picks the reader of each trace by its content, among these.
        TraceReader reader = TraceFormats.of(Stream.concat(CandleTraceFormats.all().stream(),
                Stream.of(new PyTorchTraceFormat())).toList());
        Services services = new Services(io, reader, new BuildGraph(reader), new CheckTrace(reader),
                new FileSystemTraces(), home, Map.copyOf(env));
        long serverLog = EmbeddedPostgresServer.logEnd(home);
        Factory factory = new Factory(services);
        CommandLine cli = new CommandLine(new TracegraphCommand(), factory);
        // Before the settings below, which reach the subcommands present when they are made.
        for (Class<?> type : subcommands) {
            cli.addSubcommand(new CommandLine(type, factory));
        }
        // Paragraphs are wrapped at the terminal's width (80 columns when it cannot be told).
        cli.setUsageHelpAutoWidth(true);
        cli.setOut(io.out());
        cli.setErr(io.err());
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> failure(io,
                e instanceof DatabaseException ? explained((DatabaseException) e, home, serverLog) : e,
                debug(parseResult)));
        cli.setParameterExceptionHandler((e, args) -> {
            io.error(usageLine(e));
            return ExitCode.USAGE;
        });
        return cli;
    }

    /**
     * A usage error as one line: what is wrong (picocli names the option and what it accepts), the
     * suggestions for a mistyped name, and where the help is.
     */
    static String usageLine(CommandLine.ParameterException e) {
        StringBuilder line = new StringBuilder(e.getMessage());
        if (e instanceof CommandLine.UnmatchedArgumentException unmatched && !unmatched.getSuggestions().isEmpty()) {
            line.append("; did you mean ").append(String.join(" or ", unmatched.getSuggestions())).append('?');
        }
        return line.append(" (see '").append(e.getCommandLine().getCommandSpec().qualifiedName())
                .append(" --help')").toString();
    }

    /** A database failure with what the embedded server logged meanwhile, when it crashed or ran out of disk. */
    private static Exception explained(DatabaseException e, Path home, long serverLogBefore) {
        String message = e.getMessage();
        if (message.contains("No space left on device") || message.contains("Read-only file system")) {
            return e; // the server's own words already say it
        }
        return EmbeddedPostgresServer.troubleSince(home, serverLogBefore)
                .<Exception>map(trouble -> new DatabaseException(message + "; the embedded PostgreSQL logged: "
                        + trouble, e))
                .orElse(e);
    }

    private static boolean debug(CommandLine.ParseResult parseResult) {
        return parseResult != null && parseResult.originalArgs().contains("--debug");
    }

    /** The one place that turns an unexpected exception into a one-line message and a status. */
    static int failure(CliIo io, Throwable e, boolean debug) {
        if (e instanceof InputRejected rejected) {
            // The user's reference names no run (or several), or a trace they named was rejected:
            // their input, not our failure.
            io.error(rejected.getMessage());
            return ExitCode.REJECTED;
        }
        if (e instanceof MalformedTraceException malformed) {
            // A trace the use cases did not catch is still the trace's fault.
            io.error(malformed.problem().render());
            return ExitCode.REJECTED;
        }
        String message;
        if (e instanceof UncheckedIOException || e instanceof IOException) {
            Throwable io2 = e instanceof UncheckedIOException ? e.getCause() : e;
            if (io2 instanceof NoSuchFileException missing) {
                message = missing.getFile() + ": no such file";
            } else if (io2 instanceof AccessDeniedException denied) {
                message = denied.getFile() + ": permission denied";
            } else {
                message = e.getMessage();
            }
        } else if (e instanceof DatabaseException) {
            message = e.getMessage();
        } else if (e instanceof OutOfMemoryError) {
            message = "out of memory; give the JVM more heap (e.g. JAVA_OPTS=-Xmx8g)";
        } else {
            message = "internal error: " + e + (debug ? "" : " (run with --debug for the stack trace)");
        }
        io.error(message);
        if (debug) {
            e.printStackTrace(io.err());
        }
        io.err().flush();
        return ExitCode.FAILURE;
    }

    /** What the commands need, built once. */
    record Services(CliIo io, TraceReader reader, BuildGraph buildGraph, CheckTrace checkTrace,
            LocalTraces localTraces, Path home, Map<String, String> env) {
        /** The use cases of one command, over the store its {@code database} options name. */
        UseCases useCases(DatabaseOptions database) {
            return new UseCases(this, database);
        }
    }

    /**
     * The use cases of one command, wired to the store its options name, which is opened when a
     * use case first needs it (a command about trace files starts no database) and closed with this.
     */
    static final class UseCases implements AutoCloseable {
        private final Services services;
        private final OnDemandStore store;
        private final RunSources sources;

        private UseCases(Services services, DatabaseOptions database) {
            this.services = services;
            this.store = new OnDemandStore(() -> StoreAccess.open(database, services));
            this.sources = new RunSources(store, store, store, services.localTraces(), services.buildGraph());
        }

        ReadRun readRun() {
            return new ReadRun(sources);
        }

        ShowRun showRun() {
            return new ShowRun(sources, store);
        }

        ListRuns listRuns() {
            return new ListRuns(store);
        }

        CompareRuns compareRuns() {
            return new CompareRuns(sources);
        }

        CompareSets compareSets() {
            return new CompareSets(sources);
        }

        ReportComparison reportComparison() {
            return new ReportComparison(sources);
        }

        FollowPath followPath() {
            return new FollowPath(store);
        }

        /** With the store open, and connected as the login that SQL a person wrote runs as. */
        RunSql runSql() {
            return new RunSql(store.store().adHocSql());
        }

        /** With the store open. */
        ImportTraces importTraces() {
            return new ImportTraces(services.reader(), store.runStore());
        }

        @Override
        public void close() {
            store.close();
        }
    }

    /** Gives commands their services through their constructors. */
    private static final class Factory implements CommandLine.IFactory {
        private final Services services;
        private final CommandLine.IFactory fallback = CommandLine.defaultFactory();

        Factory(Services services) {
            this.services = services;
        }

        @Override
        public <K> K create(Class<K> type) throws Exception {
            try {
                return type.getDeclaredConstructor(Services.class).newInstance(services);
            } catch (NoSuchMethodException e) {
                return fallback.create(type);
            }
        }
    }
}
