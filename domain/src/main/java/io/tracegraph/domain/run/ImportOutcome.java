package io.tracegraph.domain.run;

/** What became of one input of an import. */
public enum ImportOutcome {
    ACCEPTED,
    REPLACED,
    DUPLICATE,
    REJECTED,
    /** The same content was rejected before for what it is (malformed or untrusted): not read again. */
    PREVIOUSLY_REJECTED
}
