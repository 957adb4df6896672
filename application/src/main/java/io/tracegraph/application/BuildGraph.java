package io.tracegraph.application;

import io.tracegraph.domain.graph.GraphBuilder;
import io.tracegraph.domain.graph.GraphOutcome;
import io.tracegraph.domain.port.TraceReader;
import io.tracegraph.domain.trace.MalformedTraceException;
import io.tracegraph.domain.trace.TraceDocument;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Objects;

/**
 * Use case: read a trace, check its health and build its execution graph. A failed capture is
 * untrusted, and comes with the partial graph of what it captured when it is structurally valid.
 */
public final class BuildGraph {
    private final TraceReader reader;

    public BuildGraph(TraceReader reader) {
        this.reader = Objects.requireNonNull(reader, "reader");
    }

    /**
     * @throws UncheckedIOException when the trace cannot be opened or read (infrastructure, not the
     *     trace's fault)
     */
    public TraceResult build(TraceInput input) {
        TraceDocument doc;
        try {
            doc = ReadTrace.read(reader, input);
        } catch (MalformedTraceException e) {
            return new TraceResult.Malformed(e.problem());
        }
        GraphOutcome outcome = GraphBuilder.build(doc);
        if (outcome instanceof GraphOutcome.Built built) {
            return new TraceResult.Built(input.name(), built.graph(), built.health());
        }
        GraphOutcome.Untrusted untrusted = (GraphOutcome.Untrusted) outcome;
        return new TraceResult.Untrusted(input.name(), untrusted.health(), untrusted.partialGraph());
    }

    /** Opening and reading through the port, shared by the use cases that start from a trace. */
    static final class ReadTrace {
        private ReadTrace() {
        }

        static TraceDocument read(TraceReader reader, TraceInput input) {
            try (InputStream in = input.opener().open()) {
                return reader.read(input.name(), in);
            } catch (IOException e) {
                throw new UncheckedIOException(input.name() + ": " + e.getMessage(), e);
            }
        }
    }
}
