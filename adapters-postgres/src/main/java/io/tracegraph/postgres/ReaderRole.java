package io.tracegraph.postgres;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.postgresql.PGConnection;

/**
 * The role {@code tracegraph sql} runs as on the embedded server: a login without any superuser
 * right, that may read the store's tables and views and nothing else.
 *
 * <p>Why a login of its own: the embedded server's other user is a superuser, and a superuser's
 * session cannot be locked down from inside. {@code SET ROLE} or {@code SET SESSION
 * AUTHORIZATION} to a weaker role is undone by one statement such as
 * {@code SELECT set_config('role', 'postgres', true), query_to_xml('SELECT pg_read_file(...)', ...)},
 * because PostgreSQL checks those switches against the user who logged in. Logged in as this role,
 * {@code pg_read_file}, {@code pg_ls_dir}, server-side {@code lo_import}, signalling other
 * sessions, reading other sessions' queries and switching roles are all refused by the server.
 *
 * <p>The role is read-only by default ({@code default_transaction_read_only}), may spill at most
 * {@link #TEMP_FILE_LIMIT} of temporary files per session, sorts and hashes in {@link #WORK_MEM},
 * and gets {@code SELECT} on every table and view in {@code public}, now and (default privileges)
 * on those the store's owner creates later, so new migrations need no grants of their own.
 */
final class ReaderRole {
    static final String NAME = "tracegraph_reader";
    /** Temporary files one query may write (sorts and hashes that spill): a runaway query's disk use. */
    static final String TEMP_FILE_LIMIT = "1GB";
    /**
     * Memory a sort or hash of one query may take before it spills: aggregating the paths of ten
     * runs (docs/sql.md) fits in it instead of spilling tens of MB in batches.
     */
    static final String WORK_MEM = "64MB";
    private static final int CONNECTION_LIMIT = 20;

    private ReaderRole() {
    }

    /**
     * Creates or updates the role (attributes, settings, password) and grants it read access to the
     * current database, as the superuser connected through {@code superuser}. The password is hashed
     * on this side (scram-sha-256) and never sent in clear text, so it cannot reach the server log.
     */
    static void ensure(Connection superuser, String password) throws SQLException {
        boolean autoCommit = superuser.getAutoCommit();
        superuser.setAutoCommit(false);
        try (Statement s = superuser.createStatement()) {
            // Roles are shared by every database of the server: create it once, then only alter it.
            s.execute("DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '" + NAME + "') THEN "
                    + "CREATE ROLE " + NAME + "; END IF; END $$");
            s.execute("ALTER ROLE " + NAME + " WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT "
                    + "NOREPLICATION NOBYPASSRLS CONNECTION LIMIT " + CONNECTION_LIMIT);
            s.execute("ALTER ROLE " + NAME + " SET default_transaction_read_only = on");
            s.execute("ALTER ROLE " + NAME + " SET temp_file_limit = '" + TEMP_FILE_LIMIT + "'");
            s.execute("ALTER ROLE " + NAME + " SET work_mem = '" + WORK_MEM + "'");
            s.execute("DO $$ BEGIN EXECUTE format('GRANT CONNECT ON DATABASE %I TO " + NAME
                    + "', current_database()); END $$");
            s.execute("GRANT USAGE ON SCHEMA public TO " + NAME);
            s.execute("GRANT SELECT ON ALL TABLES IN SCHEMA public TO " + NAME);
            s.execute("ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT ON TABLES TO " + NAME);
            superuser.commit();
        } catch (SQLException e) {
            superuser.rollback();
            throw e;
        } finally {
            superuser.setAutoCommit(autoCommit);
        }
        superuser.unwrap(PGConnection.class).alterUserPassword(NAME, password.toCharArray(), "scram-sha-256");
    }
}
