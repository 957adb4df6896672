package io.tracegraph.cli;

import io.tracegraph.application.RunSql;
import io.tracegraph.cli.render.Format;
import io.tracegraph.cli.render.Report;
import io.tracegraph.cli.render.Rendering;
import io.tracegraph.cli.render.ReportRenderer;
import io.tracegraph.cli.render.RunReports;
import io.tracegraph.domain.run.ReadOnlySql;
import io.tracegraph.domain.run.SqlOutcome;
import io.tracegraph.postgres.DatabaseException;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tracegraph sql "SELECT ..."}. */
@Command(name = "sql", mixinStandardHelpOptions = true,
        header = "Run one read-only SQL query over the store (tables and views: docs/sql.md).",
        description = {
            "Run one read-only SQL query over the store (tables and views: docs/sql.md). Only a "
                    + "single SELECT, WITH, VALUES, TABLE or EXPLAIN statement is accepted; it runs in a "
                    + "read-only transaction with a statement timeout, on the embedded database as a role that "
                    + "may only read the store. Anything else is refused (exit 1).",
        })
final class SqlCommand implements Callable<Integer> {
    private final Main.Services services;

    @Mixin
    CommonOptions common;

    @Mixin
    DatabaseOptions database;

    @Parameters(paramLabel = "QUERY", description = "The query.")
    String query;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "30", converter = OptionRanges.TimeoutSeconds.class,
            description = "Statement timeout (default: ${DEFAULT-VALUE} s).")
    long timeoutSeconds;

    @Option(names = "--max-rows", paramLabel = "N", defaultValue = "100000", converter = OptionRanges.Positive.class,
            description = "Rows returned at most (default: ${DEFAULT-VALUE}).")
    int maxRows;

    @Mixin
    FormatOption format;

    SqlCommand(Main.Services services) {
        this.services = services;
    }

    @Override
    public Integer call() {
        try (Main.UseCases cases = services.useCases(database)) {
            RunSql sql = cases.runSql();
            SqlOutcome outcome;
            try {
                outcome = sql.run(new RunSql.Command(new ReadOnlySql(query, Duration.ofSeconds(timeoutSeconds),
                        maxRows)));
            } catch (DatabaseException e) {
                // The store is reachable (it was opened above): the query itself failed, unless a
                // server it needs (a shard of a sharded store) could not be reached.
                services.io().error(e.getMessage());
                return e.unreachable() ? ExitCode.FAILURE : ExitCode.REJECTED;
            }
            if (outcome instanceof SqlOutcome.Refused refused) {
                services.io().error(refused.reason());
                return ExitCode.REJECTED;
            }
            SqlOutcome.Rows rows = (SqlOutcome.Rows) outcome;
            Report report = RunReports.rows(rows);
            Rendering rendering = format.rendering(services.io(), services.env());
            Output.write(services.io(), null, out -> ReportRenderer.render(report, rendering, out));
            if (rows.truncated()) {
                services.io().err().println("note: only the first " + maxRows + " rows are shown (--max-rows)");
            }
            return ExitCode.OK;
        }
    }
}
