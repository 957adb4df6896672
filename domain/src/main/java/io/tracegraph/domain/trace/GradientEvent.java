package io.tracegraph.domain.trace;

import java.util.Objects;

/** One parameter-gradient fact. {@code norm} is {@code null} when absent. */
public record GradientEvent(String eventId, String root, String key, GradientState state, Double norm) {
    public GradientEvent {
        Objects.requireNonNull(eventId, "eventId");
        Objects.requireNonNull(root, "root");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(state, "state");
    }
}
