package io.tracegraph.domain.trace;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The run metadata of a trace's {@code meta} record.
 *
 * @param tags producer tags, kept sorted by key (code point order)
 * @param candleVersion the Candle version, or {@code null} when the producer did not say
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
        String candleVersion) {

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
        tags = java.util.Collections.unmodifiableSortedMap(sorted);
    }
}
