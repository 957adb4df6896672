package io.tracegraph.postgres;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a PostgreSQL database is and how to log in to it.
 *
 * @param jdbcUrl  a {@code jdbc:postgresql://HOST[:PORT]/DATABASE[?...]} URL
 * @param user     the role to log in as
 * @param password its password; may be empty, never printed by {@link #toString()}
 */
public record DatabaseConfig(String jdbcUrl, String user, String password) {
    private static final String PREFIX = "jdbc:postgresql://";
    private static final Pattern PASSWORD_PARAMETER =
            Pattern.compile("(?i)(password=)[^&]*");
    private static final Pattern USER_INFO = Pattern.compile("(//[^/@:]*:)[^/@]*@");
    private static final Pattern SSL_MODE = Pattern.compile("(?i)[?&](sslmode=[^&]*)");

    public DatabaseConfig {
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        Objects.requireNonNull(user, "user");
        password = password == null ? "" : password;
        if (!jdbcUrl.startsWith(PREFIX)) {
            throw new IllegalArgumentException("not a PostgreSQL JDBC URL (jdbc:postgresql://HOST:PORT/DATABASE): "
                    + redact(jdbcUrl));
        }
    }

    /**
     * The same database as a libpq connection URI that {@code psql} accepts, password included:
     * {@code postgresql://USER:PASSWORD@HOST:PORT/DATABASE}. Show it only to the user who owns it.
     */
    public String psqlUrl() {
        String rest = jdbcUrl.substring(PREFIX.length());
        int query = rest.indexOf('?');
        String hostAndPath = query < 0 ? rest : rest.substring(0, query);
        int at = hostAndPath.indexOf('@');
        if (at >= 0) {
            hostAndPath = hostAndPath.substring(at + 1);
        }
        StringBuilder uri = new StringBuilder("postgresql://").append(encode(user));
        if (!password.isEmpty()) {
            uri.append(':').append(encode(password));
        }
        uri.append('@').append(hostAndPath);
        if (query >= 0) {
            Matcher sslMode = SSL_MODE.matcher(rest.substring(query));
            if (sslMode.find()) {
                uri.append('?').append(sslMode.group(1));
            }
        }
        return uri.toString();
    }

    /** The host, port and database, for messages: no credentials. */
    public String describe() {
        URI uri = URI.create(jdbcUrl.substring("jdbc:".length()));
        String host = uri.getHost() == null ? "localhost" : uri.getHost();
        String port = uri.getPort() < 0 ? "" : ":" + uri.getPort();
        return host + port + (uri.getPath() == null ? "" : uri.getPath()) + " as " + user;
    }

    /** {@code text} with this config's password, and any {@code password=...}, masked. */
    public String redactFrom(String text) {
        if (text == null) {
            return null;
        }
        String redacted = password.length() >= 4 ? text.replace(password, "****") : text;
        return redact(redacted);
    }

    @Override
    public String toString() {
        return "DatabaseConfig[jdbcUrl=" + redact(jdbcUrl) + ", user=" + user + ", password=****]";
    }

    static String redact(String text) {
        String masked = PASSWORD_PARAMETER.matcher(text).replaceAll("$1****");
        return USER_INFO.matcher(masked).replaceAll("$1****@");
    }

    private static String encode(String part) {
        return URLEncoder.encode(part, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
