package io.tracegraph.domain.graph;

import io.tracegraph.domain.trace.GradientState;

/** A gradient fact as the graph reports it; {@code norm} is {@code null} when absent. */
public record GradientRecord(String root, String key, GradientState state, Double norm) {
}
