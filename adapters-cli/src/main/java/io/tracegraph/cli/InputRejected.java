package io.tracegraph.cli;

import io.tracegraph.application.Outcome;

/**
 * A use case's rejection of the user's input (a reference that names no run, a rejected trace...),
 * on its way to {@link Main#failure}, which shows it as one line and exits 1.
 */
final class InputRejected extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private InputRejected(String message) {
        super(message, null, false, false);
    }

    /** The outcome's value; its rejection thrown. */
    static <T> T valueOf(Outcome<T> outcome) {
        if (outcome instanceof Outcome.Rejected<T> rejected) {
            throw new InputRejected(rejected.message());
        }
        return ((Outcome.Done<T>) outcome).value();
    }
}
