package io.tracegraph.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tracegraph.domain.run.ReadOnlySql;
import io.tracegraph.domain.run.SqlOutcome;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.nio.file.StandardCopyOption;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shared embedded server: leases across threads and processes, pinning, recovery, lock-down. */
class EmbeddedPostgresServerIT {
    /** Binaries shared by every test home, so they are unpacked once per build. */
    private static final Path SHARED_BINARIES = Path.of("target", "pgbin-shared").toAbsolutePath();

    /** A home initialised once (the first-start path: unpack, initdb, bootstrap) and copied for each test. */
    @TempDir
    static Path template;

    @TempDir
    Path temp;
    Path home;

    @BeforeAll
    static void initialiseTemplate() throws IOException {
        Files.createDirectories(SHARED_BINARIES);
        Files.createSymbolicLink(template.resolve("pgbin"), SHARED_BINARIES);
        EmbeddedPostgresServer.acquire(template).close();
        assertThat(template.resolve("pgdata/postmaster.pid")).doesNotExist();
    }

    @BeforeEach
    void createHome() throws IOException, InterruptedException {
        home = temp.resolve("home");
        Files.createDirectory(home, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Files.createSymbolicLink(home.resolve("pgbin"), SHARED_BINARIES);
        Files.copy(template.resolve("db.state"), home.resolve("db.state"), StandardCopyOption.COPY_ATTRIBUTES);
        Process copy = new ProcessBuilder("cp", "-a", template.resolve("pgdata").toString(), home.toString())
                .inheritIO().start();
        assertThat(copy.waitFor(60, TimeUnit.SECONDS) && copy.exitValue() == 0).as("copy of the template").isTrue();
    }

    @AfterEach
    void stopServer() throws IOException {
        if (Files.exists(home.resolve("pgdata"))) {
            EmbeddedPostgresServer.stop(home);
        }
        // Not left for @TempDir, which warns about links leading out of it.
        Files.deleteIfExists(home.resolve("pgbin"));
    }

    @AfterAll
    static void removeTemplateLink() throws IOException {
        Files.deleteIfExists(template.resolve("pgbin"));
    }

    @Test
    void threadsOfOneProcessShareOneServer() throws Exception {
        CyclicBarrier together = new CyclicBarrier(2);
        CompletableFuture<EmbeddedPostgresServer.Lease> first = CompletableFuture.supplyAsync(() -> acquireAfter(together));
        CompletableFuture<EmbeddedPostgresServer.Lease> second = CompletableFuture.supplyAsync(() -> acquireAfter(together));
        EmbeddedPostgresServer.Lease a = first.get(90, TimeUnit.SECONDS);
        EmbeddedPostgresServer.Lease b = second.get(90, TimeUnit.SECONDS);
        assertThat(a.config()).isEqualTo(b.config());
        long pid = postmasterPid();

        a.close();
        assertThat(answers(b.config())).isTrue();

        b.close();
        assertThat(EmbeddedPostgresServer.running(home)).isEmpty();
        assertThat(alive(pid)).isFalse();
        assertThat(answers(b.config())).isFalse();
    }

    @Test
    void processesShareOneServerAndTheLastToLeaveStopsIt() throws Exception {
        try (ServerProcess first = ServerProcess.start(home, "first");
             ServerProcess second = ServerProcess.start(home, "second")) {
            int port = first.awaitReady();
            assertThat(second.awaitReady()).isEqualTo(port);
            DatabaseConfig config = EmbeddedPostgresServer.running(home).orElseThrow();
            assertThat(config.jdbcUrl()).contains(":" + port + "/");

            first.closeLease();
            assertThat(answers(config)).as("still up for the second process").isTrue();

            second.closeLease();
            assertThat(answers(config)).isFalse();
            assertThat(EmbeddedPostgresServer.running(home)).isEmpty();
        }
    }

    @Test
    void aProcessLeavingDoesNotStopTheServerUnderThisOne() throws Exception {
        try (ServerProcess other = ServerProcess.start(home, "other")) {
            other.awaitReady();
            try (EmbeddedPostgresServer.Lease lease = EmbeddedPostgresServer.acquire(home)) {
                other.closeLease();
                assertThat(answers(lease.config())).isTrue();
            }
        }
        assertThat(EmbeddedPostgresServer.running(home)).isEmpty();
    }

    @Test
    void startPinsTheServerUntilStop() {
        DatabaseConfig config = EmbeddedPostgresServer.start(home);
        try (EmbeddedPostgresServer.Lease lease = EmbeddedPostgresServer.acquire(home)) {
            assertThat(lease.config()).isEqualTo(config);
        }
        assertThat(EmbeddedPostgresServer.running(home)).contains(config);
        assertThat(answers(config)).isTrue();

        assertThat(EmbeddedPostgresServer.stop(home)).isTrue();
        assertThat(EmbeddedPostgresServer.running(home)).isEmpty();
        assertThat(answers(config)).isFalse();
        assertThat(EmbeddedPostgresServer.stop(home)).isFalse();
    }

    @Test
    void theServersBackendsKeepFreedMemoryRatherThanFaultItInAgain() throws Exception {
        DatabaseConfig config = EmbeddedPostgresServer.start(home);
        assertThat(answers(config)).isTrue();
        // The postmaster's environment, which every backend it forks inherits (a backend's own
        // /proc/PID/environ is overwritten by its process title).
        List<String> environment = List.of(Files.readString(Path.of("/proc", Long.toString(postmasterPid()), "environ"))
                .split("\0"));
        assertThat(environment).contains("MALLOC_MMAP_THRESHOLD_=33554432", "MALLOC_TRIM_THRESHOLD_=67108864");
    }

    @Test
    void theNextAcquireJoinsTheServerOfAKilledProcess() throws Exception {
        int port;
        try (ServerProcess doomed = ServerProcess.start(home, "doomed")) {
            port = doomed.awaitReady();
            doomed.kill();
        }
        long pid = postmasterPid();
        assertThat(alive(pid)).isTrue();

        try (EmbeddedPostgresServer.Lease lease = EmbeddedPostgresServer.acquire(home)) {
            assertThat(lease.config().jdbcUrl()).contains(":" + port + "/");
            assertThat(postmasterPid()).isEqualTo(pid);
            assertThat(answers(lease.config())).isTrue();
        }
        assertThat(EmbeddedPostgresServer.running(home)).as("the killed process holds no lease").isEmpty();
    }

    @Test
    void theNextAcquireRecoversFromAKilledServerWithCommittedDataIntact() throws Exception {
        DatabaseConfig before = EmbeddedPostgresServer.start(home);
        execute(before, "CREATE TABLE kept (n int)", "INSERT INTO kept VALUES (42)");
        long pid = postmasterPid();
        ProcessHandle postmaster = ProcessHandle.of(pid).orElseThrow();
        postmaster.destroyForcibly();
        postmaster.onExit().get(20, TimeUnit.SECONDS);
        assertThat(home.resolve("pgdata/postmaster.pid")).exists();

        try (EmbeddedPostgresServer.Lease lease = EmbeddedPostgresServer.acquire(home)) {
            assertThat(postmasterPid()).isNotEqualTo(pid);
            assertThat(query(lease.config(), "SELECT n FROM kept")).isEqualTo("42");
        }
        assertThat(EmbeddedPostgresServer.running(home)).as("a recovered server is no longer pinned").isEmpty();
    }

    @Test
    void theServerListensOnLoopbackOnlyAndWantsThePassword() throws Exception {
        try (EmbeddedPostgresServer.Lease lease = EmbeddedPostgresServer.acquire(home)) {
            DatabaseConfig config = lease.config();
            Path state = home.resolve("db.state");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(state))).isEqualTo("rw-------");
            assertThat(Files.readString(state)).contains("password=" + config.password());

            assertThat(query(config, "SHOW listen_addresses")).isEqualTo("127.0.0.1");
            assertThat(query(config, "SHOW unix_socket_directories")).isEmpty();
            assertThat(query(config, "SHOW fsync")).isEqualTo("on");
            assertThat(query(config, "SHOW synchronous_commit")).isEqualTo("on");

            DatabaseConfig wrong = new DatabaseConfig(config.jdbcUrl(), config.user(), "not-the-password");
            assertThatThrownBy(() -> query(wrong, "SELECT 1"))
                    .isInstanceOf(SQLException.class)
                    .hasFieldOrPropertyWithValue("SQLState", "28P01");
            DatabaseConfig noPassword = new DatabaseConfig(config.jdbcUrl(), config.user(), "");
            assertThatThrownBy(() -> query(noPassword, "SELECT 1")).isInstanceOf(SQLException.class);

            int port = Integer.parseInt(config.jdbcUrl().replaceAll(".*:(\\d+)/.*", "$1"));
            for (InetAddress address : nonLoopbackAddresses()) {
                assertThat(connects(address, port)).as("reachable on " + address).isFalse();
            }

            String password = config.password();
            assertThat(config.toString()).doesNotContain(password);
            assertThat(lease.toString()).doesNotContain(password);
            assertThat(Files.readString(home.resolve("postgres.log"))).doesNotContain(password);
            assertThat(Files.readString(home.resolve("pgdata/pg_hba.conf")))
                    .contains("host all all 127.0.0.1/32 scram-sha-256").doesNotContain("trust");
        }
    }

    @Test
    void sqlRunsAsARoleThatMayReadTheStoreAndNothingElse() throws Exception {
        try (EmbeddedPostgresServer.Lease lease = EmbeddedPostgresServer.acquire(home);
             Database store = Database.open(lease.config());
             Database reader = Database.connect(lease.readerConfig())) {
            DatabaseConfig login = lease.readerConfig();
            assertThat(login.user()).isEqualTo("tracegraph_reader");
            assertThat(login.password()).isNotEqualTo(lease.config().password()).hasSizeGreaterThan(20);
            assertThat(Files.readString(home.resolve("db.state"))).contains("reader_password=" + login.password());
            JdbiAdHocSql queries = new JdbiAdHocSql(reader.jdbi());
            assertThat(value(queries, "SELECT current_user || '/' || session_user")).isEqualTo(
                    "tracegraph_reader/tracegraph_reader");
            assertThat(value(queries, "SELECT rolsuper FROM pg_roles WHERE rolname = current_user")).isEqualTo(false);
            // Tables and views the migrations created after the role: readable (default privileges).
            assertThat(value(queries, "SELECT count(*) FROM runs")).isEqualTo(0L);
            assertThat(value(queries, "SELECT count(*) FROM run_overview")).isEqualTo(0L);
            assertThat(value(queries, "SELECT count(*) FROM compare_runs(1, 2)")).isEqualTo(0L);
            // Others' queries stay hidden.
            assertThat(value(queries, "SELECT coalesce(string_agg(DISTINCT query, ','), '') FROM pg_stat_activity "
                    + "WHERE usename = 'postgres'")).isIn("", "<insufficient privilege>");

            String passwd = "pg_read_file(''/etc/passwd'')";
            Map<String, String> refused = new LinkedHashMap<>();
            refused.put("SELECT pg_read_file('/etc/passwd')", "permission denied for function pg_read_file");
            refused.put("SELECT count(*) FROM pg_ls_dir('/')", "permission denied for function pg_ls_dir");
            refused.put("SELECT lo_import('/etc/passwd')", "permission denied for function lo_import");
            refused.put("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'postgres'",
                    "permission denied to terminate process");
            refused.put("SELECT pg_reload_conf()", "permission denied for function pg_reload_conf");
            refused.put("SELECT * FROM pg_authid", "permission denied for table pg_authid");
            refused.put("SELECT set_config('role', 'postgres', false)", "permission denied to set role");
            refused.put("SELECT set_config('session_authorization', 'postgres', false)",
                    "permission denied to set session authorization");
            refused.put("SELECT set_config('role', 'postgres', true), query_to_xml('SELECT " + passwd + "', true, "
                    + "true, '')", "permission denied to set role");
            refused.put("SELECT query_to_xml('SELECT set_config(''session_authorization'', ''postgres'', true), "
                    + passwd + "', true, true, '')", "permission denied for function pg_read_file");
            refused.put("SELECT query_to_xml('SET ROLE postgres; SELECT " + passwd + "', true, true, '')",
                    "is not allowed in a non-volatile function");
            refused.put("SELECT query_to_xml('RESET SESSION AUTHORIZATION; SELECT " + passwd + "', true, true, '')",
                    "is not allowed in a non-volatile function");
            refused.put("SELECT set_config('temp_file_limit', '-1', true)", "permission denied to set parameter");
            refused.put("SELECT set_config('statement_timeout', '0', true), pg_sleep(5)", "statement timeout");
            for (Map.Entry<String, String> attempt : refused.entrySet()) {
                assertThatThrownBy(() -> queries.sql(new ReadOnlySql(attempt.getKey(), Duration.ofSeconds(1), 10)))
                        .as(attempt.getKey())
                        .isInstanceOf(DatabaseException.class)
                        .hasMessageContaining(attempt.getValue())
                        .hasMessageNotContaining("\n");
            }
            long superuserSessions = store.jdbi().withHandle(h -> h.createQuery("SELECT count(*) FROM pg_stat_activity "
                    + "WHERE usename = 'postgres'").mapTo(Long.class).one());
            assertThat(superuserSessions).as("superuser sessions alive").isPositive();
            assertThat(Files.readString(home.resolve("postgres.log"))).doesNotContain(login.password());
        }
    }

    @Test
    void aServerStartedBeforeTheReadOnlyRoleGetsItWhenJoined() throws Exception {
        DatabaseConfig pinned = EmbeddedPostgresServer.start(home);
        Path state = home.resolve("db.state");
        String before = Files.readString(state);
        Files.writeString(state, before.replaceAll("(?m)^reader_password=.*\\R", ""));
        assertThat(Files.readString(state)).doesNotContain("reader_password");

        try (EmbeddedPostgresServer.Lease lease = EmbeddedPostgresServer.acquire(home)) {
            assertThat(lease.config()).isEqualTo(pinned);
            assertThat(query(lease.readerConfig(), "SELECT current_user")).isEqualTo("tracegraph_reader");
            assertThat(Files.readString(state)).contains("reader_password=" + lease.readerConfig().password());
        }
    }

    private static Object value(JdbiAdHocSql queries, String sql) {
        SqlOutcome.Rows rows = (SqlOutcome.Rows) queries.sql(ReadOnlySql.of(sql));
        return rows.rows().get(0).get(0);
    }

    @Test
    void aReadOnlyDataDirectoryGivesAClearError() throws Exception {
        EmbeddedPostgresServer.acquire(home).close();
        Path data = home.resolve("pgdata");
        Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("r-x------"));
        try {
            assertThatThrownBy(() -> EmbeddedPostgresServer.acquire(home))
                    .isInstanceOf(DatabaseException.class)
                    .hasMessageContaining("embedded PostgreSQL did not start")
                    .hasMessageContaining("FATAL:  could not create lock file \"postmaster.pid\": Permission denied")
                    .hasMessageContaining(data.toString());
        } finally {
            Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwx------"));
        }
        EmbeddedPostgresServer.acquire(home).close();
    }

    /** zonky remembers where it unpacked last in this JVM; a home still gets its own binaries. */
    @Test
    void aHomeGetsItsOwnBinariesAfterZonkyUnpackedElsewhereInThisJvm() throws Exception {
        try (EmbeddedPostgres elsewhere = EmbeddedPostgres.builder()
                .setOverrideWorkingDirectory(temp.resolve("elsewhere").toFile()).start()) {
            assertThat(elsewhere.getPort()).isPositive();
        }
        Path fresh = temp.resolve("fresh-home");
        try (EmbeddedPostgresServer.Lease lease = EmbeddedPostgresServer.acquire(fresh)) {
            assertThat(query(lease.config(), "SELECT 1")).isEqualTo("1");
        }
        try (var unpacked = Files.list(fresh.resolve("pgbin"))) {
            assertThat(unpacked.map(p -> p.getFileName().toString())).anyMatch(name -> name.startsWith("PG-"));
        }
        EmbeddedPostgresServer.stop(fresh);
    }

    @Test
    void aNewHomeIsPrivate() throws IOException {
        Path fresh = temp.resolve("new/tracegraph");
        assertThat(EmbeddedPostgresServer.running(fresh)).isEmpty();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(fresh))).isEqualTo("rwx------");
    }

    @Test
    void aHomeThatCannotBeCreatedGivesAClearError() throws IOException {
        Path file = temp.resolve("not-a-directory");
        Files.writeString(file, "x");
        assertThatThrownBy(() -> EmbeddedPostgresServer.acquire(file.resolve("home")))
                .isInstanceOf(DatabaseException.class)
                .hasMessageStartingWith("cannot create the tracegraph home " + file.resolve("home"));
    }

    @Test
    void aLostStateFileGetsANewPasswordAndKeepsTheData() throws Exception {
        String oldPassword;
        try (EmbeddedPostgresServer.Lease lease = EmbeddedPostgresServer.acquire(home)) {
            execute(lease.config(), "CREATE TABLE kept (n int)", "INSERT INTO kept VALUES (7)");
            oldPassword = lease.config().password();
        }
        Files.delete(home.resolve("db.state"));
        try (EmbeddedPostgresServer.Lease lease = EmbeddedPostgresServer.acquire(home)) {
            assertThat(lease.config().password()).isNotEqualTo(oldPassword);
            assertThat(query(lease.config(), "SELECT n FROM kept")).isEqualTo("7");
        }
    }

    private EmbeddedPostgresServer.Lease acquireAfter(CyclicBarrier barrier) {
        try {
            barrier.await(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return EmbeddedPostgresServer.acquire(home);
    }

    private long postmasterPid() throws IOException {
        return Long.parseLong(Files.readAllLines(home.resolve("pgdata/postmaster.pid"), StandardCharsets.UTF_8)
                .get(0).trim());
    }

    /** Alive and not a zombie (this machine's init may be slow to reap the detached postmaster). */
    private static boolean alive(long pid) {
        if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            try {
                String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
                return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
            } catch (IOException e) {
                return false;
            }
        }
        return false;
    }

    private static boolean answers(DatabaseConfig config) {
        try {
            return "1".equals(query(config, "SELECT 1"));
        } catch (SQLException e) {
            return false;
        }
    }

    private static String query(DatabaseConfig config, String sql) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", config.user());
        properties.setProperty("password", config.password());
        properties.setProperty("connectTimeout", "5");
        try (Connection c = DriverManager.getConnection(config.jdbcUrl(), properties);
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static void execute(DatabaseConfig config, String... statements) throws SQLException {
        try (Connection c = DriverManager.getConnection(config.jdbcUrl(), config.user(), config.password());
             Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        }
    }

    private static List<InetAddress> nonLoopbackAddresses() throws IOException {
        return Collections.list(NetworkInterface.getNetworkInterfaces()).stream()
                .flatMap(NetworkInterface::inetAddresses)
                .filter(a -> a instanceof Inet4Address && !a.isLoopbackAddress())
                .collect(Collectors.toList());
    }

    private static boolean connects(InetAddress address, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(address, port), 2000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
