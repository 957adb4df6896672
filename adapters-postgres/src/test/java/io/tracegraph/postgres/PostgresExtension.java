package io.tracegraph.postgres;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives each test class a fresh, empty PostgreSQL database: declare a {@link DatabaseConfig}
 * parameter (constructor, lifecycle or test method) in a class annotated
 * {@code @ExtendWith(PostgresExtension.class)}.
 *
 * <p>The server is chosen once per JVM, in this order:
 * <ol>
 *   <li>{@code TRACEGRAPH_TEST_JDBC_URL} (with {@code TRACEGRAPH_TEST_JDBC_USER} and
 *       {@code TRACEGRAPH_TEST_JDBC_PASSWORD}): a server you run, e.g. in CI; the role needs
 *       {@code CREATEDB};</li>
 *   <li>Testcontainers' PostgreSQL 17 when a Docker daemon answers;</li>
 *   <li>an embedded (zonky) PostgreSQL 17 in a temporary directory.</li>
 * </ol>
 * Each test class gets its own database ({@code CREATE DATABASE tg_<class>_<random>}), dropped
 * after the class.
 */
public final class PostgresExtension implements ParameterResolver {
    private static final Logger LOG = LoggerFactory.getLogger(PostgresExtension.class);
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(PostgresExtension.class);
    private static Backend backend;

    /** A server the tests may create databases on, through its maintenance database. */
    private record Backend(String description, DatabaseConfig admin) {
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == DatabaseConfig.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        ExtensionContext classContext = context;
        while (classContext.getTestMethod().isPresent() && classContext.getParent().isPresent()) {
            classContext = classContext.getParent().get();
        }
        Class<?> testClass = classContext.getRequiredTestClass();
        return classContext.getStore(NAMESPACE)
                .getOrComputeIfAbsent(TestDatabase.class, key -> TestDatabase.create(backend(), testClass),
                        TestDatabase.class)
                .config();
    }

    /** The server the tests of this JVM use. */
    public static synchronized DatabaseConfig server() {
        return backend().admin();
    }

    private static synchronized Backend backend() {
        if (backend == null) {
            backend = chooseBackend(System.getenv());
            LOG.info("database tests use {}", backend.description());
        }
        return backend;
    }

    private static Backend chooseBackend(Map<String, String> env) {
        String url = env.get("TRACEGRAPH_TEST_JDBC_URL");
        if (url != null && !url.isBlank()) {
            DatabaseConfig config = new DatabaseConfig(url, env.getOrDefault("TRACEGRAPH_TEST_JDBC_USER", "postgres"),
                    env.getOrDefault("TRACEGRAPH_TEST_JDBC_PASSWORD", ""));
            return new Backend("TRACEGRAPH_TEST_JDBC_URL (" + config.describe() + ")", config);
        }
        if (dockerMayAnswer(env) && Containers.dockerAnswers()) {
            DatabaseConfig config = Containers.start();
            return new Backend("Testcontainers PostgreSQL (" + config.describe() + ")", config);
        }
        return embedded();
    }

    /** Cheap checks first: Testcontainers' own probe takes time and logs an error when Docker is absent. */
    private static boolean dockerMayAnswer(Map<String, String> env) {
        if (env.get("DOCKER_HOST") != null && !env.get("DOCKER_HOST").isBlank()) {
            return true;
        }
        String home = System.getProperty("user.home");
        String runtime = env.get("XDG_RUNTIME_DIR");
        return Files.exists(Path.of("/var/run/docker.sock"))
                || Files.exists(Path.of(home, ".docker", "run", "docker.sock"))
                || (runtime != null && Files.exists(Path.of(runtime, "docker.sock")));
    }

    private static Backend embedded() {
        try {
            EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                    .setServerConfig("listen_addresses", "127.0.0.1")
                    .start();
            // zonky's shutdown hook stops it and removes its temporary data directory.
            DatabaseConfig config = new DatabaseConfig("jdbc:postgresql://127.0.0.1:" + postgres.getPort()
                    + "/postgres", "postgres", "");
            return new Backend("embedded PostgreSQL (zonky, " + config.describe() + ")", config);
        } catch (IOException e) {
            throw new IllegalStateException("cannot start an embedded PostgreSQL for the tests: " + e.getMessage(), e);
        }
    }

    /** A test class's own database, dropped when the class is done. */
    private record TestDatabase(DatabaseConfig admin, String name, DatabaseConfig config) implements AutoCloseable {
        static TestDatabase create(Backend backend, Class<?> testClass) {
            String base = testClass.getSimpleName().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_");
            String name = "tg_" + base.substring(0, Math.min(base.length(), 40)) + "_"
                    + UUID.randomUUID().toString().substring(0, 8);
            execute(backend.admin(), "CREATE DATABASE " + name);
            return new TestDatabase(backend.admin(), name, new DatabaseConfig(withDatabase(backend.admin().jdbcUrl(),
                    name), backend.admin().user(), backend.admin().password()));
        }

        @Override
        public void close() {
            try {
                execute(admin, "DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
            } catch (RuntimeException e) {
                LOG.warn("could not drop the test database {}: {}", name, e.getMessage());
            }
        }

        private static void execute(DatabaseConfig admin, String sql) {
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

    /** Testcontainers, touched only when Docker may answer: the class need not be on the class path otherwise. */
    private static final class Containers {
        private Containers() {
        }

        static boolean dockerAnswers() {
            try {
                return org.testcontainers.DockerClientFactory.instance().isDockerAvailable();
            } catch (NoClassDefFoundError e) {
                LOG.warn("Docker may be available but Testcontainers is not on the test class path");
                return false;
            }
        }

        @SuppressWarnings("resource") // runs until the JVM exits; Testcontainers' reaper removes it
        static DatabaseConfig start() {
            var container = new org.testcontainers.postgresql.PostgreSQLContainer("postgres:17-alpine");
            container.start();
            return new DatabaseConfig(container.getJdbcUrl(), container.getUsername(), container.getPassword());
        }
    }
}
