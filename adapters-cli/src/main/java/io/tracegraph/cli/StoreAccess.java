package io.tracegraph.cli;

import io.tracegraph.postgres.DatabaseConfig;
import io.tracegraph.postgres.PostgresStore;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Which store a command opens: the database named by {@code --db} / TRACEGRAPH_DB_URL, or a lease
 * on the shared embedded server in the tracegraph home.
 */
final class StoreAccess {
    private StoreAccess() {
    }

    static PostgresStore open(DatabaseOptions options, Main.Services services) {
        String url = options.url != null && !options.url.isBlank() ? options.url : services.env().get("TRACEGRAPH_DB_URL");
        // An upgrade of a big store takes a while: say so before it starts.
        Consumer<String> upgrading = notice -> {
            services.io().err().println("tracegraph: " + notice);
            services.io().err().flush();
        };
        if (url != null && !url.isBlank()) {
            return PostgresStore.open(configFor(url, services.env()), shardConfigs(services.env()), upgrading);
        }
        return PostgresStore.openEmbedded(services.home(), upgrading);
    }

    /**
     * The shards of TRACEGRAPH_SHARD_URLS (JDBC URLs separated by commas or blanks), each logging in
     * as its URL says, else as the coordinator does (docs/scaling.md).
     */
    static List<DatabaseConfig> shardConfigs(Map<String, String> env) {
        String urls = env.get("TRACEGRAPH_SHARD_URLS");
        if (urls == null || urls.isBlank()) {
            return List.of();
        }
        List<DatabaseConfig> shards = new ArrayList<>();
        for (String url : urls.trim().split("[,\\s]+")) {
            String user = queryParameter(url, "user");
            String password = queryParameter(url, "password");
            shards.add(new DatabaseConfig(url, user != null ? user : env.getOrDefault("TRACEGRAPH_DB_USER",
                    System.getProperty("user.name")), password != null ? password
                    : env.getOrDefault("TRACEGRAPH_DB_PASSWORD", "")));
        }
        return shards;
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
}
