package io.tracegraph.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
}
