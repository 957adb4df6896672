package io.tracegraph.domain.compare;

/** A non-negative quantity (nanoseconds, bytes) in the base run and in the candidate. */
public record LongChange(long base, long candidate) {

    public LongChange {
        if (base < 0 || candidate < 0) {
            throw new IllegalArgumentException("values must not be negative: " + base + ", " + candidate);
        }
    }

    /** {@code candidate - base}; exact, both being non-negative. */
    public long delta() {
        return candidate - base;
    }

    /** {@code candidate / base}, or {@code null} when the base is 0. */
    public Double ratio() {
        return base == 0 ? null : (double) candidate / base;
    }

    /** The change in percent of the base, or {@code null} when the base is 0. */
    public Double percent() {
        return base == 0 ? null : (double) delta() * 100 / base;
    }
}
