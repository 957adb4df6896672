package io.tracegraph.postgres;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded PostgreSQL 17 server of a tracegraph home, shared by every tracegraph process that
 * uses that home.
 *
 * <p>The home holds:
 * <ul>
 *   <li>{@code pgdata/} — the data directory (kept across invocations, {@code fsync=on});</li>
 *   <li>{@code pgbin/} — the PostgreSQL binaries, unpacked once by zonky;</li>
 *   <li>{@code db.state} — owner-only: the generated passwords, and while a server runs its port,
 *       pid and whether {@code db start} pinned it;</li>
 *   <li>{@code db.lock} — the control lock: whoever starts, joins, stops or leaves the server holds
 *       it exclusively for the duration, so those steps never interleave between processes;</li>
 *   <li>{@code db.clients} — every process holding a {@link Lease} keeps a shared lock on it; the
 *       last one to leave finds it can lock it exclusively and stops the server (unless pinned);</li>
 *   <li>{@code postgres.log} — the server's log.</li>
 * </ul>
 *
 * <p>The server listens on 127.0.0.1 only (no Unix socket) on a free port and lets in only the
 * superuser {@code postgres} and the read-only role {@code tracegraph_reader} ({@link ReaderRole}),
 * each with its generated password (scram-sha-256). It is detached from the
 * JVM that started it: a process that exits, or is killed, never takes it down while others use
 * it. A server left behind by a killed JVM is joined by the next process; a killed server (stale
 * {@code postmaster.pid}, orphaned children) is cleaned up and started afresh.
 */
