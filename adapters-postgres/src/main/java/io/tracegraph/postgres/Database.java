package io.tracegraph.postgres;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
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
        boolean coordinator = isCoordinator();
        OptionalInt shipped = MIGRATIONS.equals(migrations) ? Migrations.newestVersion() : OptionalInt.empty();
        OptionalInt applied = shipped.isPresent() ? appliedVersion() : OptionalInt.empty();
        if (shipped.isPresent() && applied.isPresent()) {
            if (applied.getAsInt() == shipped.getAsInt()) {
                // Every command opens the store: one query instead of Flyway's start-up and checks.
                if (coordinator && !derived()) {
                    // Laid out by an older tracegraph: the shards' own views first (ShardLayout.SHARD_READS).
                    for (ShardLayout.Shard shard : shards()) {
                        openShard(shard.config(), migrations, upgrading, shard.server()).close();
                    }
                    inTransaction("cannot lay out the sharded store at " + config.describe(), ShardLayout::derive);
                }
                return;
            }
            if (applied.getAsInt() < shipped.getAsInt()) {
                upgrading.accept("upgrading the store from schema version " + applied.getAsInt() + " to "
                        + shipped.getAsInt() + " (once; a big store takes a minute or more)");
            }
        }
        if (coordinator) {
            // A sharded store: its shards first (every run's rows are there), then the coordinator's
            // own tables with the derived relations out of the way, which are then made again.
            migrateShards(migrations, upgrading);
            inTransaction("cannot migrate the sharded store at " + config.describe(), ShardLayout::dropDerived);
        }
        try {
            MigrateResult result = Flyway.configure(Database.class.getClassLoader())
                    .dataSource(coordinator ? publicSchema(config) : dataSource)
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
        if (coordinator) {
            inTransaction("cannot lay out the sharded store at " + config.describe(), ShardLayout::derive);
        }
    }

    private void migrateShards(String migrations, Consumer<String> upgrading) {
        for (ShardLayout.Shard shard : shards()) {
            openShard(shard.config(), migrations, upgrading, shard.server()).close();
        }
    }

    private List<ShardLayout.Shard> shards() {
        try (Connection c = dataSource.getConnection()) {
            return ShardLayout.shards(c);
        } catch (SQLException e) {
            throw wrap("cannot read the shards of the store at " + config.describe(), e);
        }
    }

    /**
     * Opens the shard {@code config} names (called {@code server} in messages) as a store of its own,
     * migrated, and prepares it for its coordinator ({@link ShardLayout#prepareShard}); the views the
     * coordinator reads there are dropped before the migrations and made again after.
     */
    static Database openShard(DatabaseConfig config, Consumer<String> upgrading, String server) {
        return openShard(config, MIGRATIONS, upgrading, server);
    }

    private static Database openShard(DatabaseConfig config, String migrations, Consumer<String> upgrading,
            String server) {
        try {
            try (Database db = connect(config)) {
                db.inTransaction("cannot prepare the shard", ShardLayout::dropShardReads);
            }
            Database db = open(config, migrations, upgrading);
            try {
                db.inTransaction("cannot prepare the shard", ShardLayout::prepareShard);
            } catch (RuntimeException e) {
                db.close();
                throw e;
            }
            return db;
        } catch (DatabaseException e) {
            throw new DatabaseException("shard " + server + ": " + e.getMessage(), e);
        }
    }

    /** Whether this database is a sharded store's coordinator (docs/scaling.md). */
    boolean isCoordinator() {
        try (Connection c = dataSource.getConnection()) {
            return ShardLayout.isCoordinator(c);
        } catch (SQLException e) {
            throw wrap("cannot read the database at " + config.describe(), e);
        }
    }

    private boolean derived() {
        try (Connection c = dataSource.getConnection()) {
            return ShardLayout.derived(c);
        } catch (SQLException e) {
            throw wrap("cannot read the database at " + config.describe(), e);
        }
    }

    /** Runs {@code work} on one connection in one transaction. */
    void inTransaction(String what, SqlWork work) {
        try (Connection c = dataSource.getConnection()) {
            boolean autoCommit = c.getAutoCommit();
            c.setAutoCommit(false);
            try {
                work.run(c);
                c.commit();
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(autoCommit);
            }
        } catch (SQLException e) {
            throw wrap(what, e);
        }
    }

    /** Work on a connection. */
    interface SqlWork {
        void run(Connection c) throws SQLException;
    }

    /** Connections for Flyway on a coordinator, whose search_path would else start with the derived schema. */
    private static DataSource publicSchema(DatabaseConfig config) {
        PGSimpleDataSource ds = dataSource(config);
        ds.setCurrentSchema("public");
        return ds;
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
