package io.tracegraph.domain.trace;

/** A kind of evidence a trace's producer can record; the health check warns only of those it can. */
public enum Evidence {
    /** Timed operations ({@code op} records, leaf ops). */
    OPERATIONS,
    /** Tensor checkpoints. */
    TENSORS,
    /** Allocations and frees. */
    MEMORY,
    /** Device-memory checkpoints (used and free bytes). */
    DEVICE_MEMORY,
    /** Gradient facts of a training run. */
    GRADIENTS,
    /** Forward, backward and optimizer tags on spans. */
    STEP_TAGS
}
