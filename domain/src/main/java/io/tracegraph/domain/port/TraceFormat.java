package io.tracegraph.domain.port;

/**
 * A trace format as input discovery tells it: by the first bytes of a trace's plain (decompressed)
 * stream, and by its name only where the content cannot tell. Each format has one reader; a new
 * format (another producer's traces, a bundle's trace) is one more {@code TraceFormat} with its
 * {@link TraceReader}, given to discovery by the composition root.
 */
public interface TraceFormat {
    /** How many leading bytes of a trace {@link #recognises} is shown at most. */
    int HEAD_BYTES = 64 * 1024;

    /** The format's name, for people (for example {@code candle-graph JSONL}). */
    String name();

    /**
     * Whether a trace whose plain stream starts with {@code head} (at most {@link #HEAD_BYTES}
     * bytes; fewer when the trace is shorter, and cut anywhere, even inside a line or a character)
     * is in this format. Says no when it cannot tell: malformed content is left to the name.
     */
    boolean recognises(byte[] head);

    /**
     * Whether the source name alone says this format (for example {@code *.json}): the tie-breaker
     * for content that no format recognises, or that several do.
     */
    boolean claimsName(String source);

    /** The reader of this format. */
    TraceReader reader();
}
