package io.tracegraph.domain.graph;

/** Call edges link spans to spans and ops; data edges link tensor ids. Declared in sort order. */
public enum GraphEdgeKind {
    CALL,
    DATA
}
