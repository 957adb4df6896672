package io.tracegraph.domain.graph;

/** An entry of the heaviest-spans list. */
public record HeavySpan(String id, String name, long bytes, long peakBytes) {
}
