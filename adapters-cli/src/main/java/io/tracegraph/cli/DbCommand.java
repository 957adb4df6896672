package io.tracegraph.cli;

import io.tracegraph.postgres.Database;
import io.tracegraph.postgres.DatabaseConfig;
import io.tracegraph.postgres.EmbeddedPostgresServer;
import io.tracegraph.postgres.PostgresStore;
import io.tracegraph.cli.render.Table;
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
import picocli.CommandLine.Option;
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
    int start(@Mixin CommonOptions common,
            @Option(names = "--shards", paramLabel = "N",
                    description = {"Spread the store's runs over N embedded shard servers besides the coordinator "
                            + "(postgres_fdw partitions, docs/scaling.md); only for an empty store, whose later "
                            + "commands then use them all."}) Integer shards) {
        if (shards != null && (shards < 1 || shards > 64)) {
            services.io().error("--shards must be between 1 and 64, not " + shards);
            return ExitCode.USAGE;
        }
        if (shards != null) {
            PostgresStore.createEmbeddedShards(home(), shards);
        }
        DatabaseConfig config = EmbeddedPostgresServer.start(home());
        for (Path shardHome : PostgresStore.shardHomes(home())) {
            EmbeddedPostgresServer.start(shardHome);
        }
        // Bring the schema up to date (and lay out the shards), so that what psql shows is what tracegraph stores.
        PostgresStore.openEmbedded(home(), notice -> { }).close();
        services.io().out().println(config.psqlUrl());
        int count = PostgresStore.shardHomes(home()).size();
        services.io().err().println("embedded database running (data in " + home().resolve("pgdata")
                + (count == 0 ? "" : ", " + count + " shard(s) in " + home().resolve("shards"))
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
        for (Path shardHome : PostgresStore.shardHomes(home())) {
            EmbeddedPostgresServer.stop(shardHome);
        }
        services.io().out().println(wasRunning ? "embedded database stopped" : "embedded database was not running");
        return ExitCode.OK;
    }

    @Command(name = "status", mixinStandardHelpOptions = true,
            description = {
                "Say whether the embedded database runs, and where; for a sharded store, its shards and "
                        + "how many runs each holds.",
                "",
                "With --db (or TRACEGRAPH_DB_URL), the shards of that store. Exits 0 when it runs, 3 when it "
                        + "does not.",
            })
    int status(@Mixin CommonOptions common, @Mixin FormatOption format, @Mixin DatabaseOptions database) {
        String url = database.url != null && !database.url.isBlank() ? database.url
                : services.env().get("TRACEGRAPH_DB_URL");
        if (url != null && !url.isBlank()) {
            try (PostgresStore store = StoreAccess.open(database, services)) {
                return printShards(format, store.describe(), null, store.shardStatus());
            }
        }
        Optional<DatabaseConfig> running = EmbeddedPostgresServer.running(home());
        Path data = home().resolve("pgdata");
        if (running.isPresent() && !PostgresStore.shardHomes(home()).isEmpty()) {
            try (PostgresStore store = PostgresStore.openEmbedded(home(), notice -> { })) {
                return printShards(format, running.get().describe(), data, store.shardStatus());
            }
        }
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

    /** A sharded store's status: the coordinator, then one line (or row) per shard. */
    private int printShards(FormatOption format, String address, Path data, List<PostgresStore.ShardStatus> shards) {
        if (format.named()) {
            Map<String, Object> facts = new LinkedHashMap<>();
            facts.put("state", "running");
            facts.put("address", address);
            if (data != null) {
                facts.put("data", data.toString());
            }
            facts.put("shard_count", shards.size());
            Table.Builder table = Table.named("shards", "shard", "address", "remainder", "modulus", "runs");
            for (PostgresStore.ShardStatus shard : shards) {
                table.row(shard.server(), shard.address(), shard.remainder(), shard.modulus(), shard.runs());
            }
            Report report = new Report(facts, shards.isEmpty() ? List.of() : List.of(table.build()));
            Rendering rendering = format.rendering(services.io(), services.env());
            Output.write(services.io(), null, out -> ReportRenderer.render(report, rendering, out));
            return ExitCode.OK;
        }
        services.io().out().println((data == null ? "database" : "embedded database") + ": running at " + address
                + (data == null ? "" : " (data in " + data + ")")
                + (shards.isEmpty() ? "" : ", " + shards.size() + " shard(s)"));
        for (PostgresStore.ShardStatus shard : shards) {
            services.io().out().println("  " + shard.server() + ": " + shard.address() + ", hash remainder "
                    + shard.remainder() + " of " + shard.modulus() + ", " + shard.runs()
                    + (shard.runs() == 1 ? " run" : " runs"));
        }
        return ExitCode.OK;
    }

    private Path home() {
        return services.home();
    }
}
