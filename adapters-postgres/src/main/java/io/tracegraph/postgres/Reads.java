package io.tracegraph.postgres;

import io.tracegraph.domain.run.RunRef;
import java.sql.SQLException;
import java.util.concurrent.ThreadFactory;
import org.jdbi.v3.core.JdbiException;

/**
 * How the read side runs its statements: library exceptions wrapped in {@link DatabaseException},
 * reader threads that never keep the JVM alive (their futures are joined with
 * {@link io.tracegraph.domain.task.Tasks#join}).
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
