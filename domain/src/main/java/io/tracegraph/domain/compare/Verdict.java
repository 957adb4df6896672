package io.tracegraph.domain.compare;

/**
 * What a group comparison concludes about one quantity, from the confidence interval of its
 * relative change and the threshold {@code t} of a change that matters.
 */
public enum Verdict {
    /** The whole interval lies above {@code +t}: the quantity grew (slower, or for bytes, bigger). */
    SLOWER,
    /** The whole interval lies below {@code -t}: the quantity shrank. */
    FASTER,
    /** The whole interval lies within {@code [-t, +t]}: any change is too small to matter. */
    UNCHANGED,
    /** The interval straddles a threshold, or there were too few runs to compute one. */
    INCONCLUSIVE;

    public static Verdict of(ConfidenceInterval interval, double threshold) {
        if (interval.lower() > threshold) {
            return SLOWER;
        }
        if (interval.upper() < -threshold) {
            return FASTER;
        }
        if (interval.lower() >= -threshold && interval.upper() <= threshold) {
            return UNCHANGED;
        }
        return INCONCLUSIVE;
    }
}
