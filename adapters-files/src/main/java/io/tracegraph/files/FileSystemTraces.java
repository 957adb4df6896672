package io.tracegraph.files;

import io.tracegraph.application.LocalTraces;
import io.tracegraph.application.TraceInput;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** Trace files named by their paths on this machine's file system. */
public final class FileSystemTraces implements LocalTraces {
    /** Names that are meant as trace files even when no such file exists (so that a typo is not a run). */
    private static final List<String> TRACE_SUFFIXES = List.of(".jsonl", ".jsonl.gz", ".json", ".json.gz");

    /**
     * {@inheritDoc}
     *
     * <p>A reference that is no path on this file system (a NUL character in it, say) fails as
     * {@link Path#of} does, with an {@link InvalidPathException}.
     */
    @Override
    public Optional<TraceInput> existing(String reference) {
        Path path = Path.of(reference);
        return Files.isRegularFile(path) ? Optional.of(TraceInput.of(path)) : Optional.empty();
    }

    /** {@inheritDoc} A reference that is no path on this file system names no file. */
    @Override
    public Optional<TraceInput> named(String reference) {
        try {
            Path path = Path.of(reference);
            if (Files.isRegularFile(path) || TRACE_SUFFIXES.stream().anyMatch(reference::endsWith)) {
                return Optional.of(TraceInput.of(path));
            }
            return Optional.empty();
        } catch (InvalidPathException e) {
            return Optional.empty();
        }
    }
}
