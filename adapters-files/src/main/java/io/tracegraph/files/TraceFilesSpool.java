package io.tracegraph.files;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The bytes of a bundle's trace met in a streamed archive before the rest of its bundle: kept until
 * the bundle is verified, in memory up to a share of {@link #MEMORY_IN_ALL}, beyond it in a temporary
 * file readable by its owner only, deleted when the spool is closed.
 */
final class TraceFilesSpool implements Closeable {
    /** Most bytes that all spools of one walk keep in memory at once. */
    static final long MEMORY_IN_ALL = 32L << 20;
    /** Most bytes one spool keeps in memory before it moves to a file. */
    static final int MEMORY_EACH = 8 << 20;

    /** The walk's account of spooled bytes in memory. */
    static final class Memory {
        private long used;
    }

    private final Memory memory;
    private ByteArrayOutputStream held = new ByteArrayOutputStream();
    private Path file;
    private OutputStream out;

    TraceFilesSpool(Memory memory) {
        this.memory = memory;
    }

    /** A spool that could not be written (a full temporary disk): the bundle's fault is not the archive's. */
    static final class SpoolFailed extends IOException {
        SpoolFailed(IOException cause) {
            super("could not keep it until its bundle is verified: " + TraceFilesWalk.reason(cause), cause);
        }
    }

    void write(byte[] b, int off, int len) throws SpoolFailed {
        if (out == null && held.size() + len <= MEMORY_EACH && memory.used + len <= MEMORY_IN_ALL) {
            held.write(b, off, len);
            memory.used += len;
            return;
        }
        try {
            if (out == null) {
                file = Files.createTempFile("tracegraph-bundle-", ".spool");
                out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16);
                held.writeTo(out);
                release();
            }
            out.write(b, off, len);
        } catch (IOException e) {
            throw new SpoolFailed(e);
        }
    }

    /** The bytes written; the spool takes no more writes. */
    InputStream open() throws IOException {
        if (out == null) {
            return new ByteArrayInputStream(held.toByteArray());
        }
        out.close();
        return new BufferedInputStream(Files.newInputStream(file), 1 << 16);
    }

    @Override
    public void close() {
        release();
        try {
            if (out != null) {
                out.close();
            }
        } catch (IOException e) {
            // nothing of it is wanted any more
        }
        try {
            if (file != null) {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            file.toFile().deleteOnExit();
        }
    }

    private void release() {
        memory.used -= held.size();
        held = new ByteArrayOutputStream();
    }
}
