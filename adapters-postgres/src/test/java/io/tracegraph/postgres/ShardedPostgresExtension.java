package io.tracegraph.postgres;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives each test class a fresh, empty sharded store: declare a {@link ShardedDatabases} parameter
 * in a class annotated {@code @ExtendWith(ShardedPostgresExtension.class)}. Three servers serve
 * every such class of the JVM: the coordinator is {@link PostgresExtension}'s server, the two shards
 * are embedded (zonky) PostgreSQL 17 servers started once; each class gets a database of its own on
 * each (dropped after the class), laid out as a coordinator and two shards (docs/scaling.md).
 */
public final class ShardedPostgresExtension implements ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(ShardedPostgresExtension.class);
    private static final int SHARDS = 2;
    private static List<DatabaseConfig> shardServers;

    /** A test class's sharded store: the coordinator's database and the shards', laid out. */
    public record ShardedDatabases(DatabaseConfig coordinator, List<DatabaseConfig> shards) {
        /** The shards as TRACEGRAPH_SHARD_URLS names them (each URL with its login). */
        public String shardUrls() {
            List<String> urls = new ArrayList<>();
            for (DatabaseConfig shard : shards) {
                urls.add(shard.jdbcUrl() + "?user=" + shard.user()
                        + (shard.password().isEmpty() ? "" : "&password=" + shard.password()));
            }
            return String.join(",", urls);
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == ShardedDatabases.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        ExtensionContext classContext = context;
        while (classContext.getTestMethod().isPresent() && classContext.getParent().isPresent()) {
            classContext = classContext.getParent().get();
        }
        Class<?> testClass = classContext.getRequiredTestClass();
        return classContext.getStore(NAMESPACE)
                .getOrComputeIfAbsent(Store.class, key -> Store.create(testClass), Store.class)
                .databases();
    }

    /** The shard servers of this JVM, started on first use (zonky stops them at exit). */
    public static synchronized List<DatabaseConfig> shardServers() {
        if (shardServers == null) {
            List<DatabaseConfig> servers = new ArrayList<>();
            for (int i = 0; i < SHARDS; i++) {
                try {
                    EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                            .setServerConfig("listen_addresses", "127.0.0.1")
                            .start();
                    servers.add(new DatabaseConfig("jdbc:postgresql://127.0.0.1:" + postgres.getPort() + "/postgres",
                            "postgres", ""));
                } catch (IOException e) {
                    throw new IllegalStateException("cannot start an embedded PostgreSQL shard for the tests: "
                            + e.getMessage(), e);
                }
            }
            shardServers = List.copyOf(servers);
        }
        return shardServers;
    }

    /** A class's databases on the three servers, dropped when the class is done. */
    private record Store(List<DatabaseConfig> admins, String name, ShardedDatabases databases)
            implements ExtensionContext.Store.CloseableResource {
        static Store create(Class<?> testClass) {
            String base = testClass.getSimpleName().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_");
            String name = "tgs_" + base.substring(0, Math.min(base.length(), 40)) + "_"
                    + UUID.randomUUID().toString().substring(0, 8);
            List<DatabaseConfig> admins = new ArrayList<>();
            admins.add(PostgresExtension.server());
            admins.addAll(shardServers());
            List<DatabaseConfig> configs = new ArrayList<>();
            for (DatabaseConfig admin : admins) {
                execute(admin, "CREATE DATABASE " + name);
                configs.add(new DatabaseConfig(withDatabase(admin.jdbcUrl(), name), admin.user(), admin.password()));
            }
            ShardedDatabases databases = new ShardedDatabases(configs.get(0), configs.subList(1, configs.size()));
            // Laid out now: the store's first command finds a sharded store.
            PostgresStore.open(databases.coordinator(), databases.shards(), notice -> { }).close();
            return new Store(admins, name, databases);
        }

        @Override
        public void close() {
            for (DatabaseConfig admin : admins) {
                try {
                    execute(admin, "DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
                } catch (RuntimeException e) {
                    // The next run's databases have other names.
                }
            }
        }
    }

    static void execute(DatabaseConfig admin, String sql) {
        try (Connection c = DriverManager.getConnection(admin.jdbcUrl(), admin.user(), admin.password());
                Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + " failed on " + admin.describe() + ": " + e.getMessage(), e);
        }
    }

    private static String withDatabase(String jdbcUrl, String database) {
        int hostStart = "jdbc:postgresql://".length();
        int slash = jdbcUrl.indexOf('/', hostStart);
        int query = jdbcUrl.indexOf('?', hostStart);
        String host = jdbcUrl.substring(0, slash >= 0 ? slash : query >= 0 ? query : jdbcUrl.length());
        String params = query >= 0 ? jdbcUrl.substring(query) : "";
        return host + "/" + database + params;
    }
}
