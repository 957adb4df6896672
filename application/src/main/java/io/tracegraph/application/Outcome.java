package io.tracegraph.application;

import java.util.Objects;

/**
 * What a use case that may refuse its input answers: its value, or a one-line rejection naming
 * what in the input was at fault (a reference that names no run, a malformed trace...). The
 * command line shows a rejection as an error and exits 1.
 */
public sealed interface Outcome<T> {
    /** The value asked for. */
    record Done<T>(T value) implements Outcome<T> {
        public Done {
            Objects.requireNonNull(value, "value");
        }
    }

    /** The input was at fault, as {@code message} says (one line, without "error: "). */
    record Rejected<T>(String message) implements Outcome<T> {
        public Rejected {
            Objects.requireNonNull(message, "message");
        }
    }

    static <T> Outcome<T> done(T value) {
        return new Done<>(value);
    }

    static <T> Outcome<T> rejected(String message) {
        return new Rejected<>(message);
    }
}
