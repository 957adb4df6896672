package io.tracegraph.postgres;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.OptionalInt;
import java.util.function.Consumer;
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
        return open(config, MIGRATIONS, notice -> { });
    }

    /**
     * As {@link #open(DatabaseConfig)}; {@code upgrading} is told, before they run, that migrations
     * will upgrade a store created by an older tracegraph (they may rewrite a big store's tables).
     */
    public static Database open(DatabaseConfig config, Consumer<String> upgrading) {
        return open(config, MIGRATIONS, upgrading);
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
        return open(config, migrations, notice -> { });
    }

    private static Database open(DatabaseConfig config, String migrations, Consumer<String> upgrading) {
        PGSimpleDataSource dataSource = dataSource(config);
        Database database = new Database(config, dataSource);
        try {
            database.checkConnection();
            database.migrate(migrations, upgrading);
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

    private void migrate(String migrations, Consumer<String> upgrading) {
        OptionalInt shipped = MIGRATIONS.equals(migrations) ? Migrations.newestVersion() : OptionalInt.empty();
        OptionalInt applied = shipped.isPresent() ? appliedVersion() : OptionalInt.empty();
        if (shipped.isPresent() && applied.isPresent()) {
            if (applied.getAsInt() == shipped.getAsInt()) {
                // Every command opens the store: one query instead of Flyway's start-up and checks.
                return;
            }
            if (applied.getAsInt() < shipped.getAsInt()) {
                upgrading.accept("upgrading the store from schema version " + applied.getAsInt() + " to "
                        + shipped.getAsInt() + " (once; a big store takes a minute or more)");
            }
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
     * The newest migration the database has applied successfully; empty when the schema history is
     * missing (a new database) or cannot be read: Flyway then decides.
     */
    private OptionalInt appliedVersion() {
        try (Connection c = dataSource.getConnection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT max(version::integer) FROM flyway_schema_history "
                        + "WHERE success AND version ~ '^[0-9]+$'")) {
            if (rs.next()) {
                int version = rs.getInt(1);
                return rs.wasNull() ? OptionalInt.empty() : OptionalInt.of(version);
            }
            return OptionalInt.empty();
        } catch (SQLException e) {
            return OptionalInt.empty();
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
