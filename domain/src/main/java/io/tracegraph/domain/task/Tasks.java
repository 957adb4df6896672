package io.tracegraph.domain.task;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/** Work run beside other work on a second core, and its result taken back. */
public final class Tasks {
    private Tasks() {
    }

    /**
     * An executor that runs each task at once on a new daemon thread (it never keeps the JVM alive)
     * called {@code name}: for work that must not queue behind the common pool, whose only worker
     * on a machine with two cores may be the very thread waiting for it.
     */
    public static Executor ownThread(String name) {
        return task -> {
            Thread thread = new Thread(task, name);
            thread.setDaemon(true);
            thread.start();
        };
    }

    /**
     * The future's value; a failure as the task threw it (a runtime exception or an error, not
     * wrapped in a {@link CompletionException}), so that callers see the same exceptions as when the
     * work ran on their own thread.
     */
    public static <T> T join(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }
}
