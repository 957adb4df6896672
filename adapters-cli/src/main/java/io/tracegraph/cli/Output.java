package io.tracegraph.cli;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Where a command's result goes: standard output, or a file that appears complete or not at all
 * (written beside its final name, then renamed over it).
 */
final class Output {
    /** Writes something to a stream. */
    @FunctionalInterface
    interface Writing {
        void writeTo(OutputStream out) throws IOException;
    }

    private Output() {
    }

    static void write(CliIo io, Path file, Writing writing) {
        try {
            if (file == null) {
                BufferedOutputStream out = new BufferedOutputStream(io.stdout(), 1 << 20);
                writing.writeTo(out);
                out.flush();
                return;
            }
            Path absolute = file.toAbsolutePath();
            Path dir = absolute.getParent();
            Files.createDirectories(dir);
            Path temp = Files.createTempFile(dir, "." + absolute.getFileName(), ".partial");
            try {
                try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(temp), 1 << 20)) {
                    writing.writeTo(out);
                }
                Files.move(temp, absolute, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(temp);
            }
        } catch (IOException e) {
            throw new UncheckedIOException((file == null ? "standard output" : file.toString()) + ": "
                    + e.getMessage(), e);
        }
    }
}
