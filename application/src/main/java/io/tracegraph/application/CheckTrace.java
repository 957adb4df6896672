package io.tracegraph.application;

import io.tracegraph.domain.health.HealthAnalyzer;
import io.tracegraph.domain.port.TraceReader;
import io.tracegraph.domain.trace.MalformedTraceException;
import io.tracegraph.domain.trace.TraceDocument;
import java.util.Objects;

/** Use case: read a trace and report its health, trusted or not. */
public final class CheckTrace {
    private final TraceReader reader;

    public CheckTrace(TraceReader reader) {
        this.reader = Objects.requireNonNull(reader, "reader");
    }

    public HealthResult check(TraceInput input) {
        TraceDocument doc;
        try {
            doc = BuildGraph.ReadTrace.read(reader, input);
        } catch (MalformedTraceException e) {
            return new HealthResult.Malformed(e.problem());
        }
        return new HealthResult.Checked(input.name(), HealthAnalyzer.analyze(doc));
    }
}
