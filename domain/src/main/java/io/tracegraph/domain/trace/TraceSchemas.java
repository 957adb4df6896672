package io.tracegraph.domain.trace;

import java.util.List;

/**
 * The candle-graph trace schemas tracegraph reads, {@code candle-graph/trace/6} to {@code /10},
 * and their revision numbers.
 */
public final class TraceSchemas {
    public static final String PREFIX = "candle-graph/trace/";
    public static final String TRACE_6 = PREFIX + 6;
    public static final String TRACE_7 = PREFIX + 7;
    public static final String TRACE_8 = PREFIX + 8;
    public static final String TRACE_9 = PREFIX + 9;
    public static final String TRACE_10 = PREFIX + 10;
    /** Every schema read, oldest first. */
    public static final List<String> READ = List.of(TRACE_6, TRACE_7, TRACE_8, TRACE_9, TRACE_10);
    public static final int OLDEST = 6;
    public static final int NEWEST = 10;

    private TraceSchemas() {
    }

    /** The revision of a schema that is read (6..10), or 0 for any other string. */
    public static int revision(String schema) {
        if (schema == null || !schema.startsWith(PREFIX)) {
            return 0;
        }
        switch (schema.substring(PREFIX.length())) {
            case "6": return 6;
            case "7": return 7;
            case "8": return 8;
            case "9": return 9;
            case "10": return 10;
            default: return 0;
        }
    }

    /**
     * Whether an unread schema is a candle-graph trace revision newer than the newest read, or no
     * candle-graph schema at all: the refusal then lists every schema read. For older revisions and
     * other {@code candle-graph/} strings the refusal names trace/6, the oldest one read.
     */
    public static boolean refusalListsAll(String schema) {
        if (!schema.startsWith("candle-graph/")) {
            return true;
        }
        if (!schema.startsWith(PREFIX)) {
            return false;
        }
        String n = schema.substring(PREFIX.length());
        if (n.isEmpty() || n.length() > 9 || !n.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return false;
        }
        return Integer.parseInt(n) > NEWEST;
    }
}
