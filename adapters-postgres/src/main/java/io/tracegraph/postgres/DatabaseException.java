package io.tracegraph.postgres;

import java.sql.SQLException;

/**
 * The one unchecked exception of this module: a database could not be reached, started, stopped or
 * migrated, or a statement failed. Messages are meant for the user and never carry a password.
 */
public final class DatabaseException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public DatabaseException(String message) {
        super(message);
    }

    public DatabaseException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * Whether a server could not be reached: a connection failure (SQLSTATE class 08), also one a
     * coordinator reports of a shard it could not reach (postgres_fdw), or a server shutting down.
     */
    public boolean unreachable() {
        for (Throwable cause = this; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof SQLException sql && sql.getSQLState() != null
                    && (sql.getSQLState().startsWith("08") || sql.getSQLState().startsWith("57P"))) {
                return true;
            }
        }
        return false;
    }

    /** Wraps a JDBC, jdbi or Flyway failure, keeping the database's own words as the message. */
    public static DatabaseException wrap(Exception e) {
        if (e instanceof DatabaseException database) {
            return database;
        }
        return new DatabaseException(DatabaseConfig.redact(databaseMessage(e)), e);
    }

    /** The most specific message in {@code e}'s causes: the server's, when a SQLException carries it. */
    static String databaseMessage(Throwable e) {
        String message = e.getMessage();
        for (Throwable cause = e.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
            if (cause instanceof SQLException && cause.getMessage() != null) {
                message = cause.getMessage();
            }
        }
        if (e instanceof SQLException sql && sql.getNextException() != null
                && sql.getNextException().getMessage() != null) {
            message = message + " (" + sql.getNextException().getMessage() + ")";
        }
        // The server's words come on several lines ("ERROR: ...", "  Detail: ...", "  Hint: ..."): one.
        return message == null || message.isBlank() ? e.getClass().getSimpleName()
                : message.strip().replaceAll("\\s*\\R\\s*", "; ");
    }
}
