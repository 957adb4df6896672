package io.tracegraph.domain.trace;

/** How much of one kind of evidence a producer promises to capture (a capture contract's levels). */
public enum CoverageLevel {
    NONE,
    PARTIAL,
    COMPLETE
}
