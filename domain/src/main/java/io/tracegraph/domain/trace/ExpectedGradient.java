package io.tracegraph.domain.trace;

import java.util.Objects;

/** One parameter a gradient contract expects a gradient fact for, and its family. */
public record ExpectedGradient(String root, String key, String family) {
    public ExpectedGradient {
        Objects.requireNonNull(root, "root");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(family, "family");
    }
}
