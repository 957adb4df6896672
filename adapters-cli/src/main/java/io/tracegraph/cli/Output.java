package io.tracegraph.cli;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;

/**
 * Where a command's result goes: standard output, or a file that appears complete or not at all
 * (written beside its final name, then renamed over it), with the mode the user's umask gives a new
 * file. A device or a pipe that exists ({@code -o /dev/null}, a FIFO) is written in place: renaming
 * over it would replace it with a regular file. A directory is refused.
 */
final class Output {
    /** Writes something to a stream. */
    @FunctionalInterface
    interface Writing {
        void writeTo(OutputStream out) throws IOException;
    }

    private static final SecureRandom RANDOM = new SecureRandom();

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
            if (Files.isDirectory(absolute)) {
                throw new IOException("is a directory, not a file to write");
            }
            if (Files.exists(absolute) && !Files.isRegularFile(absolute)) {
                try (OutputStream out = new BufferedOutputStream(
                        Files.newOutputStream(absolute, StandardOpenOption.WRITE), 1 << 20)) {
                    writing.writeTo(out);
                }
                return;
            }
            Path dir = absolute.getParent();
            Files.createDirectories(dir);
            Path temp = null;
            OutputStream created = null;
            // Created as any file the user writes is (0666 less the umask), not as a temporary file
            // (0600): the result is the user's file, for whoever they let read their files.
            while (created == null) {
                temp = dir.resolve("." + absolute.getFileName() + "." + Long.toUnsignedString(RANDOM.nextLong(), 36)
                        + ".partial");
                try {
                    created = Files.newOutputStream(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                } catch (FileAlreadyExistsException e) {
                    // another name
                }
            }
            try {
                try (OutputStream out = new BufferedOutputStream(created, 1 << 20)) {
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
