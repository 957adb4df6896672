package io.tracegraph.postgres;

import io.tracegraph.domain.run.RunRef;
import java.sql.SQLException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ThreadFactory;
import org.jdbi.v3.core.JdbiException;

/**
 * How the read side runs its statements: library exceptions wrapped in {@link DatabaseException},
 * futures joined with their failure as thrown, reader threads that never keep the JVM alive.
 */
final class Reads {
    private Reads() {
    }

    /** The threads that read parts of the store on connections of their own. */
    static final ThreadFactory DAEMON = task -> {
        Thread thread = new Thread(task, "tracegraph-reader");
        thread.setDaemon(true);
        return thread;
    };

    /** The future's value; a failure as it was thrown (not wrapped in a CompletionException). */
    static <T> T join(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
    }

    static DatabaseException gone(RunRef run) {
        return new DatabaseException("run `" + run.runId() + "` is no longer stored");
    }

    interface Work<T> {
        T run() throws SQLException;
    }

    static <T> T call(Work<T> work) {
        try {
            return work.run();
        } catch (SQLException | JdbiException e) {
            throw DatabaseException.wrap(e);
        }
    }
}
