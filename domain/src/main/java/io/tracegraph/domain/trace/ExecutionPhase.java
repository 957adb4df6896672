package io.tracegraph.domain.trace;

/** Whether a traced update trained the model or ran inference. */
public enum ExecutionPhase {
    TRAIN,
    INFER
}
