package io.tracegraph.postgres;

import java.net.URI;

/** Where a shard's database is, from its JDBC URL: what a postgres_fdw foreign server is given. */
record ShardAddress(String host, int port, String database) {
    static ShardAddress of(DatabaseConfig config) {
        String url = config.jdbcUrl();
        int query = url.indexOf('?');
        URI uri = URI.create((query < 0 ? url : url.substring(0, query)).substring("jdbc:".length()));
        if (uri.getHost() == null) {
            throw new DatabaseException("a shard needs a host name in its URL: " + DatabaseConfig.redact(url));
        }
        String path = uri.getPath() == null || uri.getPath().length() <= 1 ? "postgres" : uri.getPath().substring(1);
        return new ShardAddress(uri.getHost(), uri.getPort() < 0 ? 5432 : uri.getPort(), path);
    }
}
