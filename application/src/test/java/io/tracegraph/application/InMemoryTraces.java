package io.tracegraph.application;

import io.tracegraph.domain.port.TraceReader;
import io.tracegraph.domain.trace.MalformedTraceException;
import io.tracegraph.domain.trace.TraceDocument;
import io.tracegraph.domain.trace.TraceProblem;
import java.io.ByteArrayInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Trace files that exist in memory only: each name holds a trace (read back by this class as a
 * {@link TraceReader}) or a problem (read as a malformed trace). Names with a trace file's suffix
 * are trace files by name even when absent, as on a file system.
 */
final class InMemoryTraces implements LocalTraces, TraceReader {
    private static final List<String> SUFFIXES = List.of(".jsonl", ".jsonl.gz", ".json", ".json.gz");

    private final Map<String, TraceDocument> traces = new HashMap<>();
    private final Map<String, String> problems = new HashMap<>();

    InMemoryTraces with(String name, TraceDocument trace) {
        traces.put(name, trace);
        return this;
    }

    InMemoryTraces malformed(String name, String problem) {
        problems.put(name, problem);
        return this;
    }

    @Override
    public Optional<TraceInput> existing(String reference) {
        return traces.containsKey(reference) || problems.containsKey(reference) ? Optional.of(input(reference))
                : Optional.empty();
    }

    @Override
    public Optional<TraceInput> named(String reference) {
        Optional<TraceInput> found = existing(reference);
        return found.isPresent() || SUFFIXES.stream().noneMatch(reference::endsWith) ? found
                : Optional.of(input(reference));
    }

    private TraceInput input(String name) {
        return new TraceInput(name, () -> {
            if (!traces.containsKey(name) && !problems.containsKey(name)) {
                throw new FileNotFoundException(name);
            }
            return new ByteArrayInputStream(new byte[0]);
        });
    }

    @Override
    public TraceDocument read(String source, InputStream in) {
        if (problems.containsKey(source)) {
            throw new MalformedTraceException(new TraceProblem(source, 3, "duration_ns", problems.get(source)));
        }
        TraceDocument trace = traces.get(source);
        if (trace == null) {
            throw new UncheckedIOException(new IOException(source + ": no such trace"));
        }
        return trace;
    }
}
