package io.tracegraph.domain.trace;

import java.util.Objects;

/**
 * Why a trace could not be read: where (source name and 1-based physical line, 0 when the problem
 * has no line of its own), which member when one is at fault, and what is wrong.
 */
public record TraceProblem(String source, long line, String member, String message) {
    public TraceProblem {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(message, "message");
        if (line < 0) {
            throw new IllegalArgumentException("line must be >= 0");
        }
    }

    /** {@code FILE:LINE: message}, or {@code FILE: message} when there is no line. */
    public String render() {
        return line > 0 ? source + ":" + line + ": " + message : source + ": " + message;
    }

    /** The same problem in a source nested inside another (an archive entry, say). */
    public TraceProblem within(String outer) {
        return new TraceProblem(outer + "!" + source, line, member, message);
    }
}
