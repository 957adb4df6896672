package io.tracegraph.domain.trace;

/** Whether a memory record allocates or frees a tensor's storage. */
public enum MemoryAction {
    ALLOC,
    FREE
}
