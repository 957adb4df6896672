package io.tracegraph.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class MigrationsTest {

    @Test
    void findsTheNewestMigrationShippedOnTheClassPath() throws IOException {
        Path dir = Path.of("../db/src/main/resources/db/migration");
        int newest;
        try (Stream<Path> files = Files.list(dir)) {
            newest = files.map(f -> f.getFileName().toString()).filter(n -> n.matches("V\\d+__.+\\.sql"))
                    .mapToInt(n -> Integer.parseInt(n.substring(1, n.indexOf("__")))).max().orElseThrow();
        }

        assertThat(Migrations.newestVersion()).hasValue(newest);
    }

    @Test
    void readsVersionsFromVersionedFileNamesOnly() {
        assertThat(Migrations.versions(List.of("db/migration/V1__runs.sql", "db/migration/V12__later.sql",
                "db/migration/V3__x.sql", "db/migration/R__repeatable.sql", "db/migration/V4_no.sql",
                "db/migration/README.md"))).hasValue(12);
        assertThat(Migrations.versions(List.of("db/migration/"))).isEqualTo(OptionalInt.empty());
    }
}
