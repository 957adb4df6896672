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
 * The home's state file ({@code db.state}, owner-only): the superuser's password and the read-only
 * role's ({@link ReaderRole}), which live as long as the data directory, and while a server runs
 * its port and pid and whether {@code db start} pinned it. Never logged; {@link #toString()} hides
 * the passwords. Passwords are generated: 24 random bytes, base64url.
 */
record ServerState(String password, String readerPassword, int port, long pid, boolean pinned) {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final java.util.regex.Pattern GENERATED = java.util.regex.Pattern.compile("[A-Za-z0-9_-]{16,}");

    static ServerState fresh() {
        return new ServerState(secret(), secret(), 0, 0, false);
    }

    private static String secret() {
        byte[] secret = new byte[24];
        RANDOM.nextBytes(secret);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
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
        if (!GENERATED.matcher(password).matches()) {
            // Missing, or not one we generated (it goes into SQL text in single-user mode): a new one.
            return Optional.empty();
        }
        String reader = p.getProperty("reader_password", "");
        return Optional.of(new ServerState(password, GENERATED.matcher(reader).matches() ? reader : "",
                parseInt(p.getProperty("port")), parseLong(p.getProperty("pid")),
                Boolean.parseBoolean(p.getProperty("pinned"))));
    }

    void write(Path file) {
        Properties p = new Properties();
        p.setProperty("password", password);
        if (!readerPassword.isEmpty()) {
            p.setProperty("reader_password", readerPassword);
        }
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
        return new ServerState(password, readerPassword, probe.port(), probe.pid(), pin);
    }

    ServerState pinned(boolean pin) {
        return new ServerState(password, readerPassword, port, pid, pin);
    }

    ServerState stopped() {
        return new ServerState(password, readerPassword, 0, 0, false);
    }

    /** Whether the read-only role has a password yet (a home from before that role has none). */
    boolean hasReader() {
        return !readerPassword.isEmpty();
    }

    /** With a new password for the read-only role. */
    ServerState withNewReader() {
        return new ServerState(password, secret(), port, pid, pinned);
    }

    DatabaseConfig config() {
        return new DatabaseConfig(url(), Postmaster.SUPERUSER, password);
    }

    /** The read-only role's login: what {@code tracegraph sql} runs as. */
    DatabaseConfig readerConfig() {
        return new DatabaseConfig(url(), ReaderRole.NAME, readerPassword);
    }

    private String url() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + Postmaster.DATABASE;
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
