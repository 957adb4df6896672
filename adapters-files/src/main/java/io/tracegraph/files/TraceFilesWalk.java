package io.tracegraph.files;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.Enumeration;
import java.util.List;
import java.util.Locale;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveInputStream;
import org.apache.commons.compress.archivers.zip.ZipFile;
import org.apache.commons.compress.archivers.zip.ZipMethod;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorInputStream;
import org.apache.commons.compress.compressors.xz.XZUtils;
import org.apache.commons.compress.compressors.zstandard.ZstdUtils;

/**
 * One walk of {@link TraceFiles#walk}: the counters and the recursion over archives (at most
 * {@code maxNesting} deep; directories are walked with an explicit stack).
 *
 * <p>Failures travel as follows. An {@link IOException} thrown inside the walker always means an
 * input failed; an exception of the visitor that did not come from its stream travels as a
 * {@link VisitorFailure} up to {@link #walk}. Each stream lent out is wrapped in a
 * {@link TraceFilesGuard} that remembers whether the source below failed: an entry of a streamed
 * archive (tar, nested zip) whose source failed takes the rest of the archive with it, while a
 * top-level file or an entry of a zip read by random access fails alone.
 */
final class TraceFilesWalk {
    private static final int BUFFER = 1 << 16;
    private static final int MAX_ENTRY_NAME_CHARS = 1024;
    private static final Comparator<Path> BY_NAME = Comparator.comparing(
            (Path p) -> p.getFileName().toString(), TraceFilesWalk::compareCodePoints);

    private enum Kind {
        TRACE, ZIP, TAR, OTHER;

        static Kind of(String name) {
            String n = name.toLowerCase(Locale.ROOT);
            if (n.endsWith(".jsonl") || n.endsWith(".json") || n.endsWith(".jsonl.gz") || n.endsWith(".json.gz")) {
                return TRACE;
            }
            if (n.endsWith(".zip")) {
                return ZIP;
            }
            if (n.endsWith(".tar") || n.endsWith(".tar.gz") || n.endsWith(".tgz") || n.endsWith(".tar.bz2")
                    || n.endsWith(".tbz2") || n.endsWith(".tbz")) {
                return TAR;
            }
            return OTHER;
        }
    }

    /** Leaves every archive level at once; the catch blocks in between let it through. */
    private abstract static class Abort extends RuntimeException {
        Abort() {
            super(null, null, false, false);
        }
    }

    /** The visitor failed by itself: ends the walk with the visitor's own exception. */
    private static final class VisitorFailure extends Abort {
        private final Exception failure;

        VisitorFailure(Exception failure) {
            this.failure = failure;
        }
    }

    /** The input expanded past its budget: the whole top-level input is refused, once. */
    private static final class BudgetExhausted extends Abort {
    }

    private final TraceFiles.Limits limits;
    private final TraceFiles.Visitor visitor;
    private long files;
    private long traces;
    private long archives;
    private long skipped;
    private long unreadable;

    TraceFilesWalk(TraceFiles.Limits limits, TraceFiles.Visitor visitor) {
        this.limits = limits;
        this.visitor = visitor;
    }

    TraceFiles.Summary walk(List<Path> paths) throws IOException {
        try {
            for (Path path : paths) {
                given(path);
            }
        } catch (VisitorFailure f) {
            if (f.failure instanceof IOException io) {
                throw io;
            }
            throw (RuntimeException) f.failure;
        }
        return new TraceFiles.Summary(files, traces, archives, skipped, unreadable);
    }

