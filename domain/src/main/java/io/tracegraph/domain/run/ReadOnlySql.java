package io.tracegraph.domain.run;

import java.time.Duration;
import java.util.Objects;

/**
 * An ad-hoc SQL statement to run over the store, which must not change anything: one statement
 * (SELECT, WITH, VALUES, TABLE or EXPLAIN), run in a read-only transaction that is cancelled after
 * {@code timeout}, returning at most {@code maxRows} rows.
 */
public record ReadOnlySql(String text, Duration timeout, int maxRows) {
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);
    public static final int DEFAULT_MAX_ROWS = 100_000;

    public ReadOnlySql {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.compareTo(Duration.ofMillis(1)) < 0
                || timeout.compareTo(Duration.ofMillis(Integer.MAX_VALUE)) > 0) {
            throw new IllegalArgumentException("timeout must be between 1 ms and " + Integer.MAX_VALUE + " ms: "
                    + timeout);
        }
        if (maxRows < 1) {
            throw new IllegalArgumentException("maxRows must be at least 1: " + maxRows);
        }
    }

    /** The statement with the default timeout (30 s) and row limit. */
    public static ReadOnlySql of(String text) {
        return new ReadOnlySql(text, DEFAULT_TIMEOUT, DEFAULT_MAX_ROWS);
    }
}
