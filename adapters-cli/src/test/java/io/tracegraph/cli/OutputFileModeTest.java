package io.tracegraph.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Files written with {@code -o} get the mode the user's umask gives any new file, not a temporary file's 0600. */
class OutputFileModeTest {
    @TempDir
    Path dir;

    @Test
    void everyWrittenFileHasTheModeOfAPlainNewFile() throws IOException {
        assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"), "POSIX file modes");
        Path trace = syntheticTrace();
        Path reference = dir.resolve("reference");
        try (OutputStream out = Files.newOutputStream(reference)) {
            out.write('x');
        }
        Set<PosixFilePermission> umasked = Files.getPosixFilePermissions(reference);

        List<List<String>> writes = List.of(List.of("build", trace.toString(), "-o", "out/graph.json"),
                List.of("check", trace.toString(), "-o", "out/health.json"),
                List.of("query", trace.toString(), "--kind", "slowest", "-o", "out/slowest.json"),
                List.of("report", trace.toString(), "-o", "out/report.html"),
                List.of("export", trace.toString(), "-o", "out/trace.json"));
        for (List<String> write : writes) {
            String[] args = write.stream().map(a -> a.startsWith("out/") ? dir.resolve(a).toString() : a)
                    .toArray(String[]::new);
            CliRun run = CliRun.of(args);
            assertThat(run.status()).as(run.err()).isEqualTo(ExitCode.OK);
            Path written = Path.of(args[args.length - 1]);
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(written))).as(write.get(0))
                    .isEqualTo(PosixFilePermissions.toString(umasked));
        }
        // Replacing a file keeps the rule (the old file's mode does not carry over), and no partial file stays.
        Path graph = dir.resolve("out/graph.json");
        Files.setPosixFilePermissions(graph, PosixFilePermissions.fromString("rw-------"));
        assertThat(CliRun.of("build", trace.toString(), "-o", graph.toString()).status()).isEqualTo(ExitCode.OK);
        assertThat(Files.getPosixFilePermissions(graph)).isEqualTo(umasked);
        try (var files = Files.list(dir.resolve("out"))) {
            assertThat(files.map(p -> p.getFileName().toString())).noneMatch(name -> name.endsWith(".partial"));
        }
    }

    @Test
    void aDeviceIsWrittenInPlaceAndStaysADevice() throws IOException {
        Path devNull = Path.of("/dev/null");
        assumeTrue(Files.exists(devNull) && !Files.isRegularFile(devNull), "a /dev/null device");
        Path trace = syntheticTrace();
        CliRun run = CliRun.of("build", trace.toString(), "-o", devNull.toString());
        assertThat(run.status()).as(run.err()).isEqualTo(ExitCode.OK);
        // Before, the result was written beside it and renamed over it: /dev/null became a regular file.
        assertThat(Files.isRegularFile(devNull)).isFalse();
        assertThat(Files.exists(devNull)).isTrue();
    }

    @Test
    void aDirectoryIsRefusedAndLeftAsItIs() throws IOException {
        Path trace = syntheticTrace();
        Path target = Files.createDirectory(dir.resolve("graphs"));
        CliRun run = CliRun.of("build", trace.toString(), "-o", target.toString());
        assertThat(run.status()).isNotEqualTo(ExitCode.OK);
        assertThat(run.err()).contains(target.toString()).contains("is a directory");
        // An empty directory was replaced by the file before (a rename over it).
        assertThat(Files.isDirectory(target)).isTrue();
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).noneMatch(name -> name.endsWith(".partial"));
        }
    }

    /** The conformance suite's synthetic trace, copied into the test's directory. */
    private Path syntheticTrace() throws IOException {
        Path trace = dir.resolve("synthetic.jsonl");
        try (InputStream in = OutputFileModeTest.class.getResourceAsStream("/conformance/synthetic.jsonl")) {
            Files.copy(in, trace, StandardCopyOption.REPLACE_EXISTING);
        }
        return trace;
    }
}
