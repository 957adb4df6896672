package io.tracegraph.domain.compare;

/** A non-negative measured quantity (milliseconds) in the base run and in the candidate. */
public record DoubleChange(double base, double candidate) {

    public DoubleChange {
        if (!Double.isFinite(base) || !Double.isFinite(candidate) || base < 0 || candidate < 0) {
            throw new IllegalArgumentException("values must be finite and not negative: " + base + ", " + candidate);
        }
    }

    public double delta() {
        return candidate - base;
    }

    /** {@code candidate / base}, or {@code null} when the base is 0. */
    public Double ratio() {
        return base == 0 ? null : candidate / base;
    }

    /** The change in percent of the base, or {@code null} when the base is 0. */
    public Double percent() {
        return base == 0 ? null : delta() * 100 / base;
    }
}
