package io.tracegraph.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(PostgresExtension.class)
class DatabaseIT {
    private final DatabaseConfig config;

    DatabaseIT(DatabaseConfig config) {
        this.config = config;
    }

    @Test
    void opensWithAnEmptyMigrationSet() {
        try (Database database = Database.open(config, "classpath:io/tracegraph/postgres/no-migrations-here")) {
            Integer one = database.jdbi().withHandle(h -> h.createQuery("SELECT 1").mapTo(Integer.class).one());
            assertThat(one).isEqualTo(1);
            assertThat(database.config()).isEqualTo(config);
        }
    }

    @Test
    void appliesTheMigrationsOnceAndOpensAgain() {
        try (Database first = Database.open(config)) {
            String application = first.jdbi().withHandle(h -> h.createQuery(
                    "SELECT current_setting('application_name')").mapTo(String.class).one());
            assertThat(application).isEqualTo("tracegraph");
        }
        try (Database second = Database.open(config)) {
            String name = second.jdbi().withHandle(h -> h.createQuery("SELECT current_database()")
                    .mapTo(String.class).one());
            assertThat(name).startsWith("tg_databaseit_");
        }
    }

    @Test
    void aWrongPasswordFailsWithoutShowingIt() {
        String secret = "wrong-secret-42";
        DatabaseConfig wrong = new DatabaseConfig(config.jdbcUrl(), config.user() + "_nobody", secret);
        assertThatThrownBy(() -> Database.open(wrong))
                .isInstanceOf(DatabaseException.class)
                .hasMessageStartingWith("cannot connect to PostgreSQL at ")
                .hasMessageNotContaining(secret);
    }

    @Test
    void anUnreachableServerFailsWithTheReason() {
        DatabaseConfig nowhere = new DatabaseConfig("jdbc:postgresql://127.0.0.1:1/tracegraph", "postgres", "pw-secret");
        assertThatThrownBy(() -> Database.open(nowhere))
                .isInstanceOf(DatabaseException.class)
                .hasMessageContaining("127.0.0.1:1/tracegraph")
                .hasMessageContaining("refused")
                .hasMessageNotContaining("pw-secret");
    }

    @Test
    void failedStatementsAreWrappedWithTheServersWords() {
        try (Database database = Database.open(config, "classpath:io/tracegraph/postgres/no-migrations-here")) {
            assertThatThrownBy(() -> database.jdbi().useHandle(h -> {
                try {
                    h.execute("SELECT * FROM no_such_table");
                } catch (RuntimeException e) {
                    throw DatabaseException.wrap(e);
                }
            })).isInstanceOf(DatabaseException.class).hasMessageContaining("no_such_table");
        }
    }

    @Test
    void reusesAConnectionOnlyOnceItIsAsGoodAsNew() throws SQLException {
        try (Database database = Database.open(config, "classpath:io/tracegraph/postgres/no-migrations-here")) {
            long pid;
            try (Connection c = database.dataSource().getConnection(); Statement s = c.createStatement()) {
                pid = backend(s);
                s.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY");
                s.execute("SET statement_timeout = 1");
                c.setAutoCommit(false);
                s.execute("SELECT 1");
            }
            try (Connection c = database.dataSource().getConnection(); Statement s = c.createStatement()) {
                assertThat(backend(s)).as("the same server process").isEqualTo(pid);
                assertThat(c.getAutoCommit()).isTrue();
                assertThat(text(s, "SHOW transaction_read_only")).isEqualTo("off");
                assertThat(text(s, "SHOW statement_timeout")).isEqualTo("0");
                assertThat(text(s, "SELECT count(*) FROM pg_stat_activity WHERE pid = pg_backend_pid() "
                        + "AND backend_xid IS NULL")).isEqualTo("1");
            }
        }
    }

    @Test
    void aConnectionWhoseServerProcessWasEndedIsNotReused() throws SQLException {
        try (Database database = Database.open(config, "classpath:io/tracegraph/postgres/no-migrations-here")) {
            long pid;
            try (Connection c = database.dataSource().getConnection(); Statement s = c.createStatement()) {
                pid = backend(s);
            }
            try (Connection other = database.dataSource().getConnection();
                 Connection admin = java.sql.DriverManager.getConnection(config.jdbcUrl(), config.user(),
                         config.password());
                 Statement s = admin.createStatement()) {
                assertThat(text(s, "SELECT pg_terminate_backend(" + pid + ")")).isEqualTo("t");
                assertThat(other.isClosed()).isFalse();
            }
            String answer = database.jdbi().withHandle(h -> h.createQuery("SELECT 'alive'").mapTo(String.class).one());
            assertThat(answer).isEqualTo("alive");
        }
    }

    @Test
    void closingTheDatabaseClosesTheConnectionsItKept() throws SQLException {
        Database database = Database.open(config, "classpath:io/tracegraph/postgres/no-migrations-here");
        long pid;
        try (Connection c = database.dataSource().getConnection(); Statement s = c.createStatement()) {
            pid = backend(s);
        }
        database.close();
        try (Connection admin = java.sql.DriverManager.getConnection(config.jdbcUrl(), config.user(), config.password());
             Statement s = admin.createStatement()) {
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (!text(s, "SELECT count(*) FROM pg_stat_activity WHERE pid = " + pid).equals("0")
                    && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(text(s, "SELECT count(*) FROM pg_stat_activity WHERE pid = " + pid)).isEqualTo("0");
        }
    }

    @Test
    void theCitusMigrationsLeaveAServerWithoutCitusAsItWas() {
        // V7 and V9 act only where the citus extension exists: here run_path_stats() stays the SQL
        // function V8 made (inlined by the planner) and no function carries a Citus setting.
        try (Database database = Database.open(config)) {
            database.jdbi().useHandle(h -> {
                assertThat(h.createQuery("SELECT count(*) FROM pg_extension WHERE extname = 'citus'")
                        .mapTo(Long.class).one()).isZero();
                assertThat(h.createQuery("SELECT max(version::integer) FROM flyway_schema_history WHERE success")
                        .mapTo(Integer.class).one()).isGreaterThanOrEqualTo(9);
                assertThat(h.createQuery("""
                        SELECT p.proname || ':' || l.lanname FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
                        WHERE p.pronamespace = 'public'::regnamespace AND p.proname IN ('run_path_stats', 'run_path')
                        ORDER BY p.proname""").mapTo(String.class).list())
                        .containsExactly("run_path:sql", "run_path_stats:sql");
                assertThat(h.createQuery("""
                        SELECT p.proname FROM pg_proc p
                        WHERE p.pronamespace = 'public'::regnamespace
                          AND array_to_string(p.proconfig, ',') LIKE '%citus%'""").mapTo(String.class).list())
                        .isEmpty();
            });
        }
    }

    private static long backend(Statement s) throws SQLException {
        return Long.parseLong(text(s, "SELECT pg_backend_pid()"));
    }

    private static String text(Statement s, String query) throws SQLException {
        try (ResultSet rs = s.executeQuery(query)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