public final class EmbeddedPostgresServer {
    static final String STATE_FILE = "db.state";
    private static final String CONTROL_LOCK = "db.lock";
    private static final String CLIENTS_LOCK = "db.clients";
    private static final Duration LOCK_WAIT = Duration.ofMinutes(3);
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedPostgresServer.class);
    private static final ConcurrentMap<Path, Local> LOCALS = new ConcurrentHashMap<>();

    private EmbeddedPostgresServer() {
    }

    /** {@code $TRACEGRAPH_HOME}, else {@code ${XDG_DATA_HOME:-~/.local/share}/tracegraph}. */
    public static Path defaultHome() {
        return defaultHome(System.getenv(), System.getProperty("user.home"));
    }

    static Path defaultHome(Map<String, String> env, String userHome) {
        String home = env.get("TRACEGRAPH_HOME");
        if (home != null && !home.isBlank()) {
            return Path.of(home);
        }
        String xdg = env.get("XDG_DATA_HOME");
        if (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()) {
            return Path.of(xdg, "tracegraph");
        }
        return Path.of(userHome, ".local", "share", "tracegraph");
    }

    /**
     * Starts the home's server, or joins the one already running, and holds it until the lease is
     * closed.
     *
     * @throws DatabaseException when the server cannot be started (with the reason postgres gave:
     *                           no space left, a read-only or damaged data directory, ...)
     */
    public static Lease acquire(Path home) {
        return acquire(home, true);
    }

    /**
     * As {@link #acquire(Path)}; for the embedded shard of a sharded store ({@code login} false), a
     * running server whose pid file and state file agree is joined without logging in to it first:
     * queries reach it through its coordinator (postgres_fdw), and a shard that then refuses the
     * login fails that command with a one-line error naming the shard. Saves a login (a connection, a
     * new backend and a SCRAM exchange) per shard and command.
     */
    static Lease acquire(Path home, boolean login) {
        return withControl(home, local -> {
            ServerState state = ensureRunning(local, false, login);
            local.holdClients();
            return new Lease(local, state.config(), state.readerConfig());
        });
    }

    /** Starts (or joins) the server and pins it: it keeps running after this process exits, until {@link #stop}. */
    public static DatabaseConfig start(Path home) {
        return withControl(home, local -> ensureRunning(local, true).config());
    }

    /**
     * Stops the home's server if it runs, pinned or not; sessions of other processes still using it
     * are ended (their open transactions roll back).
     *
     * @return whether a server was running
     */
    public static boolean stop(Path home) {
        return withControl(home, local -> {
            Postmaster postmaster = local.postmaster;
            Postmaster.Probe probe = postmaster.probe();
            Optional<ServerState> state = ServerState.read(local.stateFile());
            if (probe.live()) {
                postmaster.stop(probe);
            } else if (probe.status() == Postmaster.Status.STALE) {
                postmaster.clearStale();
            }
            state.filter(ServerState::running).ifPresent(s -> s.stopped().write(local.stateFile()));
            return probe.live();
        });
    }

    /** The running server's connection settings, if one runs and lets us in. */
    public static Optional<DatabaseConfig> running(Path home) {
        return withControl(home, local -> {
            Postmaster.Probe probe = local.postmaster.probe();
            return ServerState.read(local.stateFile())
                    .filter(state -> state.describes(probe))
                    .filter(state -> local.postmaster.answers(state.port(), state.password()))
                    .map(ServerState::config);
        });
    }

    /** Where the home's server log ends now (0 when there is none yet), for {@link #troubleSince}. */
    public static long logEnd(Path home) {
        return HomeFiles.size(home.resolve("postgres.log"));
    }

    /**
     * The last line of serious trouble (a PANIC, a full disk, a read-only file system) the home's
     * server logged after {@code logEnd}, to explain a dropped connection in one line.
     */
    public static Optional<String> troubleSince(Path home, long logEnd) {
        return new Postmaster(home).trouble(logEnd);
    }

    /** A hold on the running server; closing the last one in any process stops an unpinned server. */
    public static final class Lease implements AutoCloseable {
        private final Local local;
        private final DatabaseConfig config;
        private final DatabaseConfig readerConfig;
        private final AtomicBoolean closed = new AtomicBoolean();

        private Lease(Local local, DatabaseConfig config, DatabaseConfig readerConfig) {
            this.local = local;
            this.config = config;
            this.readerConfig = readerConfig;
        }

        /** The superuser's login: migrations, imports, the queries tracegraph writes itself. */
        public DatabaseConfig config() {
            return config;
        }

        /**
         * The read-only role's login, for SQL that tracegraph did not write ({@code tracegraph sql}):
         * no superuser rights, SELECT on the store and nothing else.
         */
        public DatabaseConfig readerConfig() {
            return readerConfig;
        }

        public Path home() {
            return local.home;
        }

        @Override
        public void close() {
            if (closed.compareAndSet(false, true)) {
                withControl(local.home, EmbeddedPostgresServer::release);
            }
        }

        @Override
        public String toString() {
            return "Lease[home=" + local.home + ", " + config + "]";
        }
    }

    /** Under the control lock: reuse a healthy server, recover from a killed one, or start one. */
    private static ServerState ensureRunning(Local local, boolean pin) {
        return ensureRunning(local, pin, true);
    }

    private static ServerState ensureRunning(Local local, boolean pin, boolean login) {
        Postmaster postmaster = local.postmaster;
        Path stateFile = local.stateFile();
        Optional<ServerState> known = ServerState.read(stateFile);
        Postmaster.Probe probe = postmaster.probe();
        if (probe.live()) {
            if (known.isPresent() && known.get().describes(probe)
                    && (!login || postmaster.answers(probe.port(), known.get().password()))) {
                ServerState state = known.get();
                if (!state.hasReader()) {
                    // A server started by a tracegraph from before the read-only role.
                    state = state.withNewReader();
                    postmaster.ensureReader(probe.port(), state.password(), state.readerPassword());
                    state.write(stateFile);
                }
                if (pin && !state.pinned()) {
                    state = state.pinned(true);
                    state.write(stateFile);
                }
                LOG.debug("joining embedded PostgreSQL on 127.0.0.1:{} (pid {})", probe.port(), probe.pid());
                return state;
            }
            LOG.warn("embedded PostgreSQL of {} (pid {}) does not match {} or does not answer; restarting it",
                    local.home, probe.pid(), stateFile);
            postmaster.stop(probe);
        } else if (probe.status() == Postmaster.Status.STALE) {
            LOG.warn("embedded PostgreSQL of {} was killed (stale postmaster.pid); recovering", local.home);
            postmaster.clearStale();
        }
        ServerState state = known.map(ServerState::stopped).orElseGet(ServerState::fresh);
        if (!state.hasReader()) {
            state = state.withNewReader();
        }
        // The password first: it must outlive a crash during initdb.
        state.write(stateFile);
        Postmaster.Probe started = postmaster.start(state.password());
        if (!postmaster.answers(started.port(), state.password())) {
            LOG.warn("embedded PostgreSQL of {} refuses the password in {}; setting it again", local.home, stateFile);
            postmaster.stop(started);
            postmaster.resetPassword(state.password());
            started = postmaster.start(state.password());
            if (!postmaster.answers(started.port(), state.password())) {
                postmaster.stop(started);
                throw new DatabaseException("embedded PostgreSQL started but refuses the password in " + stateFile
                        + "; see " + postmaster.log());
            }
        }
        // Every start sets the read-only role again: its password may be new, its grants missing.
        postmaster.ensureReader(started.port(), state.password(), state.readerPassword());
        state = state.runningAs(started, pin);
        state.write(stateFile);
        return state;
    }

    /** Under the control lock: one lease of this JVM ends. */
    private static Void release(Local local) {
        if (local.leases == 0) {
            return null;
        }
        local.leases--;
        if (local.leases > 0) {
            return null;
        }
        local.releaseClients();
        Optional<ServerState> state = ServerState.read(local.stateFile());
        Postmaster.Probe probe = local.postmaster.probe();
        if (state.isEmpty() || !state.get().describes(probe) || state.get().pinned()) {
            return null;
        }
        if (local.othersHoldClients()) {
            LOG.debug("leaving embedded PostgreSQL running for other processes");
            return null;
        }
        local.postmaster.stop(probe);
        state.get().stopped().write(local.stateFile());
        return null;
    }

    private static <T> T withControl(Path home, Function<Local, T> action) {
        return withControl(home, action, LOCK_WAIT);
    }

    private static <T> T withControl(Path home, Function<Local, T> action, Duration wait) {
        Local local = local(home);
        long deadline = System.nanoTime() + wait.toNanos();
        try {
            if (!local.guard.tryLock(wait.toMillis(), TimeUnit.MILLISECONDS)) {
                throw timeout(local, wait);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DatabaseException("interrupted while waiting for the lock on " + local.home, e);
        }
        try {
            Path lockFile = local.home.resolve(CONTROL_LOCK);
            HomeFiles.createOwnerOnly(lockFile);
            try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.WRITE);
                 FileLock lock = waitForLock(channel, deadline)) {
                if (lock == null) {
                    throw timeout(local, wait);
                }
                return action.apply(local);
            }
        } catch (IOException e) {
            throw new DatabaseException("cannot use the tracegraph home " + local.home + ": "
                    + HomeFiles.reason(e), e);
        } finally {
            local.guard.unlock();
        }
    }

    private static FileLock waitForLock(FileChannel channel, long deadline) throws IOException {
        while (true) {
            FileLock lock = channel.tryLock();
            if (lock != null || System.nanoTime() > deadline) {
                return lock;
            }
            try {
                Thread.sleep(25);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new DatabaseException("interrupted while waiting for the lock on " + channel, e);
            }
        }
    }

    private static DatabaseException timeout(Local local, Duration wait) {
        return new DatabaseException("timed out after " + wait.toSeconds() + " s waiting for another tracegraph"
                + " process to start or stop the embedded database (lock " + local.home.resolve(CONTROL_LOCK) + ")");
    }

    private static Local local(Path home) {
        Objects.requireNonNull(home, "home");
        Path real;
        try {
            HomeFiles.createOwnerOnlyDirectory(home);
            real = home.toRealPath();
        } catch (IOException e) {
            throw new DatabaseException("cannot create the tracegraph home " + home + ": " + HomeFiles.reason(e), e);
        }
        return LOCALS.computeIfAbsent(real, Local::new);
    }

    /** This JVM's view of one home: its leases and its shared lock on {@code db.clients}. */
    private static final class Local {
        final Path home;
        final Postmaster postmaster;
        /** Serialises this JVM's threads; Java file locks are per process. */
        final ReentrantLock guard = new ReentrantLock();
        int leases;
        private FileChannel clients;
        private FileLock shared;
        private boolean hookInstalled;

        Local(Path home) {
            this.home = home;
            this.postmaster = new Postmaster(home);
        }

        Path stateFile() {
            return home.resolve(STATE_FILE);
        }

        void holdClients() {
            try {
                if (shared == null) {
                    Path file = home.resolve(CLIENTS_LOCK);
                    HomeFiles.createOwnerOnly(file);
                    clients = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
                    // Nobody holds it exclusively outside the control lock, which we hold.
                    shared = clients.lock(0, 1, true);
                }
            } catch (IOException e) {
                throw new DatabaseException("cannot lock " + home.resolve(CLIENTS_LOCK) + ": "
                        + HomeFiles.reason(e), e);
            }
            leases++;
            if (!hookInstalled) {
                hookInstalled = true;
                Runtime.getRuntime().addShutdownHook(new Thread(this::releaseOnExit, "tracegraph-db-release"));
            }
        }

        void releaseClients() {
            try {
                if (shared != null) {
                    shared.release();
                }
                if (clients != null) {
                    clients.close();
                }
            } catch (IOException e) {
                LOG.debug("releasing {}: {}", home.resolve(CLIENTS_LOCK), e.getMessage());
            } finally {
                shared = null;
                clients = null;
            }
        }

        /** Whether another process holds a lease; call with none held by this JVM. */
        boolean othersHoldClients() {
            try (FileChannel channel = FileChannel.open(home.resolve(CLIENTS_LOCK), StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
                 FileLock exclusive = channel.tryLock(0, 1, false)) {
                return exclusive == null;
            } catch (IOException e) {
                throw new DatabaseException("cannot lock " + home.resolve(CLIENTS_LOCK) + ": "
                        + HomeFiles.reason(e), e);
            }
        }

        /** A process that exits with leases still open leaves like one that closed them. */
        private void releaseOnExit() {
            try {
                withControl(home, local -> {
                    if (local.leases > 0) {
                        local.leases = 1;
                        release(local);
                    }
                    return null;
                }, Duration.ofSeconds(10));
            } catch (RuntimeException e) {
                LOG.warn("could not release the embedded database of {} on exit: {}", home, e.getMessage());
            }
        }
    }
}
