package io.tracegraph.postgres;

import static io.tracegraph.postgres.Reads.call;

import io.tracegraph.domain.port.AdHocSql;
import io.tracegraph.domain.run.ReadOnlySql;
import io.tracegraph.domain.run.SqlOutcome;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * SQL that a person wrote, run over the store: one statement that {@link AdHocSqlGate} lets
 * through, in a read-only transaction that is rolled back, with a statement timeout and a row
 * limit, as the login it is given (the embedded server's {@code tracegraph_reader}, which may only
 * read, so that the statement cannot use rights the store's own login has).
 */
final class JdbiAdHocSql implements AdHocSql {
    private final Jdbi adHoc;

    JdbiAdHocSql(Jdbi adHoc) {
        this.adHoc = Objects.requireNonNull(adHoc, "adHoc");
    }

    @Override
    public SqlOutcome sql(ReadOnlySql statement) {
        AdHocSqlGate.Verdict verdict = AdHocSqlGate.check(statement.text());
        if (verdict.refused()) {
            return new SqlOutcome.Refused(verdict.refusal());
        }
        return call(() -> adHoc.withHandle(h -> readOnly(h, verdict.statement(), statement)));
    }

    /**
     * Runs {@code sql} in a read-only transaction that is rolled back. The session is made read-only
     * too, so that a COMMIT slipped past the gate could not open a writable transaction, and
     * {@code standard_conforming_strings} is on, as the gate reads strings.
     */
    private static SqlOutcome readOnly(Handle h, String sql, ReadOnlySql statement) throws SQLException {
        Connection connection = h.getConnection();
        try (Statement session = connection.createStatement()) {
            session.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY");
            session.execute("SET standard_conforming_strings = on");
        }
        h.begin();
        try {
            h.execute("SET TRANSACTION READ ONLY");
            h.createQuery("SELECT set_config('statement_timeout', :timeout, true)")
                    .bind("timeout", Long.toString(statement.timeout().toMillis()))
                    .mapTo(String.class)
                    .one();
            String readOnly = h.createQuery("SELECT current_setting('transaction_read_only')").mapTo(String.class)
                    .one();
            if (!"on".equals(readOnly)) {
                throw new DatabaseException("the database did not open a read-only transaction");
            }
            try (Statement s = connection.createStatement()) {
                s.setEscapeProcessing(false);
                // One row more than wanted tells whether there were more (0: no limit at all).
                s.setMaxRows(statement.maxRows() == Integer.MAX_VALUE ? 0 : statement.maxRows() + 1);
                s.setFetchSize(Math.min(statement.maxRows(), 1000));
                if (!s.execute(sql)) {
                    return new SqlOutcome.Rows(List.of(), List.of(), List.of(), false);
                }
                try (ResultSet rs = s.getResultSet()) {
                    return rows(rs, statement.maxRows());
                }
            }
        } finally {
            h.rollback();
        }
    }

    private static SqlOutcome.Rows rows(ResultSet rs, int maxRows) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        int width = md.getColumnCount();
        List<String> columns = new ArrayList<>(width);
        List<String> types = new ArrayList<>(width);
        for (int c = 1; c <= width; c++) {
            columns.add(md.getColumnLabel(c));
            types.add(md.getColumnTypeName(c));
        }
        List<List<Object>> rows = new ArrayList<>();
        boolean truncated = false;
        while (rs.next()) {
            if (rows.size() == maxRows) {
                truncated = true;
                break;
            }
            List<Object> row = new ArrayList<>(width);
            for (int c = 1; c <= width; c++) {
                row.add(AdHocSqlValues.value(rs, c, types.get(c - 1)));
            }
            rows.add(row);
        }
        return new SqlOutcome.Rows(columns, types, rows, truncated);
    }
}
