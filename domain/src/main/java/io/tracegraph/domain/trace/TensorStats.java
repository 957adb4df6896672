package io.tracegraph.domain.trace;

import java.util.Objects;

/**
 * A numerical summary of a caller-labelled tensor at capture time (candle-graph trace/10
 * {@code tensor_stats}). The label is the caller's stable name for the tensor, used to join runs.
 *
 * @param elements the element count (the product of the shape)
 * @param nonFinite how many elements were NaN or infinite
 */
public record TensorStats(String spanId, String label, Shape shape, String dtype, long elements, long nonFinite,
        double rms, double absMax, double mean) {

    public TensorStats {
        Objects.requireNonNull(spanId, "spanId");
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(shape, "shape");
        Objects.requireNonNull(dtype, "dtype");
    }
}