    /** A path from the command line: symbolic links followed. */
    private void given(Path path) {
        String label = clean(path.toString(), Integer.MAX_VALUE);
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(path, BasicFileAttributes.class);
        } catch (IOException e) {
            unreadable(label, e);
            return;
        }
        if (attributes.isDirectory()) {
            directory(path, label);
        } else {
            file(path, label, attributes);
        }
    }

    /** Depth first, each directory's entries by name, symbolic links to directories not followed. */
    private void directory(Path root, String rootLabel) {
        Deque<Path> pending = new ArrayDeque<>();
        pushChildren(root, rootLabel, pending);
        while (!pending.isEmpty()) {
            Path path = pending.pop();
            String label = clean(path.toString(), Integer.MAX_VALUE);
            BasicFileAttributes attributes;
            try {
                attributes = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            } catch (IOException e) {
                files++;
                unreadable(label, e);
                continue;
            }
            if (attributes.isDirectory()) {
                pushChildren(path, label, pending);
            } else if (attributes.isSymbolicLink()) {
                symbolicLink(path, label);
            } else if (attributes.isRegularFile()) {
                file(path, label, attributes);
            } else {
                files++; // a FIFO, socket or device: never opened, a FIFO could block forever
                skipped++;
            }
        }
    }

    private void pushChildren(Path directory, String label, Deque<Path> pending) {
        List<Path> children = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory)) {
            for (Path child : stream) {
                children.add(child);
            }
        } catch (IOException e) {
            unreadable(label, e);
        } catch (DirectoryIteratorException e) {
            unreadable(label, e.getCause());
        }
        children.sort(BY_NAME);
        for (int i = children.size() - 1; i >= 0; i--) {
            pending.push(children.get(i));
        }
    }

    private void symbolicLink(Path path, String label) {
        BasicFileAttributes target;
        try {
            target = Files.readAttributes(path, BasicFileAttributes.class);
        } catch (IOException e) {
            files++;
            if (Kind.of(label) == Kind.OTHER) {
                skipped++;
            } else {
                unreadable(label, e instanceof NoSuchFileException ? "broken symbolic link" : reason(e));
            }
            return;
        }
        if (target.isRegularFile()) {
            file(path, label, target);
        } else {
            files++; // a link to a directory is not followed: no loops, no walking outside
            skipped++;
        }
    }

    private void file(Path path, String label, BasicFileAttributes attributes) {
        files++;
        Kind kind = Kind.of(path.getFileName() == null ? label : path.getFileName().toString());
        if (kind == Kind.OTHER) {
            skipped++;
            return;
        }
        TraceFilesBudget budget = attributes.isRegularFile()
                ? new TraceFilesBudget(limits.maxExpansion(attributes.size()), "expands to more than "
                        + limits.maxExpansion(attributes.size()) + " bytes in all, over "
                        + TraceFiles.Limits.EXPANSION_FACTOR + " times its size: refused as an archive bomb")
                : TraceFilesBudget.unlimited();
        if (kind == Kind.ZIP && attributes.isRegularFile()) {
            zipFile(path, label, budget);
            return;
        }
        try (InputStream in = new BufferedInputStream(Files.newInputStream(path), BUFFER)) {
            if (kind == Kind.TRACE) {
                trace(label, in, budget, false);
            } else {
                archive(label, kind, in, 1, budget, false);
            }
        } catch (BudgetExhausted e) {
            unreadable(label, budget.message());
        } catch (IOException e) {
            unreadable(label, e);
        }
    }

    /**
     * One entry of an archive at {@code depth}; {@code shared} when its source is the archive's
     * own stream, so that a failure of the source ends the archive (thrown).
     */
    private void entry(String label, String name, InputStream data, int depth, TraceFilesBudget budget,
            boolean shared) throws IOException {
        files++;
        Kind kind = Kind.of(name);
        if (kind == Kind.OTHER) {
            skipped++;
        } else if (kind == Kind.TRACE) {
            trace(label, data, budget, shared);
        } else if (depth >= limits.maxNesting()) {
            unreadable(label, "archives nested more than " + limits.maxNesting() + " deep");
        } else {
            archive(label, kind, data, depth + 1, budget, shared);
        }
    }

    /** Lends the trace's plain bytes to the visitor; throws only a failure of a shared source. */
    private void trace(String label, InputStream source, TraceFilesBudget budget, boolean shared)
            throws IOException {
        TraceFilesGuard raw = new TraceFilesGuard(source);
        PushbackInputStream peek = new PushbackInputStream(raw, 2);
        InputStream plain;
        try {
            plain = isGzip(peek) ? new TraceFilesCounter(new GzipData(peek, raw), budget) : peek;
        } catch (IOException e) {
            sourceFailed(raw, shared, budget);
            unreadable(label, GzipData.corrupt(e));
            return;
        }
        TraceFilesGuard lent = new TraceFilesGuard(new TraceFilesCounter(plain, new TraceFilesBudget(
                limits.maxEntryBytes(), "larger than the limit of " + limits.maxEntryBytes() + " bytes")));
        traces++;
        try {
            visitor.trace(label, lent);
        } catch (IOException | RuntimeException e) {
            if (lent.failure() == null) {
                throw new VisitorFailure(e);
            }
            sourceFailed(raw, shared, budget);
            unreadable(label, lent.failure());
        } finally {
            lent.expire();
            if (plain != peek) {
                closeQuietly(plain);
            }
        }
        sourceFailed(raw, shared, budget);
    }

    /**
     * A trace's gzip layer that says so when its data is corrupt or cut short (an EOF or a
     * {@link java.util.zip.ZipException} while the source below did not fail), so that the reason
     * reported for the trace is not just "Unexpected end of ZLIB input stream".
     */
    private static final class GzipData extends GZIPInputStream {
        static final String CORRUPT = "corrupt or truncated gzip data: ";
        private final TraceFilesGuard source;

        GzipData(InputStream in, TraceFilesGuard source) throws IOException {
            super(in, BUFFER / 4);
            this.source = source;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            try {
                return super.read(b, off, len);
            } catch (EOFException | java.util.zip.ZipException e) {
                if (source.failure() != null) {
                    throw e;
                }
                throw new IOException(corrupt(e), e);
            }
        }

        static String corrupt(IOException e) {
            String detail = e.getMessage() == null || e.getMessage().isBlank() ? "unexpected end of data"
                    : clean(e.getMessage(), MAX_ENTRY_NAME_CHARS);
            return CORRUPT + detail;
        }
    }

    /** Reads a tar or zip from a stream; throws only a failure of a shared source. */
    private void archive(String label, Kind kind, InputStream source, int depth, TraceFilesBudget budget,
            boolean shared) throws IOException {
        archives++;
        TraceFilesGuard raw = new TraceFilesGuard(source);
        InputStream archive = null;
        try {
            BufferedInputStream buffered = new BufferedInputStream(raw, BUFFER);
            if (kind == Kind.ZIP) {
                ZipArchiveInputStream zip = streamingZip(buffered);
                archive = zip;
                zipEntries(label, zip, depth, budget);
            } else {
                TraceFilesTarStream tar = new TraceFilesTarStream(decompress(buffered, budget));
                archive = tar;
                tarEntries(label, tar, depth, budget);
            }
        } catch (Abort a) {
            throw a;
        } catch (IOException | RuntimeException e) {
            sourceFailed(raw, shared, budget);
            unreadable(label, e);
        } finally {
            closeQuietly(archive);
        }
    }

    /**
     * A zip read front to back. Uncompressed entries of unknown size are refused: the library
     * would hold such an entry in memory whole to find its end.
     */
    private static ZipArchiveInputStream streamingZip(InputStream in) {
        return new ZipArchiveInputStream(in, StandardCharsets.UTF_8.name(), true, false);
    }

    /** A tar's compression, known by its magic bytes rather than by its name. */
    private static InputStream decompress(BufferedInputStream in, TraceFilesBudget budget) throws IOException {
        in.mark(3);
        byte[] magic = in.readNBytes(3);
        in.reset();
        if (magic.length >= 2 && (magic[0] & 0xff) == 0x1f && (magic[1] & 0xff) == 0x8b) {
            return new TraceFilesCounter(new GZIPInputStream(in, BUFFER), budget);
        }
        if (magic.length == 3 && magic[0] == 'B' && magic[1] == 'Z' && magic[2] == 'h') {
            return new TraceFilesCounter(new BZip2CompressorInputStream(in, true), budget);
        }
        return in;
    }

    private void tarEntries(String label, TraceFilesTarStream tar, int depth, TraceFilesBudget budget)
            throws IOException {
        TarArchiveEntry entry;
        while ((entry = tar.getNextEntry()) != null) {
            if (entry.isDirectory()) {
                continue;
            }
            String name = label + '!' + clean(entry.getName(), MAX_ENTRY_NAME_CHARS);
            if (!entry.isFile() || entry.isSymbolicLink() || entry.isLink() || entry.isCharacterDevice()
                    || entry.isBlockDevice() || entry.isFIFO()) {
                files++;
                skipped++;
            } else if (!tar.canReadEntryData(entry)) {
                unsupported(name, entry.getName(), "unsupported tar entry type");
            } else {
                entry(name, entry.getName(), tar, depth, budget, true);
            }
        }
    }

    private void zipEntries(String label, ZipArchiveInputStream zip, int depth, TraceFilesBudget budget)
            throws IOException {
        ZipArchiveEntry entry;
        byte[] drain = null;
        while ((entry = zip.getNextEntry()) != null) {
            if (entry.isDirectory()) {
                continue;
            }
            String name = label + '!' + clean(entry.getName(), MAX_ENTRY_NAME_CHARS);
            if (entry.isUnixSymlink()) {
                files++;
                skipped++;
            } else if (!readable(entry, zip.canReadEntryData(entry), true)) {
                unsupported(name, entry.getName(), unsupportedZipEntry(entry));
            } else {
                TraceFilesCounter data = new TraceFilesCounter(zip, budget);
                entry(name, entry.getName(), data, depth, budget, true);
                if (entry.getGeneralPurposeBit().usesDataDescriptor() || entry.getCompressedSize() < 0) {
                    // The stream would inflate the rest uncounted to find the next entry; do it counted.
                    drain = drain == null ? new byte[BUFFER] : drain;
                    while (data.read(drain) >= 0) {
                        // discard
                    }
                }
            }
        }
    }

    /** A zip file on disk: entries by random access, so a damaged entry fails alone. */
    private void zipFile(Path path, String label, TraceFilesBudget budget) {
        archives++;
        ZipFile zip;
        try {
            zip = ZipFile.builder().setPath(path).get();
        } catch (IOException | RuntimeException e) {
            salvageZip(path, label, budget, e);
            return;
        }
        try {
            zipFileEntries(zip, label, budget);
        } catch (BudgetExhausted e) {
            unreadable(label, budget.message());
        } finally {
            closeQuietly(zip);
        }
    }

    private void zipFileEntries(ZipFile zip, String label, TraceFilesBudget budget) {
        Enumeration<ZipArchiveEntry> entries = zip.getEntries();
        while (entries.hasMoreElements()) {
            ZipArchiveEntry entry = entries.nextElement();
            if (entry.isDirectory()) {
                continue;
            }
            String name = label + '!' + clean(entry.getName(), MAX_ENTRY_NAME_CHARS);
            if (entry.isUnixSymlink()) {
                files++;
                skipped++;
            } else if (!readable(entry, zip.canReadEntryData(entry), false)) {
                unsupported(name, entry.getName(), unsupportedZipEntry(entry));
            } else if (Kind.of(entry.getName()) == Kind.OTHER) {
                files++;
                skipped++;
            } else {
                zipFileEntry(zip, entry, name, budget);
            }
        }
    }

    private void zipFileEntry(ZipFile zip, ZipArchiveEntry entry, String name, TraceFilesBudget budget) {
        InputStream in = null;
        try {
            in = zip.getInputStream(entry);
            entry(name, entry.getName(), new TraceFilesCounter(in, budget), 1, budget, false);
        } catch (Abort a) {
            throw a;
        } catch (IOException | RuntimeException e) {
            if (budget.exhausted()) {
                throw new BudgetExhausted();
            }
            files++;
            unreadable(name, e);
        } finally {
            closeQuietly(in);
        }
    }

    /**
     * A zip without a readable central directory (truncated, or not a zip): the entries a stream
     * finds before the damage are still read, then the zip is reported.
     */
    private void salvageZip(Path path, String label, TraceFilesBudget budget, Exception noDirectory) {
        ZipArchiveInputStream zip = null;
        try (InputStream in = Files.newInputStream(path)) {
            zip = streamingZip(new BufferedInputStream(in, BUFFER));
            zipEntries(label, zip, 1, budget);
            unreadable(label, "corrupt zip archive: " + reason(noDirectory));
        } catch (BudgetExhausted e) {
            unreadable(label, budget.message());
        } catch (VisitorFailure f) {
            throw f;
        } catch (IOException | RuntimeException e) {
            if (budget.exhausted()) {
                unreadable(label, budget.message());
            } else {
                unreadable(label, "corrupt zip archive: " + reason(e));
            }
        } finally {
            closeQuietly(zip);
        }
    }

    private void unsupported(String label, String name, String reason) {
        files++;
        if (Kind.of(name) == Kind.OTHER) {
            skipped++;
        } else {
            unreadable(label, reason);
        }
    }

    /**
     * The library says it can read xz, lzma and zstd entries, but their decoders are optional
     * dependencies (opening one without them throws a {@link NoClassDefFoundError}), and a zip
     * read as a stream has no xz decoder at all.
     */
    private static boolean readable(ZipArchiveEntry entry, boolean libraryCanRead, boolean streamed) {
        int method = entry.getMethod();
        if (method == ZipMethod.XZ.getCode() || method == ZipMethod.LZMA.getCode()) {
            return libraryCanRead && !streamed && XZUtils.isXZCompressionAvailable();
        }
        if (method == ZipMethod.ZSTD.getCode() || method == ZipMethod.ZSTD_DEPRECATED.getCode()) {
            return libraryCanRead && ZstdUtils.isZstdCompressionAvailable();
        }
        return libraryCanRead;
    }

    private static String unsupportedZipEntry(ZipArchiveEntry entry) {
        if (entry.getGeneralPurposeBit().usesEncryption()) {
            return "encrypted zip entry";
        }
        if (entry.getMethod() == ZipMethod.STORED.getCode() && entry.getGeneralPurposeBit().usesDataDescriptor()) {
            return "uncompressed zip entry of unknown size, which cannot be read from a nested zip";
        }
        ZipMethod method = ZipMethod.getMethodByCode(entry.getMethod());
        return "unsupported zip compression method "
                + (method == null ? String.valueOf(entry.getMethod()) : method.toString());
    }

    /**
     * After a failure: an exhausted budget ends the whole input; a failed shared source ends the
     * archive (its failure is thrown); otherwise the failure is the caller's to report.
     */
    private static void sourceFailed(TraceFilesGuard raw, boolean shared, TraceFilesBudget budget)
            throws IOException {
        if (budget.exhausted()) {
            throw new BudgetExhausted();
        }
        if (shared && raw.failure() != null) {
            throw raw.failure();
        }
    }

    private static boolean isGzip(PushbackInputStream in) throws IOException {
        int b0 = in.read();
        int b1 = b0 < 0 ? -1 : in.read();
        if (b1 >= 0) {
            in.unread(b1);
        }
        if (b0 >= 0) {
            in.unread(b0);
        }
        return b0 == 0x1f && b1 == 0x8b;
    }

    private void unreadable(String label, Throwable e) {
        unreadable(label, reason(e));
    }

    private void unreadable(String label, String reason) {
        unreadable++;
        visitor.unreadable(label, reason);
    }

    /** A one-line reason; the name is the caller's to add. */
    static String reason(Throwable e) {
        if (e instanceof NoSuchFileException) {
            return "no such file or directory";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        String message = e instanceof FileSystemException fs ? fs.getReason() : e.getMessage();
        if (e instanceof EOFException) {
            return message == null || message.isBlank() ? "truncated: unexpected end of data"
                    : "truncated: " + clean(message, MAX_ENTRY_NAME_CHARS);
        }
        return message == null || message.isBlank() ? e.getClass().getSimpleName()
                : clean(message, MAX_ENTRY_NAME_CHARS);
    }

    /** Control characters (a newline in an entry name) become '?'; overlong text is cut. */
    static String clean(String text, int maxChars) {
        String cut = text.length() > maxChars ? text.substring(0, maxChars) + "..." : text;
        StringBuilder out = null;
        for (int i = 0; i < cut.length(); i++) {
            char c = cut.charAt(i);
            if (Character.isISOControl(c)) {
                if (out == null) {
                    out = new StringBuilder(cut);
                }
                out.setCharAt(i, '?');
            }
        }
        return out == null ? cut : out.toString();
    }

    /** Code point order, which is the byte order of the names' UTF-8. */
    static int compareCodePoints(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }

    private static void closeQuietly(AutoCloseable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (Exception e) {
            // nothing was written; a failed close loses nothing
        }
    }
}
