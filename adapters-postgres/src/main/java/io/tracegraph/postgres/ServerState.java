package io.tracegraph.postgres;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;
import java.util.Properties;

/**
 * The home's state file ({@code db.state}, owner-only): the superuser's password, which lives as
 * long as the data directory, and while a server runs its port and pid and whether {@code db start}
 * pinned it. Never logged; {@link #toString()} hides the password.
 */
record ServerState(String password, int port, long pid, boolean pinned) {
    private static final SecureRandom RANDOM = new SecureRandom();

    static ServerState fresh() {
        byte[] secret = new byte[24];
        RANDOM.nextBytes(secret);
        return new ServerState(Base64.getUrlEncoder().withoutPadding().encodeToString(secret), 0, 0, false);
    }

    static Optional<ServerState> read(Path file) {
        String text;
        try {
            if (!HomeFiles.ownerOnly(file)) {
                HomeFiles.makeOwnerOnly(file);
            }
            text = Files.readString(file);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new DatabaseException("cannot read " + file + ": " + HomeFiles.reason(e), e);
        }
        Properties p = new Properties();
        try {
            p.load(new StringReader(text));
        } catch (IOException | IllegalArgumentException e) {
            return Optional.empty();
        }
        String password = p.getProperty("password", "");
        if (password.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new ServerState(password, parseInt(p.getProperty("port")),
                parseLong(p.getProperty("pid")), Boolean.parseBoolean(p.getProperty("pinned"))));
    }

    void write(Path file) {
        Properties p = new Properties();
        p.setProperty("password", password);
        if (running()) {
            p.setProperty("port", Integer.toString(port));
            p.setProperty("pid", Long.toString(pid));
            p.setProperty("pinned", Boolean.toString(pinned));
        }
        StringWriter text = new StringWriter();
        try {
            p.store(text, "tracegraph embedded PostgreSQL: keep this file private");
            HomeFiles.writeOwnerOnly(file, text.toString());
        } catch (IOException e) {
            throw new DatabaseException("cannot write " + file + ": " + HomeFiles.reason(e), e);
        } catch (UncheckedIOException e) {
            throw new DatabaseException("cannot write " + file + ": " + HomeFiles.reason(e.getCause()), e);
        }
    }

    boolean running() {
        return port > 0 && pid > 0;
    }

    boolean describes(Postmaster.Probe probe) {
        return running() && probe.live() && probe.pid() == pid && probe.port() == port;
    }

    ServerState runningAs(Postmaster.Probe probe, boolean pin) {
        return new ServerState(password, probe.port(), probe.pid(), pin);
    }

    ServerState pinned(boolean pin) {
        return new ServerState(password, port, pid, pin);
    }

    ServerState stopped() {
        return new ServerState(password, 0, 0, false);
    }

    DatabaseConfig config() {
        return new DatabaseConfig("jdbc:postgresql://127.0.0.1:" + port + "/" + Postmaster.DATABASE,
                Postmaster.SUPERUSER, password);
    }

    @Override
    public String toString() {
        return "ServerState[port=" + port + ", pid=" + pid + ", pinned=" + pinned + "]";
    }

    private static int parseInt(String s) {
        try {
            return s == null ? 0 : Integer.parseInt(s.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static long parseLong(String s) {
        try {
            return s == null ? 0 : Long.parseLong(s.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
