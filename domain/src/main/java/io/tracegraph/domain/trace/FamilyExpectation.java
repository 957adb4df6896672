package io.tracegraph.domain.trace;

/** What a gradient contract expects of one parameter family. */
public enum FamilyExpectation {
    /** At least {@code min_present} of the family's gradients are present. */
    ACTIVE,
    /** No gradient of the family is attached (all missing). */
    INACTIVE,
    /** The data decides; when any gradient is present, at least {@code min_present} are. */
    DATA_CONDITIONAL
}
