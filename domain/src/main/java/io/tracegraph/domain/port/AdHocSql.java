package io.tracegraph.domain.port;

import io.tracegraph.domain.run.ReadOnlySql;
import io.tracegraph.domain.run.SqlOutcome;

/** SQL that a person wrote, run over the store without changing it. */
public interface AdHocSql {
    /**
     * Runs an ad-hoc statement over the store in a read-only transaction. Anything but a single
     * SELECT, WITH, VALUES, TABLE or EXPLAIN statement is refused without being run; a statement
     * that tries to write anyway fails in the read-only transaction (an exception, like any error
     * the database reports for the statement).
     */
    SqlOutcome sql(ReadOnlySql statement);
}
