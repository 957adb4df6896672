package io.tracegraph.cli;

import picocli.CommandLine.Option;

/** Which database a command uses: {@code --db} (or TRACEGRAPH_DB_URL), else the embedded one. */
final class DatabaseOptions {
    @Option(names = "--db", paramLabel = "JDBC_URL",
            description = {
                "PostgreSQL to use, e.g. jdbc:postgresql://host:5432/tracegraph (default: "
                        + "$TRACEGRAPH_DB_URL, else the embedded PostgreSQL kept in $TRACEGRAPH_HOME). User and "
                        + "password come from $TRACEGRAPH_DB_USER and $TRACEGRAPH_DB_PASSWORD (or the URL).",
            })
    String url;
}
