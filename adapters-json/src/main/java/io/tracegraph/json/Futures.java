package io.tracegraph.json;

import java.io.IOException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/** Waits for the reader's and writer's worker tasks, handing their failures on unwrapped. */
final class Futures {
    private Futures() {
    }

    /**
     * The task's result; its own exception as it was thrown (an {@link IOException}, a runtime
     * exception or an error), else an {@link IOException} saying what was interrupted or cancelled.
     */
    static <T> T get(Future<T> future, String what) throws IOException {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while " + what, e);
        } catch (CancellationException e) {
            throw new IOException(what + " was cancelled", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new IOException(cause);
        }
    }
}
