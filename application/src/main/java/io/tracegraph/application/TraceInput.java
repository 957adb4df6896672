package io.tracegraph.application;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Where a trace comes from: a name for messages (the path as the user gave it, or an archive
 * entry) and a way to open its bytes.
 */
public record TraceInput(String name, Opener opener) {
    /** Opens the trace's bytes; the caller closes the stream. */
    @FunctionalInterface
    public interface Opener {
        InputStream open() throws IOException;
    }

    public TraceInput {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(opener, "opener");
    }

    public static TraceInput of(Path path) {
        return new TraceInput(path.toString(), () -> Files.newInputStream(path));
    }
}
