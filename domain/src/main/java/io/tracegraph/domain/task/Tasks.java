package io.tracegraph.domain.task;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/** Work run beside other work on a second core, and its result taken back. */
public final class Tasks {
    private Tasks() {
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
