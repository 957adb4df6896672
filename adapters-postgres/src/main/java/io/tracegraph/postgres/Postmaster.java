package io.tracegraph.postgres;

import io.zonky.test.db.postgres.embedded.DefaultPostgresBinaryResolver;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import io.zonky.test.db.postgres.util.LinuxUtils;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The PostgreSQL server process of one tracegraph home, driven with {@code pg_ctl}: its binaries
 * (unpacked once by zonky into {@code home/pgbin}), its data directory {@code home/pgdata} and its
 * log {@code home/postgres.log}. Callers hold the home's control lock; this class does not lock.
 *
 * <p>zonky is used only to unpack the binaries and to run {@code initdb}; its
 * {@link EmbeddedPostgres} is closed right after, so no zonky lock, shutdown hook or clean-up ever
 * touches a running server. The server is then started with {@code pg_ctl}, detached from the JVM
 * (it survives the process that started it) and stopped with {@code pg_ctl} by whichever process
 * is last.
 */
final class Postmaster {
    static final String DATABASE = "tracegraph";
    static final String SUPERUSER = "postgres";

    private static final Logger LOG = LoggerFactory.getLogger(Postmaster.class);
    private static final String INITIALIZED = "tracegraph.initialized";
    private static final Duration START_WAIT = Duration.ofSeconds(60);
    private static final long LOG_ROTATE_BYTES = 10L << 20;
    /** "2026-01-01 10:00:00.000 UTC [1234] " before a log message. */
    private static final Pattern LOG_PREFIX = Pattern.compile("^\\d{4}-\\d\\d-\\d\\d [\\d:.]+ \\S+ \\[\\d+\\] ");

    /** What {@code postmaster.pid} says about the server. */
    enum Status {
        /** No pid file: the server is not running. */
        STOPPED,
        /** A pid file whose process is gone (postgres was killed): clean up before starting. */
        STALE,
        /** A live postmaster. */
        LIVE
    }

    /** A look at the data directory's {@code postmaster.pid}. */
    record Probe(Status status, long pid, int port) {
        boolean live() {
            return status == Status.LIVE;
        }
    }

    private final Path home;
    private final Path dataDir;
    private final Path binRoot;
    private final Path log;
    private volatile Path binaries;

    Postmaster(Path home) {
        this.home = home;
        this.dataDir = home.resolve("pgdata");
        this.binRoot = home.resolve("pgbin");
        this.log = home.resolve("postgres.log");
    }

    Path dataDir() {
        return dataDir;
    }

    Path log() {
        return log;
    }

    boolean initialized() {
        return Files.exists(dataDir.resolve(INITIALIZED));
    }

