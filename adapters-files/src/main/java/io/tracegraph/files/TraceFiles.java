package io.tracegraph.files;

import io.tracegraph.application.TraceBatch;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * The inputs of {@code tracegraph import}: trace files, directories and archives (zip, tar,
 * tar.gz/tgz, tar.bz2), nested in any combination, walked in a fixed order and handed to a
 * {@link Visitor} one trace at a time.
 *
 * <p>Archives are streamed and never extracted: entry names are labels only, never paths, so an
 * entry called {@code ../../etc/passwd} or {@code /tmp/x} is read as data like any other. Every
 * trace stream is bounded by {@link Limits#maxEntryBytes()} counted after decompression, and one
 * input may not expand past {@link Limits#maxExpansion(long)} in all (nested archive bombs).
 * An input that cannot be read is reported and the walk goes on with the next.
 */
public final class TraceFiles {
    private TraceFiles() {
    }

    /**
     * How far the walker trusts an input.
     *
     * @param maxEntryBytes the most bytes one trace may have, counted after gzip decompression
     * @param maxNesting    how many archives deep an entry may be (a top-level archive is depth 1)
     */
    public record Limits(long maxEntryBytes, int maxNesting) {
        public static final long DEFAULT_MAX_ENTRY_BYTES = 4L << 30;
        public static final int DEFAULT_MAX_NESTING = 8;
        /**
         * How many times its size on disk a file may expand to, over and above one trace's
         * limit; one deflate layer cannot exceed about 1032, so only nested bombs hit this.
         */
        public static final long EXPANSION_FACTOR = 4096;

        public Limits {
            if (maxEntryBytes < 1) {
                throw new IllegalArgumentException("maxEntryBytes must be positive: " + maxEntryBytes);
            }
            if (maxNesting < 1) {
                throw new IllegalArgumentException("maxNesting must be positive: " + maxNesting);
            }
        }

        /** 4 GiB per trace, archives nested 8 deep. */
        public static Limits defaults() {
            return new Limits(DEFAULT_MAX_ENTRY_BYTES, DEFAULT_MAX_NESTING);
        }

        /**
         * The most bytes all decompression layers of one file of {@code sizeOnDisk} bytes may
         * produce in all, skipped entries included: {@code maxEntryBytes + 4096 × sizeOnDisk}.
         */
        public long maxExpansion(long sizeOnDisk) {
            long scaled = sizeOnDisk > Long.MAX_VALUE / EXPANSION_FACTOR ? Long.MAX_VALUE
                    : sizeOnDisk * EXPANSION_FACTOR;
            return scaled > Long.MAX_VALUE - maxEntryBytes ? Long.MAX_VALUE : scaled + maxEntryBytes;
        }
    }

    /** What the walk found, called on the walking thread in input order. */
    public interface Visitor {
        /**
         * A trace to read. {@code name} is the path as given or found (for example
         * {@code runs/a.jsonl}), followed for archive entries by {@code '!'} and the entry name, once
         * per level: {@code runs.tar.gz!day1/a.jsonl.gz}. The stream holds the trace's plain bytes
         * (gzip is already decompressed, whatever the name says), is valid only during this call
         * (reads after it fail), need not be closed, and throws {@link TooLargeException} once
         * more than {@link Limits#maxEntryBytes()} bytes have been read.
         *
         * <p>If this method lets an exception out that came from reading the stream (a
         * {@link TooLargeException}, corrupt gzip data, an I/O error, or a runtime exception thrown
         * while the stream was failing), the walker reports the trace as {@link #unreadable} and
         * goes on; any other exception ends the walk.
         */
        void trace(String name, InputStream in) throws IOException;

        /**
         * An input that could not be read, or could be read only up to some point (a corrupt or
         * truncated archive: its entries before the damage have been visited), with a one-line
         * reason. The walk continues with the next input.
         */
        void unreadable(String name, String reason);
    }

    /**
     * What a walk saw.
     *
     * @param files      files and archive entries met (not directories; archives themselves included)
     * @param traces     {@link Visitor#trace} calls
     * @param archives   archives opened (top-level and nested)
     * @param skipped    files that are neither traces nor archives, symbolic links to directories,
     *                   and archive entries that are links or devices
     * @param unreadable {@link Visitor#unreadable} calls
     */
    public record Summary(long files, long traces, long archives, long skipped, long unreadable) {
    }

    /** A trace, or a whole input, that is larger than the limits allow. */
    public static final class TooLargeException extends IOException {
        private final long limit;

        TooLargeException(String message, long limit) {
            super(message);
            this.limit = limit;
        }

        /** The limit that was passed, in bytes. */
        public long limit() {
            return limit;
        }
    }

    /**
     * Walks the paths in the given order. A directory is walked recursively, its entries in the
     * order of their names' code points (UTF-8 byte order), without following symbolic links to
     * directories (a symbolic link to a file is read; a path given here is always followed). An
     * archive is streamed entry by entry in its own order. Files that are neither traces
     * ({@code .jsonl}, {@code .json}, either with {@code .gz}) nor archives ({@code .zip},
     * {@code .tar}, {@code .tar.gz}, {@code .tgz}, {@code .tar.bz2}, {@code .tbz2}) are skipped.
     *
     * @throws IOException only when the visitor throws one that did not come from its stream
     */
    public static Summary walk(List<Path> paths, Limits limits, Visitor visitor) throws IOException {
        Objects.requireNonNull(paths, "paths");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(visitor, "visitor");
        return new TraceFilesWalk(limits, visitor).walk(List.copyOf(paths));
    }

    /**
     * The traces of {@code paths} as a batch to import: each {@link TraceBatch#forEach} walks them
     * as {@link #walk} does, every trace and unreadable input handed to the batch's sink.
     */
    public static TraceBatch batch(List<Path> paths, Limits limits) {
        List<Path> copy = List.copyOf(paths);
        Objects.requireNonNull(limits, "limits");
        return sink -> walk(copy, limits, new Visitor() {
            @Override
            public void trace(String name, InputStream in) throws IOException {
                sink.trace(name, in);
            }

            @Override
            public void unreadable(String name, String reason) {
                sink.unreadable(name, reason);
            }
        });
    }
}
