package io.tracegraph.files;

/** A count of bytes that may not pass a limit: one trace's bytes, or all that one input expands to. */
final class TraceFilesBudget {
    private final long limit;
    private final String message;
    private long used;

    TraceFilesBudget(long limit, String message) {
        this.limit = limit;
        this.message = message;
    }

    static TraceFilesBudget unlimited() {
        return new TraceFilesBudget(Long.MAX_VALUE, "");
    }

    /** Counts {@code bytes} more; throws once the total passes the limit, and on every call after. */
    void charge(long bytes) throws TraceFiles.TooLargeException {
        used = used > Long.MAX_VALUE - bytes ? Long.MAX_VALUE : used + bytes;
        if (used > limit) {
            throw new TraceFiles.TooLargeException(message, limit);
        }
    }

    boolean exhausted() {
        return used > limit;
    }

    String message() {
        return message;
    }
}
