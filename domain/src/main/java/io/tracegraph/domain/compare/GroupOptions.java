package io.tracegraph.domain.compare;

/**
 * Settings of a group comparison: the bootstrap's {@code seed} and number of {@code resamples},
 * the {@code confidence} of the intervals, the {@code threshold} of a relative change that matters
 * ({@code 0.05} = 5%), the minimum number of runs per side for any verdict other than
 * inconclusive, and how many paths at most are tested ({@code maxTestedPaths}: those with the most
 * total time; the others get medians and changes only).
 */
public record GroupOptions(long seed, int resamples, double confidence, double threshold, int minRunsPerSide,
        int maxTestedPaths) {
    public static final long DEFAULT_SEED = 0x7472616365L;
    public static final int DEFAULT_RESAMPLES = 1000;
    public static final double DEFAULT_CONFIDENCE = 0.95;
    public static final double DEFAULT_THRESHOLD = 0.05;
    public static final int DEFAULT_MIN_RUNS_PER_SIDE = 3;
    /**
     * With 10 runs a side the rank-sum test's smallest p-value is 1/184756, and Holm's correction
     * divides the error rate by the number of paths tested: up to 1000 paths, a change that
     * separates the two sides (or all but twice) can still be confirmed.
     */
    public static final int DEFAULT_MAX_TESTED_PATHS = 1000;
    /** Bounds the bootstrap's work and memory (resamples × runs per path). */
    public static final int MAX_RESAMPLES = 1_000_000;

    public GroupOptions {
        if (resamples < 1 || resamples > MAX_RESAMPLES) {
            throw new IllegalArgumentException("resamples must be between 1 and " + MAX_RESAMPLES + ": " + resamples);
        }
        if (!(confidence > 0 && confidence < 1)) {
            throw new IllegalArgumentException("confidence must lie strictly between 0 and 1: " + confidence);
        }
        if (!(threshold >= 0 && Double.isFinite(threshold))) {
            throw new IllegalArgumentException("threshold must be finite and not negative: " + threshold);
        }
        if (minRunsPerSide < 1) {
            throw new IllegalArgumentException("minRunsPerSide must be at least 1: " + minRunsPerSide);
        }
        if (maxTestedPaths < 1) {
            throw new IllegalArgumentException("maxTestedPaths must be at least 1: " + maxTestedPaths);
        }
    }

    public static GroupOptions defaults() {
        return new GroupOptions(DEFAULT_SEED, DEFAULT_RESAMPLES, DEFAULT_CONFIDENCE, DEFAULT_THRESHOLD,
                DEFAULT_MIN_RUNS_PER_SIDE, DEFAULT_MAX_TESTED_PATHS);
    }

    public GroupOptions withSeed(long value) {
        return new GroupOptions(value, resamples, confidence, threshold, minRunsPerSide, maxTestedPaths);
    }

    public GroupOptions withResamples(int value) {
        return new GroupOptions(seed, value, confidence, threshold, minRunsPerSide, maxTestedPaths);
    }

    public GroupOptions withConfidence(double value) {
        return new GroupOptions(seed, resamples, value, threshold, minRunsPerSide, maxTestedPaths);
    }

    public GroupOptions withThreshold(double value) {
        return new GroupOptions(seed, resamples, confidence, value, minRunsPerSide, maxTestedPaths);
    }

    public GroupOptions withMinRunsPerSide(int value) {
        return new GroupOptions(seed, resamples, confidence, threshold, value, maxTestedPaths);
    }

    public GroupOptions withMaxTestedPaths(int value) {
        return new GroupOptions(seed, resamples, confidence, threshold, minRunsPerSide, value);
    }
}
