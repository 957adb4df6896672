package io.tracegraph.domain.graph;

/** An entry of the slowest-spans list. */
public record SlowSpan(String id, String name, long selfTimeNs) {
}
