package io.tracegraph.domain.trace;

/** What a span stands for in the traced program. */
public enum SpanKind {
    FUNCTION,
    OP,
    MODULE
}
