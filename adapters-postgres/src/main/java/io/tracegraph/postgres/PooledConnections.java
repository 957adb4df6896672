package io.tracegraph.postgres;

import java.io.PrintWriter;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * Keeps a few open connections for reuse. Opening one costs a server process and a password
 * exchange (scram-sha-256), several milliseconds; an import of 10,000 tiny traces asks for two
 * connections per trace.
 *
 * <p>A connection handed back is made as good as new before it is kept: its open transaction is
 * rolled back, auto-commit restored, and session settings reset ({@code RESET ALL}, which also
 * undoes {@code SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY}). A connection that fails
 * any of that, or whose server went away, is closed instead. Kept connections are checked before
 * reuse, so a server restarted in between costs nothing but a new connection.
 */
final class PooledConnections implements DataSource {
    private static final int VALIDATION_TIMEOUT_SECONDS = 2;

    private final DataSource source;
    private final int maxIdle;
    private final Deque<Connection> idle = new ArrayDeque<>();
    private boolean closed;

    PooledConnections(DataSource source, int maxIdle) {
        this.source = source;
        this.maxIdle = maxIdle;
    }

    @Override
    public Connection getConnection() throws SQLException {
        while (true) {
            Connection kept;
            synchronized (this) {
                kept = idle.pollFirst();
            }
            if (kept == null) {
                return lend(source.getConnection());
            }
            if (kept.isValid(VALIDATION_TIMEOUT_SECONDS)) {
                return lend(kept);
            }
            closeQuietly(kept);
        }
    }

    @Override
    public Connection getConnection(String user, String password) throws SQLException {
        throw new SQLFeatureNotSupportedException("the pool logs in with its own credentials");
    }

    /** Closes the kept connections; connections still lent out are closed when handed back. */
    void close() {
        Deque<Connection> toClose;
        synchronized (this) {
            closed = true;
            toClose = new ArrayDeque<>(idle);
            idle.clear();
        }
        toClose.forEach(PooledConnections::closeQuietly);
    }

    /** How many connections are kept for reuse now. */
    synchronized int idle() {
        return idle.size();
    }

    private Connection lend(Connection real) {
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                new Lent(real));
    }

    private void handBack(Connection real) {
        boolean keep;
        try {
            keep = !real.isClosed() && reset(real);
        } catch (SQLException | RuntimeException e) {
            keep = false;
        }
        synchronized (this) {
            if (keep && !closed && idle.size() < maxIdle) {
                idle.addFirst(real);
                return;
            }
        }
        closeQuietly(real);
    }

    /** Makes {@code real} as good as new; false when it cannot be. */
    private static boolean reset(Connection real) throws SQLException {
        if (!real.getAutoCommit()) {
            real.rollback();
            real.setAutoCommit(true);
        }
        if (real.isReadOnly()) {
            real.setReadOnly(false);
        }
        try (Statement s = real.createStatement()) {
            s.execute("RESET ALL");
        }
        real.clearWarnings();
        return true;
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (SQLException | RuntimeException e) {
            // a connection that cannot even close is gone anyway
        }
    }

    /** A lent connection: everything goes to the real one until {@code close()} hands it back. */
    private final class Lent implements InvocationHandler {
        private final Connection real;
        private boolean returned;

        Lent(Connection real) {
            this.real = real;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            switch (method.getName()) {
                case "close":
                    if (!returned) {
                        returned = true;
                        handBack(real);
                    }
                    return null;
                case "isClosed":
                    return returned || real.isClosed();
                case "equals":
                    return proxy == args[0];
                case "hashCode":
                    return System.identityHashCode(proxy);
                case "toString":
                    return "PooledConnection[" + real + (returned ? ", returned" : "") + "]";
                default:
                    if (returned) {
                        throw new SQLException("this connection was closed (handed back to the pool)", "08003");
                    }
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
            }
        }
    }

    // ---- the rest of DataSource --------------------------------------------------------------------

    @Override
    public PrintWriter getLogWriter() throws SQLException {
        return source.getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) throws SQLException {
        source.setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
        source.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
        return source.getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        return source.getParentLogger();
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        if (type.isInstance(this)) {
            return type.cast(this);
        }
        return source.unwrap(type);
    }

    @Override
    public boolean isWrapperFor(Class<?> type) throws SQLException {
        return type.isInstance(this) || source.isWrapperFor(type);
    }
}
