package io.tracegraph.cli;

import io.tracegraph.postgres.Database;
import io.tracegraph.postgres.DatabaseConfig;
import io.tracegraph.postgres.EmbeddedPostgresServer;
import java.nio.file.Path;
import io.tracegraph.cli.render.Rendering;
import io.tracegraph.cli.render.Report;
import io.tracegraph.cli.render.ReportRenderer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code tracegraph db url|start|stop|status}: the embedded PostgreSQL kept in the tracegraph home. */
@Command(name = "db", mixinStandardHelpOptions = true,
        description = {
            "Manage the embedded PostgreSQL that keeps imported runs.",
            "",
            "Its data lives in $TRACEGRAPH_HOME, by default "
                    + "$${XDG_DATA_HOME:-~/.local/share}/tracegraph. Commands start it on demand and stop it "
                    + "when the last of them ends; `db start` keeps it running so that psql and other SQL tools "
                    + "can connect. It listens on 127.0.0.1 only and wants the password generated for it, which "
                    + "`db url` prints; keep that URL to yourself.",
        },
        footer = {
            "",
            "Examples:",
            "  psql \"$(tracegraph db start)\"",
            "  tracegraph db stop",
        })
final class DbCommand implements Callable<Integer> {
    private final Main.Services services;

    @Spec
    CommandSpec spec;

    DbCommand(Main.Services services) {
        this.services = services;
    }

    /** {@code tracegraph db} alone: the usage, as a usage error. */
    @Override
    public Integer call() {
        spec.commandLine().usage(services.io().err());
        return ExitCode.USAGE;
    }

    @Command(name = "url", mixinStandardHelpOptions = true,
            description = {
                "Print the running embedded database's connection URI for psql.",
                "",
                "The URI includes the password:",
                "  postgresql://postgres:PASSWORD@127.0.0.1:PORT/tracegraph",
                "Exits 3 when the database is not running.",
            })
    int url(@Mixin CommonOptions common) {
        Optional<DatabaseConfig> running = EmbeddedPostgresServer.running(home());
        if (running.isEmpty()) {
            services.io().error("the embedded database is not running; start it with"
                    + " `tracegraph db start`");
            return ExitCode.FAILURE;
        }
        services.io().out().println(running.get().psqlUrl());
        return ExitCode.OK;
    }

    @Command(name = "start", mixinStandardHelpOptions = true,
            description = {
                "Start the embedded database and keep it running until `db stop`.",
                "",
                "Joins the server if it already runs and applies pending schema migrations. Prints its "
                        + "connection URI like `db url`.",
            })
    int start(@Mixin CommonOptions common) {
        DatabaseConfig config = EmbeddedPostgresServer.start(home());
        // Bring the schema up to date, so that what psql shows is what tracegraph stores.
        Database.open(config).close();
        services.io().out().println(config.psqlUrl());
        services.io().err().println("embedded database running (data in " + home().resolve("pgdata")
                + "); stop it with `tracegraph db stop`");
        return ExitCode.OK;
    }

    @Command(name = "stop", mixinStandardHelpOptions = true,
            description = {
                "Stop the embedded database if it runs.",
                "",
                "Commands still using it lose their connection; what they had not committed is rolled back.",
            })
    int stop(@Mixin CommonOptions common) {
        boolean wasRunning = EmbeddedPostgresServer.stop(home());
        services.io().out().println(wasRunning ? "embedded database stopped" : "embedded database was not running");
        return ExitCode.OK;
    }

    @Command(name = "status", mixinStandardHelpOptions = true,
            description = {
                "Say whether the embedded database runs, and where.",
                "",
                "Exits 0 when it runs, 3 when it does not.",
            })
    int status(@Mixin CommonOptions common, @Mixin FormatOption format) {
        Optional<DatabaseConfig> running = EmbeddedPostgresServer.running(home());
        Path data = home().resolve("pgdata");
        if (format.named()) {
            // A listing like the others when a format is asked for; else the one sentence of old.
            Map<String, Object> facts = new LinkedHashMap<>();
            facts.put("state", running.isPresent() ? "running" : "not running");
            facts.put("address", running.map(DatabaseConfig::describe).orElse(null));
            facts.put("data", data.toString());
            Report report = new Report(facts, List.of());
            Rendering rendering = format.rendering(services.io(), services.env());
            Output.write(services.io(), null, out -> ReportRenderer.render(report, rendering, out));
            return running.isPresent() ? ExitCode.OK : ExitCode.FAILURE;
        }
        if (running.isEmpty()) {
            services.io().out().println("embedded database: not running (data in " + data + ")");
            return ExitCode.FAILURE;
        }
        services.io().out().println("embedded database: running at " + running.get().describe()
                + " (data in " + data + ")");
        return ExitCode.OK;
    }

    private Path home() {
        return services.home();
    }
}
