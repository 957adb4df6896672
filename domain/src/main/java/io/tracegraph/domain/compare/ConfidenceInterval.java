package io.tracegraph.domain.compare;

/**
 * A confidence interval of a relative change ({@code 0.1} = +10%). Bounds are never NaN; the upper
 * one (both, when the baseline is 0 throughout) is {@code +Infinity} where resampled baseline
 * medians of 0 met positive candidate medians.
 */
public record ConfidenceInterval(double lower, double upper) {

    public ConfidenceInterval {
        if (Double.isNaN(lower) || Double.isNaN(upper) || lower > upper) {
            throw new IllegalArgumentException("not an interval: [" + lower + ", " + upper + "]");
        }
    }
}
