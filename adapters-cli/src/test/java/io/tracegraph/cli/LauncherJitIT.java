package io.tracegraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which compiler the {@code tracegraph} launcher asks the JVM for: C1 alone for the commands that
 * answer from the store, tiered compilation for those that build graphs from trace files, and
 * whatever {@code TRACEGRAPH_JIT} says. A stand-in {@code java} (a script in a directory that looks
 * like a JDK 25) prints the options it is given instead of running anything.
 */
class LauncherJitIT {
    private static final Path LAUNCHER = Path.of("..", "tracegraph").toAbsolutePath().normalize();
    private static final String C1 = "-XX:TieredStopAtLevel=1";
    private static final String NO_TRAPS = "-XX:PerMethodTrapLimit=0";

    @TempDir
    Path dir;

    private Path java;
    private Path small;

    @BeforeEach
    void fakeJdk() throws IOException {
        Path home = Files.createDirectories(dir.resolve("jdk/bin"));
        Files.writeString(dir.resolve("jdk/release"), "JAVA_VERSION=\"25.0.3\"\n");
        java = home.resolve("java");
        Files.writeString(java, "#!/bin/sh\necho \"$@\"\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        small = Files.writeString(dir.resolve("small.jsonl"), "{}\n");
    }

    @Test
    void buildingFromTraceFilesKeepsTieredCompilation() throws Exception {
        assertThat(options(Map.of(), "build", small.toString())).doesNotContain(C1);
        assertThat(options(Map.of(), "build", "-o", dir.resolve("graph.json").toString(), small.toString()))
                .doesNotContain(C1);
        assertThat(options(Map.of(), "import", small.toString(), "--format", "json")).doesNotContain(C1);
        assertThat(options(Map.of(), "query", small.toString(), "--kind", "slowest")).doesNotContain(C1);
    }

    @Test
    void readingJsonlCompilesWithoutSpeculativeTraps() throws Exception {
        assertThat(options(Map.of(), "build", small.toString())).contains(NO_TRAPS).doesNotContain(C1);
        assertThat(options(Map.of(), "check", small.toString())).contains(NO_TRAPS);
        Path torch = Files.writeString(dir.resolve("trace.pt.trace.json"), "{}\n");
        assertThat(options(Map.of(), "build", torch.toString())).doesNotContain(NO_TRAPS);
        assertThat(options(Map.of(), "import", small.toString())).contains(NO_TRAPS);
        assertThat(options(Map.of(), "import", dir.toString())).as("a directory").doesNotContain(NO_TRAPS);
        assertThat(options(Map.of("TRACEGRAPH_JIT", "tiered"), "build", small.toString())).doesNotContain(NO_TRAPS);
        assertThat(options(Map.of("TRACEGRAPH_JIT", "c1"), "build", small.toString())).contains(C1).doesNotContain(NO_TRAPS);
    }

    @Test
    void answeringFromTheStoreRunsWithC1Alone() throws Exception {
        assertThat(options(Map.of(), "runs")).contains(C1);
        assertThat(options(Map.of(), "query", "some-run", "--kind", "slowest")).contains(C1);
    }

    @Test
    void tracegraphJitDecides() throws Exception {
        assertThat(options(Map.of("TRACEGRAPH_JIT", "c1"), "build", small.toString())).contains(C1);
        assertThat(options(Map.of("TRACEGRAPH_JIT", "c1"), "import", small.toString())).contains(C1);
        assertThat(options(Map.of("TRACEGRAPH_JIT", "tiered"), "runs")).doesNotContain(C1);
        assertThat(options(Map.of("TRACEGRAPH_JIT", "other"), "runs")).contains(C1);
    }

    /** The options the launcher gives the JVM, up to {@code -jar}. */
    private List<String> options(Map<String, String> env, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("bash", LAUNCHER.toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command)
                .redirectOutput(dir.resolve("out").toFile())
                .redirectError(dir.resolve("err").toFile());
        pb.environment().put("TRACEGRAPH_JAVA", java.toString());
        pb.environment().put("TRACEGRAPH_JAR", small.toString());
        pb.environment().put("TRACEGRAPH_HOME", dir.resolve("home").toString());
        pb.environment().put("XDG_CACHE_HOME", dir.resolve("cache").toString());
        pb.environment().remove("TRACEGRAPH_JIT");
        pb.environment().remove("JAVA_OPTS");
        pb.environment().putAll(env);
        Process process = pb.start();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("the launcher did not finish: " + command);
        }
        String err = Files.readString(dir.resolve("err"), StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as(err).isZero();
        String out = Files.readString(dir.resolve("out"), StandardCharsets.UTF_8).strip();
        List<String> words = List.of(out.split(" "));
        int jar = words.indexOf("-jar");
        assertThat(jar).as(out).isPositive();
        return words.subList(0, jar);
    }
}
