package io.tracegraph.domain.trace;

/**
 * What an allocation holds. Declared in the byte order of the wire spellings, so that
 * {@link #ordinal()} order is the order of category keys in every output map.
 */
public enum MemoryCategory {
    ACTIVATION,
    GRADIENT,
    OPTIMIZER,
    OTHER,
    PARAMETER;

    private static final MemoryCategory[] VALUES = values();

    /** All categories in output order (a shared array: do not modify). */
    public static MemoryCategory[] ordered() {
        return VALUES;
    }
}
