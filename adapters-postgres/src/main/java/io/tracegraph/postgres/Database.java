package io.tracegraph.postgres;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.OptionalInt;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.output.MigrateResult;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.postgres.PostgresPlugin;
import org.postgresql.ds.PGSimpleDataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An open, migrated tracegraph database: a connection source and a {@link Jdbi} on it. Opening
 * applies the pending Flyway migrations from {@code classpath:db/migration}.
 */
public final class Database implements AutoCloseable {
    static final String MIGRATIONS = "classpath:db/migration";
    private static final int CONNECT_TIMEOUT_SECONDS = 10;
    /** Connections kept open for reuse (a command uses a few at once: import jobs, parallel reads). */
    private static final int POOLED_CONNECTIONS = 8;
    private static final Logger LOG = LoggerFactory.getLogger(Database.class);

    private final DatabaseConfig config;
    private final PooledConnections dataSource;
    private final Jdbi jdbi;

    private Database(DatabaseConfig config, PGSimpleDataSource dataSource) {
        this.config = config;
        this.dataSource = new PooledConnections(dataSource, POOLED_CONNECTIONS);
        this.jdbi = Jdbi.create(this.dataSource).installPlugin(new PostgresPlugin());
    }

    /**
     * Connects to {@code config}'s database and brings its schema up to date.
     *
     * @throws DatabaseException when the database cannot be reached or a migration fails
     */
    public static Database open(DatabaseConfig config) {
        return open(config, MIGRATIONS);
    }

    /**
     * Connects to {@code config}'s database as it is, without migrating: for a login that may only
     * read (the embedded server's {@code tracegraph_reader}).
     *
     * @throws DatabaseException when the database cannot be reached
     */
    public static Database connect(DatabaseConfig config) {
        Database database = new Database(config, dataSource(config));
        try {
            database.checkConnection();
        } catch (RuntimeException e) {
            database.close();
            throw e;
        }
        return database;
    }

    static Database open(DatabaseConfig config, String migrations) {
        PGSimpleDataSource dataSource = dataSource(config);
        Database database = new Database(config, dataSource);
        try {
            database.checkConnection();
            database.migrate(migrations);
        } catch (RuntimeException e) {
            database.close();
            throw e;
        }
        return database;
    }

    private static PGSimpleDataSource dataSource(DatabaseConfig config) {
        PGSimpleDataSource ds = new PGSimpleDataSource();
        try {
            ds.setURL(config.jdbcUrl());
        } catch (IllegalArgumentException e) {
            throw new DatabaseException("invalid database URL " + DatabaseConfig.redact(config.jdbcUrl()) + ": "
                    + config.redactFrom(e.getMessage()));
        }
        // A user or password given in the URL itself is kept unless the config names one.
        if (!config.user().isBlank()) {
            ds.setUser(config.user());
        }
        if (!config.password().isEmpty()) {
            ds.setPassword(config.password());
        }
        ds.setConnectTimeout(CONNECT_TIMEOUT_SECONDS);
        ds.setLoginTimeout(CONNECT_TIMEOUT_SECONDS);
        ds.setTcpKeepAlive(true);
        ds.setApplicationName("tracegraph");
        // Sends application_name with the login instead of a SET afterwards, so that the RESET ALL
        // of a connection handed back to the pool keeps it (and one round trip less per login).
        ds.setAssumeMinServerVersion("10");
        return ds;
    }

    private void checkConnection() {
        try (Connection c = dataSource.getConnection()) {
            c.isValid(CONNECT_TIMEOUT_SECONDS);
        } catch (SQLException e) {
            throw wrap("cannot connect to PostgreSQL at " + config.describe(), e);
        }
    }

    private void migrate(String migrations) {
        if (MIGRATIONS.equals(migrations) && upToDate()) {
            // Every command opens the store: one query instead of Flyway's start-up and checks.
            return;
        }
        try {
            MigrateResult result = Flyway.configure(Database.class.getClassLoader())
                    .dataSource(dataSource)
                    .locations(migrations)
                    .failOnMissingLocations(false)
                    // A misnamed file (V1_x.sql) is an error, not a migration silently skipped.
                    .validateMigrationNaming(true)
                    .load()
                    .migrate();
            if (result.migrationsExecuted > 0) {
                LOG.info("database {} migrated to version {} ({} migration(s))", config.describe(),
                        result.targetSchemaVersion, result.migrationsExecuted);
            }
        } catch (FlywayException e) {
            throw wrap("cannot migrate the database at " + config.describe(), e);
        }
    }

    /**
     * Whether the database has applied the newest migration this build ships, successfully. False
     * when the schema history is missing (a new database) or cannot be read: Flyway then decides.
     */
    private boolean upToDate() {
        OptionalInt shipped = Migrations.newestVersion();
        if (shipped.isEmpty()) {
            return false;
        }
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT max(version::integer) FROM flyway_schema_history "
                        + "WHERE success AND version ~ '^[0-9]+$'")) {
            return rs.next() && rs.getInt(1) == shipped.getAsInt();
        } catch (SQLException e) {
            return false;
        }
    }

    /** The migrated database's connection source (a few are kept for reuse): close each when done. */
    public DataSource dataSource() {
        return dataSource;
    }

    public Jdbi jdbi() {
        return jdbi;
    }

    public DatabaseConfig config() {
        return config;
    }

    /**
     * Wraps a JDBC, Flyway or jdbi failure for this database: our exception, with the cause's
     * message (and never the password).
     */
    public DatabaseException wrap(String what, Exception e) {
        return new DatabaseException(config.redactFrom(what + ": " + DatabaseException.databaseMessage(e)), e);
    }

    /** Closes the connections kept for reuse; the database stays as it is. */
    @Override
    public void close() {
        dataSource.close();
    }

    @Override
    public String toString() {
        return "Database[" + config.describe() + "]";
    }
}
