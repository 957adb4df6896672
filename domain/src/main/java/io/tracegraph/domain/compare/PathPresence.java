package io.tracegraph.domain.compare;

import java.util.Objects;

/** A path seen on one side of a group comparison only, and in how many of that side's runs. */
public record PathPresence(long pathHash, String path, String kind, int runs) {

    public PathPresence {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(kind, "kind");
        if (runs < 1) {
            throw new IllegalArgumentException("runs must be at least 1: " + runs);
        }
    }
}
