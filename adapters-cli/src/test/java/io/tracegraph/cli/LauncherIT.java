package io.tracegraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tracegraph.postgres.DatabaseConfig;
import io.tracegraph.postgres.PostgresExtension;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code tracegraph} launcher's class-data sharing archive: written by the first command that
 * queries or imports into the store, used by the next ones, replaced when the jar changes, never a word on standard
 * output (the JVM's own messages about it would go there), and off with {@code TRACEGRAPH_NO_CDS}
 * or JVM options.
 */
@ExtendWith(PostgresExtension.class)
class LauncherIT {
    private static final Path LAUNCHER = Path.of("..", "tracegraph").toAbsolutePath().normalize();

    private final StoreProbe store;

    @TempDir
    Path dir;

    LauncherIT(DatabaseConfig db) {
        this.store = new StoreProbe(db);
    }

    @Test
    @Timeout(120)
    void archivesTheClassesOnceAndUsesThemWithoutChangingTheOutput() throws Exception {
        Path jar = Files.copy(Path.of(System.getProperty("tracegraph.jar")), dir.resolve("tracegraph.jar"));
        Path cache = dir.resolve("cache");
        Path archives = cache.resolve("tracegraph");

        Result first = launch(jar, cache, Map.of(), "runs", "--limit", "3", "--format", "json");
        assertThat(first.status()).as(first.err()).isZero();
        assertThat(first.out()).startsWith("{");
        List<Path> written = jsa(archives);
        assertThat(written).hasSize(1);
        FileTime writtenAt = Files.getLastModifiedTime(written.get(0));

        Result second = launch(jar, cache, Map.of(), "runs", "--limit", "3", "--format", "json");
        assertThat(second.out()).isEqualTo(first.out());
        assertThat(second.err()).isEqualTo(first.err());
        assertThat(jsa(archives)).containsExactlyElementsOf(written);
        assertThat(Files.getLastModifiedTime(written.get(0))).isEqualTo(writtenAt);

        // A new build of the jar: a new archive replaces the old one.
        Files.setLastModifiedTime(jar, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() + 5_000));
        Result rebuilt = launch(jar, cache, Map.of(), "runs", "--limit", "3", "--format", "json");
        assertThat(rebuilt.out()).isEqualTo(first.out());
        List<Path> replaced = jsa(archives);
        assertThat(replaced).hasSize(1).doesNotContainAnyElementsOf(written);

        // JVM options (here a flight recording, which crashes Java 17 with a dynamic archive): none used.
        Result recorded = launch(jar, cache, Map.of("JAVA_OPTS", "-XX:StartFlightRecording:filename="
                + dir.resolve("flight.jfr") + " -Xlog:disable"), "runs", "--limit", "3", "--format", "json");
        assertThat(recorded.status()).as(recorded.err()).isZero();
        // JFR prints a line of its own first.
        assertThat(recorded.out()).endsWith(first.out());

        // An archive the JVM refuses (damaged) is silently done without.
        Files.write(replaced.get(0), new byte[] {1, 2, 3}, StandardOpenOption.TRUNCATE_EXISTING);
        Result damaged = launch(jar, cache, Map.of(), "runs", "--limit", "3", "--format", "json");
        assertThat(damaged.status()).isZero();
        assertThat(damaged.out()).isEqualTo(first.out());
        assertThat(damaged.err()).isEqualTo(first.err());

        // Commands that neither query nor import into the store do not write one, nor do help and
        // failed commands; an import does.
        Path other = dir.resolve("other-cache");
        assertThat(launch(jar, other, Map.of(), "--version").status()).isZero();
        assertThat(launch(jar, other, Map.of(), "build", "--help").status()).isZero();
        assertThat(launch(jar, other, Map.of(), "runs", "--help").status()).isZero();
        assertThat(launch(jar, other, Map.of(), "show", "no-such-run").status()).isEqualTo(1);
        assertThat(jsa(other.resolve("tracegraph"))).as("not by help, nor by a command that failed").isEmpty();
        Path empty = Files.createDirectories(dir.resolve("no-traces"));
        assertThat(launch(jar, other, Map.of(), "import", empty.toString(), "--format", "json").status()).isLessThan(3);
        assertThat(jsa(other.resolve("tracegraph"))).hasSize(1);

        // Turned off.
        Path off = dir.resolve("off-cache");
        Result without = launch(jar, off, Map.of("TRACEGRAPH_NO_CDS", "1"), "runs", "--limit", "3", "--format",
                "json");
        assertThat(without.out()).isEqualTo(first.out());
        assertThat(jsa(off.resolve("tracegraph"))).isEmpty();
    }

    private record Result(int status, String out, String err) {
    }

    private Result launch(Path jar, Path cache, Map<String, String> env, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("bash", LAUNCHER.toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command)
                .redirectOutput(dir.resolve("out").toFile())
                .redirectError(dir.resolve("err").toFile());
        pb.environment().putAll(store.env());
        pb.environment().put("TRACEGRAPH_JAR", jar.toString());
        pb.environment().put("TRACEGRAPH_HOME", dir.resolve("home").toString());
        pb.environment().put("XDG_CACHE_HOME", cache.toString());
        pb.environment().remove("TRACEGRAPH_NO_CDS");
        pb.environment().remove("JAVA_OPTS");
        pb.environment().remove("JAVA_TOOL_OPTIONS");
        pb.environment().remove("JDK_JAVA_OPTIONS");
        pb.environment().putAll(env);
        Process process = pb.start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("the launcher did not finish: " + command);
        }
        return new Result(process.exitValue(), Files.readString(dir.resolve("out"), StandardCharsets.UTF_8),
                Files.readString(dir.resolve("err"), StandardCharsets.UTF_8));
    }

    private static List<Path> jsa(Path archives) throws IOException {
        if (!Files.isDirectory(archives)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(archives)) {
            return files.sorted().toList();
        }
    }
}
