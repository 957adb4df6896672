package io.tracegraph.domain.compare;

import java.util.Objects;

/** A semantic path found in both runs, with its statistics in each. */
public record PathChange(PathStats base, PathStats candidate) {

    public PathChange {
        Objects.requireNonNull(base, "base");
        Objects.requireNonNull(candidate, "candidate");
        if (base.pathHash() != candidate.pathHash()) {
            throw new IllegalArgumentException("paths differ: " + base.path() + " and " + candidate.path());
        }
    }

    public long pathHash() {
        return candidate.pathHash();
    }

    /** The path text (the candidate's). */
    public String path() {
        return candidate.path();
    }

    public String kind() {
        return candidate.kind();
    }

    public LongChange selfTimeNs() {
        return new LongChange(base.selfTimeNs(), candidate.selfTimeNs());
    }

    public LongChange totalTimeNs() {
        return new LongChange(base.totalTimeNs(), candidate.totalTimeNs());
    }

    public LongChange bytes() {
        return new LongChange(base.bytes(), candidate.bytes());
    }

    public LongChange peakBytes() {
        return new LongChange(base.peakBytes(), candidate.peakBytes());
    }
}
