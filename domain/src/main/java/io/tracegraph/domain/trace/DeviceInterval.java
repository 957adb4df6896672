package io.tracegraph.domain.trace;

import java.util.Objects;

/**
 * Work a device did for a span: one resolved interval on one device, stream and clock
 * (candle-graph trace/7 {@code device_interval}; a PyTorch kernel). Intervals of one span may
 * overlap (several streams); device time counts overlapping work once.
 *
 * @param spanId the span (graph node) the work is attributed to
 * @param clockId the device clock {@code startNs} is measured on (not comparable with host time)
 */
public record DeviceInterval(String spanId, String device, String streamId, String clockId, String backend,
        long startNs, long durationNs) {

    public DeviceInterval {
        Objects.requireNonNull(spanId, "spanId");
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(streamId, "streamId");
        Objects.requireNonNull(clockId, "clockId");
        Objects.requireNonNull(backend, "backend");
        if (startNs < 0 || durationNs < 0) {
            throw new IllegalArgumentException("startNs and durationNs must be >= 0");
        }
    }

    /** {@code startNs + durationNs}, saturating. */
    public long endNs() {
        return Saturating.add(startNs, durationNs);
    }
}
