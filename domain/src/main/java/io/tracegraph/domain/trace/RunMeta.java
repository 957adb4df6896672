package io.tracegraph.domain.trace;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The run metadata of a trace's {@code meta} record.
 *
 * @param tags producer tags, kept sorted by key (code point order)
 * @param candleVersion the Candle version, or {@code null} when the producer did not say
 * @param measuredRegionDeviceSynchronized whether the measured region is bounded by device
 *     synchronizations (trace/7 and later; false for trace/6)
 * @param captureContract what the capture promised to record (trace/7 and later), {@code null} for trace/6
 * @param comparisonIdentity what a comparable run must share, {@code null} when not declared
 */
public record RunMeta(
        String runId,
        String correlationId,
        String entrypoint,
        ExecutionPhase phase,
        String timestamp,
        long captureStep,
        long warmupSteps,
        String device,
        TimingMode timingMode,
        Map<String, String> tags,
        String candleVersion,
        boolean measuredRegionDeviceSynchronized,
        CaptureContract captureContract,
        ComparisonIdentity comparisonIdentity) {

    public RunMeta {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(correlationId, "correlationId");
        Objects.requireNonNull(entrypoint, "entrypoint");
        Objects.requireNonNull(phase, "phase");
        Objects.requireNonNull(timestamp, "timestamp");
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(timingMode, "timingMode");
        TreeMap<String, String> sorted = new TreeMap<>(CodePointOrder.COMPARATOR);
        sorted.putAll(Objects.requireNonNull(tags, "tags"));
        tags = Collections.unmodifiableSortedMap(sorted);
    }

    /** The run metadata of a trace/6 meta record: no contract, no identity, not synchronized. */
    public RunMeta(String runId, String correlationId, String entrypoint, ExecutionPhase phase, String timestamp,
            long captureStep, long warmupSteps, String device, TimingMode timingMode, Map<String, String> tags,
            String candleVersion) {
        this(runId, correlationId, entrypoint, phase, timestamp, captureStep, warmupSteps, device, timingMode, tags,
                candleVersion, false, null, null);
    }

    /**
     * The first way the provenance is out of its domain, in the original's words (a trace/10 health
     * rule): an id or name that is blank, a capture step of 0, as many warm-up steps as the capture
     * step, or an unusable comparison identity. Empty when it is valid.
     */
    public Optional<String> provenanceProblem() {
        String[][] named = {
            {"run_id", runId}, {"correlation_id", correlationId}, {"entrypoint", entrypoint},
            {"timestamp", timestamp}, {"device", device},
        };
        for (String[] member : named) {
            if (RustText.isBlank(member[1])) {
                return Optional.of("run provenance " + member[0] + " must not be empty");
            }
        }
        if (captureStep <= 0) {
            return Optional.of("capture_step must be one-based and greater than zero");
        }
        if (warmupSteps >= captureStep) {
            return Optional.of("warmup_steps (" + warmupSteps
                    + ") must be fewer than the one-based capture_step (" + captureStep + ")");
        }
        return comparisonIdentity == null ? Optional.empty() : comparisonIdentity.problem();
    }
}
