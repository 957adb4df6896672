package io.tracegraph.domain.graph;

/** What a graph node stands for. {@code OTHER} is never built; readers map unknown kinds to it. */
public enum GraphNodeKind {
    ROOT,
    FUNCTION,
    MODULE,
    OP,
    OTHER
}
