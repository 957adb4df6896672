package io.tracegraph.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class DatabaseConfigTest {
    @Test
    void toStringNeverShowsThePassword() {
        DatabaseConfig config = new DatabaseConfig("jdbc:postgresql://127.0.0.1:5432/tracegraph?password=inurl",
                "postgres", "s3cret!");
        assertThat(config.toString()).doesNotContain("s3cret!").doesNotContain("inurl").contains("****");
    }

    @Test
    void psqlUrlCarriesEncodedCredentials() {
        DatabaseConfig config = new DatabaseConfig("jdbc:postgresql://127.0.0.1:40123/tracegraph", "postgres",
                "a/b:c@d e");
        assertThat(config.psqlUrl()).isEqualTo("postgresql://postgres:a%2Fb%3Ac%40d%20e@127.0.0.1:40123/tracegraph");
    }

    @Test
    void psqlUrlKeepsSslModeAndDropsJdbcOnlyParameters() {
        DatabaseConfig config = new DatabaseConfig(
                "jdbc:postgresql://db.example:5432/runs?ApplicationName=x&sslmode=require", "me", "");
        assertThat(config.psqlUrl()).isEqualTo("postgresql://me@db.example:5432/runs?sslmode=require");
    }

    @Test
    void describeNamesTheServerWithoutCredentials() {
        DatabaseConfig config = new DatabaseConfig("jdbc:postgresql://127.0.0.1:5432/tracegraph", "postgres", "pw");
        assertThat(config.describe()).isEqualTo("127.0.0.1:5432/tracegraph as postgres");
    }

    @Test
    void redactsThePasswordFromMessages() {
        DatabaseConfig config = new DatabaseConfig("jdbc:postgresql://h/db", "u", "hunter22");
        assertThat(config.redactFrom("failed with hunter22 and password=x&y=1")).isEqualTo(
                "failed with **** and password=****&y=1");
    }

    @Test
    void rejectsOtherUrls() {
        assertThatThrownBy(() -> new DatabaseConfig("jdbc:mysql://h/db?password=pw", "u", "p"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageNotContaining("pw");
    }
}
