package io.tracegraph.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(PostgresExtension.class)
class PostgresExtensionIT {
    static DatabaseConfig fromBeforeAll;

    @BeforeAll
    static void remember(DatabaseConfig config) {
        fromBeforeAll = config;
    }

    @Test
    void givesTheClassItsOwnEmptyDatabase(DatabaseConfig config) throws SQLException {
        assertThat(config).isEqualTo(fromBeforeAll);
        assertThat(currentDatabase(config)).startsWith("tg_postgresextensionit_");
        assertThat(config.jdbcUrl()).endsWith("/" + currentDatabase(config));
    }

    @Nested
    class Inner {
        @Test
        void aNestedClassSharesItsOuterClassDatabase(DatabaseConfig config) {
            assertThat(config).isEqualTo(fromBeforeAll);
        }
    }

    private static String currentDatabase(DatabaseConfig config) throws SQLException {
        try (Connection c = DriverManager.getConnection(config.jdbcUrl(), config.user(), config.password());
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT current_database()")) {
            rs.next();
            return rs.getString(1);
        }
    }
}
