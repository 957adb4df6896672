package io.tracegraph.domain.trace;

import java.util.Objects;

/** A timed edge between two spans, as recorded by the producer. */
public record EdgeEvent(String fromSpan, String toSpan, long durationNs) {
    public EdgeEvent {
        Objects.requireNonNull(fromSpan, "fromSpan");
        Objects.requireNonNull(toSpan, "toSpan");
    }
}
