package io.tracegraph.cli;

/** The exit statuses scripts can rely on. */
public final class ExitCode {
    /** The command did what was asked. */
    public static final int OK = 0;
    /** An input was rejected: a malformed or untrusted trace. */
    public static final int REJECTED = 1;
    /** The command line was wrong. */
    public static final int USAGE = 2;
    /** Infrastructure failed: a file could not be read or written, the database failed, a bug. */
    public static final int FAILURE = 3;

    private ExitCode() {
    }
}
