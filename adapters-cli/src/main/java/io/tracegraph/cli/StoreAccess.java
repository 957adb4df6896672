package io.tracegraph.cli;

import io.tracegraph.postgres.Database;
import io.tracegraph.postgres.DatabaseConfig;
import io.tracegraph.postgres.EmbeddedPostgresServer;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Consumer;
import org.jdbi.v3.core.Jdbi;

/**
 * An open, migrated store for one command: the database named by {@code --db} /
 * TRACEGRAPH_DB_URL, or a lease on the shared embedded server in the tracegraph home.
 */
final class StoreAccess implements AutoCloseable {
    private final EmbeddedPostgresServer.Lease lease;
    private final Database database;
    private Database reader;

    private StoreAccess(EmbeddedPostgresServer.Lease lease, Database database) {
        this.lease = lease;
        this.database = database;
    }

    static StoreAccess open(DatabaseOptions options, Main.Services services) {
        String url = options.url != null && !options.url.isBlank() ? options.url : services.env().get("TRACEGRAPH_DB_URL");
        // An upgrade of a big store takes a while: say so before it starts.
        Consumer<String> upgrading = notice -> {
            services.io().err().println("tracegraph: " + notice);
            services.io().err().flush();
        };
        if (url != null && !url.isBlank()) {
            return new StoreAccess(null, Database.open(configFor(url, services.env()), upgrading));
        }
        Path home = services.home();
        EmbeddedPostgresServer.Lease lease = EmbeddedPostgresServer.acquire(home);
        try {
            return new StoreAccess(lease, Database.open(lease.config(), upgrading));
        } catch (RuntimeException e) {
            lease.close();
            throw e;
        }
    }

    /** User and password from the environment, else from the URL's query, else the login name. */
    static DatabaseConfig configFor(String url, Map<String, String> env) {
        String user = env.getOrDefault("TRACEGRAPH_DB_USER", queryParameter(url, "user"));
        String password = env.getOrDefault("TRACEGRAPH_DB_PASSWORD", queryParameter(url, "password"));
        return new DatabaseConfig(url, user != null ? user : System.getProperty("user.name"), password);
    }

    private static String queryParameter(String url, String name) {
        int query = url.indexOf('?');
        if (query < 0) {
            return null;
        }
        for (String pair : url.substring(query + 1).split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0 && pair.substring(0, eq).equalsIgnoreCase(name)) {
                return URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    Jdbi jdbi() {
        return database.jdbi();
    }

    /**
     * Where SQL the user wrote runs: the embedded server's read-only role; with {@code --db}, the
     * configured login itself (give tracegraph a login without superuser rights there).
     */
    Jdbi adHocJdbi() {
        if (lease == null) {
            return database.jdbi();
        }
        if (reader == null) {
            reader = Database.connect(lease.readerConfig());
        }
        return reader.jdbi();
    }

    @Override
    public void close() {
        try {
            if (reader != null) {
                reader.close();
            }
            database.close();
        } finally {
            if (lease != null) {
                lease.close();
            }
        }
    }
}
