package io.tracegraph.application;

import io.tracegraph.domain.port.AdHocSql;
import io.tracegraph.domain.run.ReadOnlySql;
import io.tracegraph.domain.run.SqlOutcome;
import java.util.Objects;

/**
 * Use case: one read-only SQL statement a person wrote, over the store: its rows, or why it was
 * refused without being run. An error the database reports for the statement is thrown (the
 * adapter's exception), as the port says.
 */
public final class RunSql {
    public record Command(ReadOnlySql statement) {
        public Command {
            Objects.requireNonNull(statement, "statement");
        }
    }

    private final AdHocSql sql;

    public RunSql(AdHocSql sql) {
        this.sql = Objects.requireNonNull(sql, "sql");
    }

    public SqlOutcome run(Command command) {
        return sql.sql(command.statement());
    }
}
