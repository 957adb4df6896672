package io.tracegraph.domain.run;

/** What the store already knows of some content: the run stored from it, or why it was rejected. */
public sealed interface KnownContent permits KnownContent.StoredRun, KnownContent.Rejected {

    record StoredRun(String runId) implements KnownContent {
    }

    /** Rejected earlier for what it is (malformed or untrusted), with the reason given then. */
    record Rejected(String reason) implements KnownContent {
    }
}
