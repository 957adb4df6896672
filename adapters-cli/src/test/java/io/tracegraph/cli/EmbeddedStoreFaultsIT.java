package io.tracegraph.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tracegraph.json.SyntheticTrace;
import io.tracegraph.postgres.Database;
import io.tracegraph.postgres.DatabaseConfig;
import io.tracegraph.postgres.EmbeddedPostgresServer;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded store under faults, through the command line: its server killed with SIGKILL in
 * the middle of an import, a read-only data directory, a full disk and a read-only file system.
 * Each failing command says why in one line and exits 3; nothing partial is stored; the next
 * command recovers. Also: {@code sql} there runs as the read-only role.
 *
 * <p>The full-disk and read-only-file-system tests mount a small tmpfs, which needs root (or
 * CAP_SYS_ADMIN): they run on this project's machines and in a privileged CI container, and are
 * skipped, saying so, where mounting is not allowed.
 */
class EmbeddedStoreFaultsIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Binaries unpacked once per build and shared by every home of these tests. */
    private static final Path SHARED_BINARIES = Path.of("target", "pgbin-shared").toAbsolutePath();

    /** A home initialised and migrated once, copied for each test. */
    @TempDir
    static Path template;

    @TempDir
    Path dir;

    private final List<Path> homes = new ArrayList<>();
    private Path mounted;

    @BeforeAll
    static void initialiseTemplate() throws IOException {
        Files.createDirectories(SHARED_BINARIES);
        Files.createSymbolicLink(template.resolve("pgbin"), SHARED_BINARIES);
        try (EmbeddedPostgresServer.Lease lease = EmbeddedPostgresServer.acquire(template)) {
            Database.open(lease.config()).close();
        }
    }

    @AfterAll
    static void removeTemplateLink() throws IOException {
        Files.deleteIfExists(template.resolve("pgbin"));
    }

    @AfterEach
    void stopServersAndUnmount() throws Exception {
        for (Path home : homes) {
            if (Files.exists(home.resolve("pgdata"))) {
                EmbeddedPostgresServer.stop(home);
            }
            Files.deleteIfExists(home.resolve("pgbin"));
        }
        if (mounted != null) {
            Process umount = new ProcessBuilder("umount", mounted.toString()).redirectErrorStream(true).start();
            if (!umount.waitFor(30, TimeUnit.SECONDS) || umount.exitValue() != 0) {
                run("umount", "-l", mounted.toString()); // still busy: detach it now, freed when unused
            }
        }
    }

    @Test
    @Timeout(300)
    void aServerKilledMidImportIsRecoveredByTheNextCommandWithoutAPartialRun() throws Exception {
        Path home = home(dir.resolve("home"));
        Path big = dir.resolve("big.jsonl");
        SyntheticTrace.training().ops(150_000).seed(11).runId("big").writeTo(big);
        assertThat(cli(home, "db", "start").status()).isEqualTo(ExitCode.OK);
        DatabaseConfig admin = EmbeddedPostgresServer.running(home).orElseThrow();

        Process importer = importer(home, big);
        waitForCopy(admin);
        ProcessHandle postmaster = ProcessHandle.of(postmasterPid(home)).orElseThrow();
        postmaster.destroyForcibly();
        postmaster.onExit().get(30, TimeUnit.SECONDS);
        assertThat(importer.waitFor(120, TimeUnit.SECONDS)).as("the importer ends").isTrue();

        String err = new String(importer.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(importer.exitValue()).as(err).isEqualTo(ExitCode.FAILURE);
        assertThat(err.lines().filter(l -> l.startsWith("error: "))).as(err).hasSize(1);
        assertThat(err).doesNotContain(admin.password(), "\tat ");

        CliRun runs = cli(home, "runs", "--format", "json");
        assertThat(runs.status()).as(runs.err()).isEqualTo(ExitCode.OK);
        assertThat(JSON.readTree(runs.out()).findValuesAsText("run_id")).as("no partial run").isEmpty();

        CliRun again = cli(home, "import", big.toString(), "--format", "json");
        assertThat(again.status()).as(again.err()).isEqualTo(ExitCode.OK);
        assertThat(JSON.readTree(again.out()).get("imported").asLong()).isEqualTo(1);
        CliRun whole = cli(home, "sql", "SELECT count(*) AS partial FROM runs r WHERE r.node_count <> "
                + "(SELECT count(*) FROM nodes n WHERE n.run_key = r.run_key)", "--format", "json");
        assertThat(whole.status()).as(whole.err()).isEqualTo(ExitCode.OK);
        assertThat(JSON.readTree(whole.out()).findValue("partial").asLong()).isZero();
    }

    @Test
    @Timeout(120)
    void sqlOnTheEmbeddedStoreRunsAsARoleThatCannotReadServerFiles() throws Exception {
        Path home = home(dir.resolve("home"));
        assertThat(cli(home, "db", "start").status()).isEqualTo(ExitCode.OK);
        String superuserPassword = EmbeddedPostgresServer.running(home).orElseThrow().password();

        CliRun who = cli(home, "sql", "SELECT current_user AS who", "--format", "json");
        assertThat(who.status()).as(who.err()).isEqualTo(ExitCode.OK);
        assertThat(JSON.readTree(who.out()).findValue("who").asText()).isEqualTo("tracegraph_reader");

        for (String attempt : List.of("SELECT pg_read_file('/etc/passwd')", "SELECT pg_ls_dir('/')",
                "SELECT set_config('role', 'postgres', true)", "SELECT 1/0")) {
            CliRun refused = cli(home, "sql", attempt);
            assertThat(refused.status()).as(attempt + ": " + refused.err()).isEqualTo(ExitCode.REJECTED);
            assertThat(refused.err().lines()).as(attempt).hasSize(1);
            assertThat(refused.err()).as(attempt).startsWith("error: ERROR: ").doesNotContain(superuserPassword);
            assertThat(refused.out()).isEmpty();
        }
    }

    @Test
    @Timeout(120)
    void aReadOnlyDataDirectoryGivesAClearOneLineErrorAndExitThree() throws Exception {
        Path home = home(dir.resolve("home"));
        Path data = home.resolve("pgdata");
        Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("r-x------"));
        CliRun refused;
        try {
            refused = cli(home, "runs");
        } finally {
            Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwx------"));
        }

        assertThat(refused.status()).as(refused.err()).isEqualTo(ExitCode.FAILURE);
        assertThat(refused.err().lines()).hasSize(1);
        assertThat(refused.err()).startsWith("error: embedded PostgreSQL did not start: ")
                .contains("could not create lock file", "Permission denied", data.toString());
        assertThat(cli(home, "runs").status()).as("once writable again").isEqualTo(ExitCode.OK);
    }

    @Test
    @Timeout(300)
    void aFullDiskGivesAClearErrorLeavesNoPartialRunAndTheNextImportCompletes() throws Exception {
        Path disk = mountTmpfs(dir.resolve("disk"), "256m");
        Path home = home(disk.resolve("home"));
        Path small = dir.resolve("small.jsonl");
        SyntheticTrace.training().ops(300).seed(12).runId("small").writeTo(small);
        Path big = dir.resolve("big.jsonl");
        // More than the 8 MB left must be stored (packed since V5: about 8 MB per 100,000 ops).
        SyntheticTrace.training().ops(150_000).seed(13).runId("big").writeTo(big);
        assertThat(cli(home, "db", "start").status()).isEqualTo(ExitCode.OK);
        assertThat(cli(home, "import", small.toString()).status()).isEqualTo(ExitCode.OK);
        Path filler = fill(disk, 8L << 20);

        CliRun full = cli(home, "import", big.toString(), "--format", "json");

        assertThat(full.status()).as(full.err()).isEqualTo(ExitCode.FAILURE);
        assertThat(full.err().lines()).as(full.err()).hasSize(1);
        assertThat(full.err()).startsWith("error: storing run `big` from " + big + " failed (nothing of it was stored)")
                .contains("No space left on device");
        Files.delete(filler);
        CliRun runs = cli(home, "runs", "--format", "json");
        assertThat(runs.status()).as(runs.err()).isEqualTo(ExitCode.OK);
        assertThat(JSON.readTree(runs.out()).findValuesAsText("run_id")).containsExactly("small");
        CliRun again = cli(home, "import", big.toString(), "--format", "json");
        assertThat(again.status()).as(again.err()).isEqualTo(ExitCode.OK);
        assertThat(JSON.readTree(again.out()).get("imported").asLong()).isEqualTo(1);
    }

    @Test
    @Timeout(120)
    void aReadOnlyFileSystemGivesAClearOneLineErrorAndExitThree() throws Exception {
        Path disk = mountTmpfs(dir.resolve("disk"), "128m");
        Path home = home(disk.resolve("home"));
        run("mount", "-o", "remount,ro", disk.toString());

        CliRun refused = cli(home, "runs");

        assertThat(refused.status()).as(refused.err()).isEqualTo(ExitCode.FAILURE);
        assertThat(refused.err().lines()).hasSize(1);
        assertThat(refused.err()).startsWith("error: ").contains("Read-only file system", home.toString());
        run("mount", "-o", "remount,rw", disk.toString());
        assertThat(cli(home, "runs").status()).as("once writable again").isEqualTo(ExitCode.OK);
    }

    // ---- homes, processes, mounts ------------------------------------------------------------------

    private static CliRun cli(Path home, String... args) {
        return CliRun.with(Map.of(), home, args);
    }

    /** A copy of the template home at {@code home}, sharing its binaries. */
    private Path home(Path home) throws IOException, InterruptedException {
        Files.createDirectories(home.getParent());
        Files.createDirectory(home, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Files.createSymbolicLink(home.resolve("pgbin"), SHARED_BINARIES);
        Files.copy(template.resolve("db.state"), home.resolve("db.state"), StandardCopyOption.COPY_ATTRIBUTES);
        run("cp", "-a", template.resolve("pgdata").toString(), home.toString());
        homes.add(home);
        return home;
    }

    private Process importer(Path home, Path trace) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", System.getProperty("tracegraph.jar"), "import", "--format", "json", trace.toString());
        pb.environment().remove("TRACEGRAPH_DB_URL");
        pb.environment().put("TRACEGRAPH_HOME", home.toString());
        return pb.redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    }

    /** Waits until an importer is copying rows into the server. */
    private static void waitForCopy(DatabaseConfig admin) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        try (Connection c = DriverManager.getConnection(admin.jdbcUrl(), admin.user(), admin.password());
             Statement s = c.createStatement()) {
            while (System.nanoTime() < deadline) {
                try (ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE application_name = "
                        + "'tracegraph' AND query LIKE 'COPY %' AND state = 'active'")) {
                    rs.next();
                    if (rs.getLong(1) > 0) {
                        return;
                    }
                }
                Thread.sleep(10);
            }
        } catch (SQLException e) {
            throw new AssertionError("cannot watch the server: " + e.getMessage(), e);
        }
        throw new AssertionError("the importer never started copying");
    }

    private static long postmasterPid(Path home) throws IOException {
        return Long.parseLong(Files.readAllLines(home.resolve("pgdata/postmaster.pid")).get(0).trim());
    }

    /** Mounts a tmpfs of {@code size} at {@code at}; skips the test where that is not allowed. */
    private Path mountTmpfs(Path at, String size) throws Exception {
        Files.createDirectories(at);
        Process mount = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=" + size + ",mode=0700", "tmpfs",
                at.toString()).redirectErrorStream(true).start();
        String output = new String(mount.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        boolean done = mount.waitFor(30, TimeUnit.SECONDS) && mount.exitValue() == 0;
        assumeTrue(done, "cannot mount a tmpfs here (needs root or CAP_SYS_ADMIN): " + output.strip());
        mounted = at;
        return at;
    }

    /** Fills the file system of {@code dir} up to {@code leave} bytes free; returns the filler file. */
    private static Path fill(Path dir, long leave) throws IOException {
        Path filler = dir.resolve("filler");
        long free = Files.getFileStore(dir).getUsableSpace();
        try (RandomAccessFile file = new RandomAccessFile(filler.toFile(), "rw")) {
            byte[] block = new byte[1 << 20];
            for (long written = 0; written < free - leave; written += block.length) {
                file.write(block, 0, (int) Math.min(block.length, free - leave - written));
            }
        }
        return filler;
    }

    private static void run(String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new AssertionError(String.join(" ", command) + " failed: " + output);
        }
    }
}