    Probe probe() {
        Path pidFile = dataDir.resolve("postmaster.pid");
        List<String> lines;
        try {
            lines = Files.readAllLines(pidFile, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return new Probe(Status.STOPPED, 0, 0);
        } catch (IOException e) {
            throw new DatabaseException("cannot read " + pidFile + ": " + HomeFiles.reason(e), e);
        }
        long pid;
        int port;
        try {
            pid = Math.abs(Long.parseLong(lines.get(0).trim()));
            port = lines.size() > 3 ? Integer.parseInt(lines.get(3).trim()) : 0;
        } catch (RuntimeException e) {
            // A half-written pid file: postgres died while starting.
            return new Probe(Status.STALE, 0, 0);
        }
        return new Probe(isPostgres(pid) ? Status.LIVE : Status.STALE, pid, port);
    }

    /** Whether {@code pid} is a live (not zombie) process that may be a postmaster. */
    private static boolean isPostgres(long pid) {
        Optional<ProcessHandle> process = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
        if (process.isEmpty() || zombie(pid)) {
            return false;
        }
        Optional<String> command = process.get().info().command();
        // When the command cannot be read, assume it may be ours: stopping goes through pg_ctl,
        // which checks the pid file against the data directory.
        return command.map(c -> Path.of(c).getFileName().toString().equals("postgres")).orElse(true);
    }

    private static boolean zombie(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            int end = stat.lastIndexOf(')');
            return end > 0 && end + 2 < stat.length() && stat.charAt(end + 2) == 'Z';
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** Whether the server on {@code port} lets us in with {@code password}. */
    boolean answers(int port, String password) {
        try (Connection c = dataSource(port, password, DATABASE, 5).getConnection();
             Statement s = c.createStatement()) {
            s.execute("SELECT 1");
            return true;
        } catch (SQLException e) {
            LOG.debug("embedded PostgreSQL on port {} does not answer: {}", port, e.getMessage());
            return false;
        }
    }

    /** Creates or updates the read-only role of {@code tracegraph sql}, logged in as the superuser. */
    void ensureReader(int port, String password, String readerPassword) {
        try (Connection c = dataSource(port, password, DATABASE, 10).getConnection()) {
            ReaderRole.ensure(c, readerPassword);
        } catch (SQLException e) {
            throw new DatabaseException("cannot set up the read-only role " + ReaderRole.NAME
                    + " of the embedded PostgreSQL: " + DatabaseException.databaseMessage(e), e);
        }
    }

    /**
     * After postgres was killed: end its orphaned children, which still hold its shared memory,
     * and remove the stale pid file.
     */
    void clearStale() {
        killOrphans();
        try {
            Files.deleteIfExists(dataDir.resolve("postmaster.pid"));
        } catch (IOException e) {
            throw new DatabaseException("cannot remove the stale " + dataDir.resolve("postmaster.pid") + ": "
                    + HomeFiles.reason(e), e);
        }
    }

    /** Stops the server: fast shutdown, then immediate, then SIGKILL. */
    void stop(Probe probe) {
        if (pgCtl(Duration.ofSeconds(40), "-D", dataDir.toString(), "-m", "fast", "-t", "30", "-w", "-s",
                "stop").ok() || !probe().live()) {
            waitForExit(probe.pid());
            LOG.info("embedded PostgreSQL stopped (pid {})", probe.pid());
            return;
        }
        LOG.warn("embedded PostgreSQL (pid {}) did not stop in 30 s; stopping it immediately", probe.pid());
        if (!pgCtl(Duration.ofSeconds(20), "-D", dataDir.toString(), "-m", "immediate", "-t", "10", "-w", "-s",
                "stop").ok()) {
            ProcessHandle.of(probe.pid()).ifPresent(ProcessHandle::destroyForcibly);
            waitForExit(probe.pid());
        }
        clearStale();
    }

    private static void waitForExit(long pid) {
        Optional<ProcessHandle> process = ProcessHandle.of(pid);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (process.isPresent() && process.get().isAlive() && !zombie(pid) && System.nanoTime() < deadline) {
            sleep(20);
        }
    }

    /**
     * Makes sure the binaries are unpacked and the data directory initialised (with
     * {@code password} for the superuser and a {@code tracegraph} database), using zonky.
     *
     * @return the directory holding {@code bin/pg_ctl}
     */
    Path prepare(String password) {
        Path bin = binaries();
        boolean ready = Files.isExecutable(bin.resolve("bin/pg_ctl")) && Files.exists(bin.resolve(".exists"));
        if (ready && initialized()) {
            return bin;
        }
        if (!initialized() && Files.exists(dataDir) && !Files.exists(dataDir.resolve("global/pg_control"))) {
            // An initdb that did not get far (killed, or the disk was full): start again from an empty
            // directory. A complete cluster without our marker is finished in place instead.
            LOG.warn("{} was not completely initialised; initialising it again", dataDir);
            HomeFiles.deleteRecursively(dataDir);
        }
        bootstrap(password);
        if (!Files.isExecutable(bin.resolve("bin/pg_ctl"))) {
            throw new DatabaseException("embedded PostgreSQL binaries not found in " + bin + " after unpacking");
        }
        return bin;
    }

    /**
     * Starts the server detached from this JVM on a free loopback port.
     *
     * @return the live server
     */
    Probe start(String password) {
        Path bin = prepare(password);
        rotateLog();
        DatabaseException last = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            int port = freePort();
            long logStart = HomeFiles.size(log);
            Result result = pgCtl(START_WAIT.plusSeconds(10), bin, SERVER_ENVIRONMENT, "-D", dataDir.toString(), "-l",
                    log.toString(), "-w", "-t", Long.toString(START_WAIT.toSeconds()), "-s",
                    "-o", String.join(" ", serverOptions(port)), "start");
            Probe probe = probe();
            if (result.ok() && probe.live()) {
                LOG.info("embedded PostgreSQL started on 127.0.0.1:{} (pid {}, data {})", probe.port(), probe.pid(),
                        dataDir);
                return probe;
            }
            String why = failure(logStart, result);
            last = new DatabaseException("embedded PostgreSQL did not start: " + why + " (data directory " + dataDir
                    + ", log " + log + ")");
            if (probe.status() == Status.STALE) {
                clearStale();
            }
            if (!why.contains("Address already in use")) {
                break;
            }
        }
        throw last;
    }

    /**
     * glibc malloc settings of the server's processes (pg_ctl passes its environment on to postgres;
     * a value the user's environment sets wins). By default glibc hands a freed block of more than
     * its dynamic mmap threshold back to the kernel, and trims the heap's top above twice that, so a
     * backend that reads one pack after another (a run's 4.2 MB texts array decompressed, sliced and
     * unnested per remote query) faults the same memory in again for every run: 38,000 minor faults
     * on a shard for the slowest-paths recipe's 8 runs, 6,900 with these (docs/scaling.md, "Round 9").
     * A backend keeps at most the trim threshold of freed heap.
     */
    static final Map<String, String> SERVER_ENVIRONMENT = Map.of(
            "MALLOC_MMAP_THRESHOLD_", Integer.toString(32 << 20),
            "MALLOC_TRIM_THRESHOLD_", Integer.toString(64 << 20));

    private static List<String> serverOptions(int port) {
        return List.of("-p", Integer.toString(port),
                "-c", "listen_addresses=127.0.0.1",
                // No Unix socket: the only way in is TCP on loopback, with the password.
                "-c", "unix_socket_directories=",
                // This server keeps the user's data: no zonky test defaults here.
                "-c", "fsync=on",
                "-c", "synchronous_commit=on",
                "-c", "full_page_writes=on",
                // After a crash, sync the data directory with one syncfs() rather than a walk of fsyncs.
                "-c", "recovery_init_sync_method=syncfs",
                "-c", "password_encryption=scram-sha-256",
                "-c", "timezone=UTC",
                "-c", "max_connections=100",
                // Bulk imports write gigabytes of WAL per big run: no checkpoints in the middle of one,
                // no WAL kept for replicas nobody runs (durability is unchanged).
                "-c", "wal_level=minimal",
                "-c", "max_wal_senders=0",
                "-c", "max_wal_size=8GB",
                "-c", "checkpoint_timeout=30min",
                "-c", "wal_buffers=64MB",
                "-c", "shared_buffers=256MB");
    }

    /**
     * The last line of serious trouble postgres logged after {@code since}: a PANIC (it restarted),
     * a full disk or a read-only file system. A client whose server crashed under it only sees its
     * connection drop; this says why.
     */
    Optional<String> trouble(long since) {
        String written = HomeFiles.readFrom(log, since);
        return written.lines()
                .filter(l -> l.contains("PANIC:") || l.contains("No space left on device")
                        || l.contains("Read-only file system"))
                .map(l -> LOG_PREFIX.matcher(l).replaceFirst("").strip())
                .reduce((first, second) -> second);
    }

    /** The newest error lines postgres wrote since {@code logStart}, else pg_ctl's own output. */
    private String failure(long logStart, Result result) {
        String written = HomeFiles.readFrom(log, logStart);
        List<String> errors = written.lines()
                .filter(l -> l.contains("FATAL") || l.contains("PANIC") || l.contains("ERROR")
                        || l.contains("could not") || l.contains("No space left"))
                .collect(Collectors.toList());
        List<String> lines = errors.isEmpty() ? written.lines().collect(Collectors.toList()) : errors;
        String tail = lines.stream().skip(Math.max(0, lines.size() - 3))
                .map(l -> LOG_PREFIX.matcher(l).replaceFirst("").strip())
                .collect(Collectors.joining(" / "));
        if (tail.isBlank()) {
            tail = result.output().strip().replace('\n', ' ');
        }
        return tail.isBlank() ? "pg_ctl exited with status " + result.status() : tail;
    }

    private void rotateLog() {
        try {
            if (Files.exists(log) && Files.size(log) > LOG_ROTATE_BYTES) {
                Files.move(log, home.resolve("postgres.log.1"), StandardCopyOption.REPLACE_EXISTING);
            }
            if (!Files.exists(log)) {
                HomeFiles.createOwnerOnly(log);
            }
        } catch (IOException e) {
            throw new DatabaseException("cannot write " + log + ": " + HomeFiles.reason(e), e);
        }
    }

    /** zonky's part: unpack binaries, initdb, one start to create our database, stop. */
    private void bootstrap(String password) {
        Path workingDir = zonkyParentDirectory();
        if (dataDir.toAbsolutePath().startsWith(workingDir)) {
            throw new DatabaseException("the tracegraph home " + home + " must not lie inside zonky's working directory "
                    + workingDir + " (zonky deletes old data directories there)");
        }
        Path passwordFile = home.resolve("initdb.pw");
        long logStart;
        try {
            Files.createDirectories(binRoot);
            HomeFiles.createOwnerOnlyDirectory(dataDir);
            rotateLog();
            logStart = Files.size(log);
            Files.deleteIfExists(passwordFile);
            HomeFiles.createOwnerOnly(passwordFile);
            Files.writeString(passwordFile, password + "\n");
        } catch (IOException e) {
            throw new DatabaseException("cannot write the tracegraph home " + home + ": " + HomeFiles.reason(e), e);
        }
        LOG.info("initialising embedded PostgreSQL in {} (binaries in {})", dataDir, binRoot);
        File logFile = log.toFile();
        EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                .setOverrideWorkingDirectory(binRoot.toFile())
                // zonky remembers, per resolver and JVM, where it last unpacked the binaries and reuses
                // that directory whatever the working directory: a resolver of this home's own makes it
                // unpack here (a JVM that used another home or zonky directly first would not).
                .setPgBinaryResolver(DefaultPostgresBinaryResolver.INSTANCE::getPgBinary)
                .setDataDirectory(dataDir.toFile())
                .setCleanDataDirectory(false)
                // zonky's hook would stop the server when this JVM exits, under other processes' feet.
                .setRegisterShutdownHook(false)
                .setPort(freePort())
                .setPGStartupWait(START_WAIT)
                .setOutputRedirector(ProcessBuilder.Redirect.appendTo(logFile))
                .setErrorRedirector(ProcessBuilder.Redirect.appendTo(logFile))
                // Passed to initdb as --NAME=VALUE: the superuser's password, and a locale that does not
                // depend on the machine's.
                .setLocaleConfig("pwfile", passwordFile.toString())
                .setLocaleConfig("locale", "C")
                .setLocaleConfig("locale-provider", "builtin")
                .setLocaleConfig("builtin-locale", "C.UTF-8")
                .setConnectConfig("password", password)
                .setConnectConfig("connectTimeout", "10")
                .setDataDirectoryCustomizer(dir -> writeHba(dir.toPath()));
        List<String> options = serverOptions(0);
        for (int i = 2; i < options.size(); i += 2) {
            String[] setting = options.get(i + 1).split("=", 2);
            builder.setServerConfig(setting[0], setting[1]);
        }
        try (EmbeddedPostgres postgres = builder.start()) {
            createDatabase(postgres.getPostgresDatabase());
            HomeFiles.createOwnerOnly(dataDir.resolve(INITIALIZED));
        } catch (IOException | RuntimeException | ExceptionInInitializerError e) {
            String why = failure(logStart, new Result(-1, ""));
            throw new DatabaseException("cannot initialise embedded PostgreSQL in " + dataDir + ": "
                    + (why.startsWith("pg_ctl exited") ? HomeFiles.reason(e) : why) + " (log " + log + ")"
                    + (initialized() ? "" : "; if that directory holds nothing of value, remove it and retry"), e);
        } finally {
            try {
                Files.deleteIfExists(passwordFile);
                // Without its lock file, zonky's clean-up of old data directories never matches ours.
                Files.deleteIfExists(dataDir.resolve("epg-lock"));
                // zonky opens its working directory to everyone; ours stays private.
                HomeFiles.makeOwnerOnlyDirectory(binRoot);
            } catch (IOException e) {
                LOG.warn("cannot tidy up after initdb in {}: {}", home, e.getMessage());
            }
        }
    }

    /** Only password logins over TCP from loopback; no Unix socket lines (there is no socket). */
    private static void writeHba(Path dir) {
        try {
            Files.writeString(dir.resolve("pg_hba.conf"),
                    "# Written by tracegraph: password logins from this machine's loopback address only.\n"
                            + "host all all 127.0.0.1/32 scram-sha-256\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void createDatabase(DataSource admin) {
        try (Connection c = admin.getConnection();
             PreparedStatement exists = c.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?");
             Statement create = c.createStatement()) {
            exists.setString(1, DATABASE);
            try (ResultSet rs = exists.executeQuery()) {
                if (!rs.next()) {
                    create.execute("CREATE DATABASE " + DATABASE);
                }
            }
        } catch (SQLException e) {
            throw new DatabaseException("cannot create the " + DATABASE + " database: " + e.getMessage(), e);
        }
    }

    /** Sets the superuser's password with the server stopped (single-user mode). */
    void resetPassword(String password) {
        Path bin = prepare(password);
        List<String> command = new ArrayList<>();
        if (LinuxUtils.isUnshareAvailable()) {
            command.addAll(List.of("unshare", "-U"));
        }
        // Single-user mode takes no bind parameters; the password is ours, base64url, without quotes.
        command.addAll(List.of(bin.resolve("bin/postgres").toString(), "--single", "-D", dataDir.toString(),
                "-c", "log_min_messages=fatal", "postgres"));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            process.getOutputStream().write(("ALTER ROLE " + SUPERUSER + " PASSWORD '" + password + "'\n")
                    .getBytes(StandardCharsets.UTF_8));
            process.getOutputStream().close();
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                process.destroyForcibly();
                throw new DatabaseException("cannot set a new password for the embedded PostgreSQL in " + dataDir);
            }
        } catch (IOException e) {
            throw new DatabaseException("cannot run postgres in single-user mode: " + HomeFiles.reason(e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DatabaseException("interrupted while setting the embedded PostgreSQL's password", e);
        }
    }

    /** Where zonky unpacks the binaries that are on the class path: {@code pgbin/PG-<md5 of the archive>}. */
    private Path binaries() {
        Path bin = binaries;
        if (bin == null) {
            bin = binariesOnClassPath();
            binaries = bin;
        }
        return bin;
    }

    private Path binariesOnClassPath() {
        String system = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("mac") ? "Darwin"
                : System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows") ? "Windows"
                : "Linux";
        String arch = System.getProperty("os.arch");
        String machine = "amd64".equals(arch) ? "x86_64" : arch;
        try (InputStream archive = DefaultPostgresBinaryResolver.INSTANCE.getPgBinary(system, machine);
             DigestInputStream digest = new DigestInputStream(archive, MessageDigest.getInstance("MD5"))) {
            digest.transferTo(OutputStream.nullOutputStream());
            return binRoot.resolve("PG-" + HexFormat.of().formatHex(digest.getMessageDigest().digest()));
        } catch (IOException | NoSuchAlgorithmException | RuntimeException e) {
            throw new DatabaseException("cannot read the embedded PostgreSQL binaries from the class path: "
                    + e.getMessage(), e);
        }
    }

    private static Path zonkyParentDirectory() {
        String tmp = new File(System.getProperty("java.io.tmpdir"), "embedded-pg").getPath();
        return Path.of(System.getProperty("ot.epg.working-dir", tmp)).toAbsolutePath().normalize();
    }

    /** Kills processes left over from a killed postmaster: the ones whose working directory is ours. */
    private void killOrphans() {
        Path real;
        try {
            real = dataDir.toRealPath();
        } catch (IOException e) {
            return;
        }
        List<ProcessHandle> orphans;
        try (Stream<ProcessHandle> all = ProcessHandle.allProcesses()) {
            orphans = all.filter(p -> p.pid() != ProcessHandle.current().pid())
                    .filter(p -> real.equals(cwd(p.pid())))
                    .collect(Collectors.toList());
        }
        if (orphans.isEmpty()) {
            return;
        }
        LOG.warn("ending {} leftover PostgreSQL process(es) of {}", orphans.size(), dataDir);
        orphans.forEach(ProcessHandle::destroyForcibly);
        orphans.forEach(p -> waitForExit(p.pid()));
    }

    private static Path cwd(long pid) {
        try {
            return Files.readSymbolicLink(Path.of("/proc", Long.toString(pid), "cwd"));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new DatabaseException("no free TCP port on 127.0.0.1: " + e.getMessage(), e);
        }
    }

    static DataSource dataSource(int port, String password, String database, int connectTimeoutSeconds) {
        PGSimpleDataSource ds = new PGSimpleDataSource();
        ds.setServerNames(new String[] {"127.0.0.1"});
        ds.setPortNumbers(new int[] {port});
        ds.setDatabaseName(database);
        ds.setUser(SUPERUSER);
        ds.setPassword(password);
        ds.setConnectTimeout(connectTimeoutSeconds);
        ds.setApplicationName("tracegraph");
        return ds;
    }

    private record Result(int status, String output) {
        boolean ok() {
            return status == 0;
        }
    }

    private Result pgCtl(Duration timeout, String... args) {
        return pgCtl(timeout, binaries(), Map.of(), args);
    }

    private static Result pgCtl(Duration timeout, Path bin, Map<String, String> environment, String... args) {
        List<String> command = new ArrayList<>();
        if (LinuxUtils.isUnshareAvailable()) {
            // postgres refuses to run as root; zonky's way around it.
            command.addAll(List.of("unshare", "-U"));
        }
        command.add(bin.resolve("bin/pg_ctl").toString());
        command.addAll(Arrays.asList(args));
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            environment.forEach(builder.environment()::putIfAbsent);
            Process process = builder.start();
            ByteArrayOutputStream output = new ByteArrayOutputStream();
            Thread reader = new Thread(() -> {
                try (InputStream in = process.getInputStream()) {
                    in.transferTo(output);
                } catch (IOException e) {
                    // the process ended
                }
            }, "pg_ctl-output");
            reader.setDaemon(true);
            reader.start();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                return new Result(-1, "pg_ctl did not finish in " + timeout.toSeconds() + " s");
            }
            reader.join(2000);
            return new Result(process.exitValue(), output.toString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new DatabaseException("cannot run " + command.get(command.size() - args.length - 1) + ": "
                    + HomeFiles.reason(e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DatabaseException("interrupted while waiting for pg_ctl", e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
