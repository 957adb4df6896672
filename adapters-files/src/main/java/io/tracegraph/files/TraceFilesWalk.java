package io.tracegraph.files;

import io.tracegraph.domain.run.BundleFile;
import io.tracegraph.domain.run.BundleIdentity;
import io.tracegraph.domain.run.CampaignCapture;
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
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
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
 *
 * <p>Bundles and campaigns ({@link TraceBundles}): a directory is a bundle when {@code bundle.json}
 * is among its children; its files are checked against it and only its verified trace is handed
 * on. An archive file is first read once by a walk of its own in survey mode ({@link #recording}
 * set), which finds the bundles and campaigns of every level of it ({@link TraceFilesSurvey}); the
 * walk proper then knows, at each entry, whether it belongs to a bundle ({@link ArchiveBundles}).
 */
final class TraceFilesWalk {
    private static final int BUFFER = 1 << 16;
    private static final int MAX_ENTRY_NAME_CHARS = 1024;
    private static final String NOT_LISTED = "not listed in bundle.json";
    private static final String MISSING = "listed in bundle.json but missing";
    private static final String TOO_LARGE_MANIFEST = "larger than " + TraceBundles.MAX_MANIFEST_BYTES
            + " bytes: not a bundle manifest";
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

    /** The survey's walk hands nothing on. */
    private static final TraceFiles.Visitor NO_VISITOR = new TraceFiles.Visitor() {
        @Override
        public void trace(String name, InputStream in) {
        }

        @Override
        public void unreadable(String name, String reason) {
        }
    };

    /** Opens an archive entry again (an entry of a zip read by random access). */
    @FunctionalInterface
    private interface Opener {
        InputStream open() throws IOException;
    }

    /** A bundle directory that a campaign on disk plans: its label and what the campaign plans there. */
    private record PlannedOnDisk(String label, CampaignCapture capture) {
        String why(String what) {
            return "planned by campaign `" + capture.campaignId() + "` (" + capture.source() + ") for capture_step "
                    + capture.captureStep() + ", but " + what;
        }
    }

    private final TraceFiles.Limits limits;
    private final TraceFiles.Visitor visitor;
    /** In survey mode: what this walk records; null in the walk proper. */
    private final TraceFilesSurvey recording;
    /** The walk proper: the survey of the archive file being read, or null (no bundle in it). */
    private TraceFilesSurvey plans;
    private final TraceFilesSpool.Memory spoolMemory = new TraceFilesSpool.Memory();
    /** Directories that campaigns found so far plan as bundles, by absolute path. */
    private final Map<Path, PlannedOnDisk> planned = new LinkedHashMap<>();
    /** Campaign manifests among the children of directories walked: "" or the reason they are refused. */
    private final Map<Path, String> campaignFiles = new HashMap<>();
    private long files;
    private long traces;
    private long archives;
    private long skipped;
    private long unreadable;
    private long bundles;
    private long campaigns;

    TraceFilesWalk(TraceFiles.Limits limits, TraceFiles.Visitor visitor) {
        this(limits, visitor, null);
    }

    private TraceFilesWalk(TraceFiles.Limits limits, TraceFiles.Visitor visitor, TraceFilesSurvey recording) {
        this.limits = limits;
        this.visitor = visitor;
        this.recording = recording;
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
        return new TraceFiles.Summary(files, traces, archives, skipped, unreadable, bundles, campaigns);
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
            TraceBundles.Read<TraceBundles.Campaign> campaign = attributes.isRegularFile() ? campaign(path) : null;
            if (campaign != null) {
                campaignFile(path, label, campaign);
            } else {
                file(path, label, attributes);
            }
        }
        for (PlannedOnDisk missing : planned.values()) {
            unreadable(missing.label(), missing.why("it is missing"));
        }
        planned.clear();
        campaignFiles.clear();
    }

    /** Depth first, each directory's entries by name, symbolic links to directories not followed. */
    private void directory(Path root, String rootLabel) {
        Deque<Path> pending = new ArrayDeque<>();
        folder(root, rootLabel, pending);
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
            String campaignProblem = campaignFiles.remove(path);
            if (attributes.isDirectory()) {
                folder(path, label, pending);
            } else if (attributes.isSymbolicLink()) {
                symbolicLink(path, label);
            } else if (campaignProblem != null) {
                files++; // a campaign manifest: what it plans is walked as the bundles are met
                campaigns++;
                if (!campaignProblem.isEmpty()) {
                    unreadable(label, campaignProblem);
                }
            } else if (attributes.isRegularFile()) {
                file(path, label, attributes);
            } else {
                files++; // a FIFO, socket or device: never opened, a FIFO could block forever
                skipped++;
            }
        }
    }

    /**
     * A directory met: a bundle when {@code bundle.json} is among its children (read as one, whole);
     * else its campaign manifests are read and its children pushed to be walked.
     */
    private void folder(Path directory, String label, Deque<Path> pending) {
        PlannedOnDisk plannedHere = planned.remove(key(directory));
        List<Path> children = children(directory, label);
        if (children == null) {
            return;
        }
        if (children.stream().anyMatch(c -> TraceBundles.isManifestName(String.valueOf(c.getFileName())))) {
            diskBundle(directory, label, plannedHere == null ? null : plannedHere.capture());
            return;
        }
        if (plannedHere != null) {
            unreadable(label, plannedHere.why("it is no bundle (no bundle.json)"));
            return;
        }
        children.sort(BY_NAME);
        for (Path child : children) {
            if (TraceBundles.isJsonName(String.valueOf(child.getFileName()))) {
                TraceBundles.Read<TraceBundles.Campaign> campaign = campaign(child);
                if (campaign != null) {
                    campaignFiles.put(child, campaign.ok() ? "" : campaign.problem());
                    if (campaign.ok()) {
                        plan(directory, clean(child.toString(), Integer.MAX_VALUE), campaign.value());
                    }
                }
            }
        }
        for (int i = children.size() - 1; i >= 0; i--) {
            pending.push(children.get(i));
        }
    }

    /** A directory's children, or null when it cannot be listed (reported). */
    private List<Path> children(Path directory, String label) {
        List<Path> children = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory)) {
            for (Path child : stream) {
                children.add(child);
            }
        } catch (IOException e) {
            unreadable(label, e);
            return null;
        } catch (DirectoryIteratorException e) {
            unreadable(label, e.getCause());
            return null;
        }
        return children;
    }

    /**
     * The campaign a {@code .json} file on disk holds (a regular file, not followed when a link, at most
     * {@link TraceBundles#MAX_MANIFEST_BYTES}, its schema within its first
     * {@link TraceBundles#CAMPAIGN_HEAD_BYTES}); {@code null} when it is no campaign, or cannot be read
     * (then it is read as a trace, and reported as such).
     */
    private static TraceBundles.Read<TraceBundles.Campaign> campaign(Path file) {
        if (!TraceBundles.isJsonName(String.valueOf(file.getFileName()))) {
            return null;
        }
        try {
            BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class,
                    LinkOption.NOFOLLOW_LINKS);
            if (!attributes.isRegularFile() || attributes.size() > TraceBundles.MAX_MANIFEST_BYTES) {
                return null;
            }
            try (InputStream in = Files.newInputStream(file)) {
                byte[] head = in.readNBytes(TraceBundles.CAMPAIGN_HEAD_BYTES);
                if (!TraceBundles.mayBeCampaign(head)) {
                    return null;
                }
                byte[] rest = in.readNBytes(TraceBundles.MAX_MANIFEST_BYTES + 1 - head.length);
                if (head.length + rest.length > TraceBundles.MAX_MANIFEST_BYTES) {
                    return null;
                }
                byte[] bytes = Arrays.copyOf(head, head.length + rest.length);
                System.arraycopy(rest, 0, bytes, head.length, rest.length);
                return TraceBundles.campaign(bytes);
            }
        } catch (IOException e) {
            return null;
        }
    }

    /** Remembers the bundle directories a campaign in {@code directory} plans. */
    private void plan(Path directory, String source, TraceBundles.Campaign campaign) {
        for (TraceBundles.Planned p : campaign.planned()) {
            Path bundle = directory.resolve(p.bundle());
            planned.putIfAbsent(key(bundle), new PlannedOnDisk(clean(bundle.toString(), Integer.MAX_VALUE),
                    new CampaignCapture(source, campaign.campaignId(), campaign.entrypoint(), p.captureStep(),
                            p.bundle())));
        }
    }

    /** A campaign manifest named on the command line: the bundles it plans, in the order of their steps. */
    private void campaignFile(Path path, String label, TraceBundles.Read<TraceBundles.Campaign> campaign) {
        files++;
        campaigns++;
        if (!campaign.ok()) {
            unreadable(label, campaign.problem());
            return;
        }
        Path directory = path.toAbsolutePath().getParent();
        Path shown = path.getParent() == null ? Path.of("") : path.getParent();
        plan(shown, label, campaign.value());
        for (TraceBundles.Planned p : campaign.value().planned()) {
            Path bundle = shown.resolve(p.bundle());
            if (Files.isDirectory(directory.resolve(p.bundle()), LinkOption.NOFOLLOW_LINKS)) {
                directory(bundle, clean(bundle.toString(), Integer.MAX_VALUE));
            }
        }
    }

    private static Path key(Path directory) {
        return directory.toAbsolutePath().normalize();
    }

    /**
     * A bundle directory: {@code bundle.json} read and checked; every file below the directory must be
     * a regular file it lists, every file it lists must be there with its size and SHA-256 (each read
     * once); then the trace is read again, checked again as it is read, and handed on. The first
     * fault rejects the bundle, naming the file, and nothing of it is handed on.
     */
    private void diskBundle(Path directory, String label, CampaignCapture campaign) {
        bundles++;
        files++;
        skipped++;
        Path manifestPath = directory.resolve(TraceBundles.MANIFEST);
        String manifestLabel = clean(manifestPath.toString(), Integer.MAX_VALUE);
        TraceBundles.Read<TraceBundles.Manifest> read;
        try {
            BasicFileAttributes attributes = Files.readAttributes(manifestPath, BasicFileAttributes.class,
                    LinkOption.NOFOLLOW_LINKS);
            if (attributes.isSymbolicLink() || !attributes.isRegularFile()) {
                unreadable(manifestLabel, attributes.isSymbolicLink() ? TraceBundles.LINK_IN_BUNDLE
                        : "not a regular file");
                return;
            }
            if (attributes.size() > TraceBundles.MAX_MANIFEST_BYTES) {
                unreadable(manifestLabel, TOO_LARGE_MANIFEST);
                return;
            }
            try (InputStream in = Files.newInputStream(manifestPath)) {
                read = TraceBundles.manifest(in.readNBytes(TraceBundles.MAX_MANIFEST_BYTES));
            }
        } catch (IOException e) {
            unreadable(manifestLabel, e);
            return;
        }
        if (!read.ok()) {
            unreadable(manifestLabel, read.problem());
            return;
        }
        TraceBundles.Manifest manifest = read.value();
        Map<String, Path> found = new HashMap<>();
        Deque<Path> folders = new ArrayDeque<>(List.of(directory));
        while (!folders.isEmpty()) {
            Path folder = folders.pop();
            List<Path> children = children(folder, clean(folder.toString(), Integer.MAX_VALUE));
            if (children == null) {
                return;
            }
            children.sort(BY_NAME);
            for (Path child : children) {
                String relative = relative(directory, child);
                if (relative.equals(TraceBundles.MANIFEST)) {
                    continue;
                }
                String childLabel = clean(child.toString(), Integer.MAX_VALUE);
                BasicFileAttributes attributes;
                try {
                    attributes = Files.readAttributes(child, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                } catch (IOException e) {
                    files++;
                    unreadable(childLabel, e);
                    return;
                }
                if (attributes.isDirectory()) {
                    folders.push(child);
                    continue;
                }
                files++;
                String fault = attributes.isSymbolicLink() ? TraceBundles.LINK_IN_BUNDLE
                        : !attributes.isRegularFile() ? TraceBundles.SPECIAL_IN_BUNDLE
                        : !manifest.files().containsKey(relative) ? NOT_LISTED : null;
                if (fault != null) {
                    unreadable(childLabel, fault);
                    return;
                }
                found.put(relative, child);
            }
        }
        for (BundleFile listed : manifest.files().values()) {
            if (!found.containsKey(listed.path())) {
                unreadable(clean(directory.resolve(listed.path()).toString(), Integer.MAX_VALUE), MISSING);
                return;
            }
        }
        for (BundleFile listed : manifest.files().values()) {
            Path file = found.get(listed.path());
            String fault;
            try (InputStream in = Files.newInputStream(file)) {
                fault = TraceBundles.mismatch(listed, TraceBundles.observe(in, listed.bytes(), null));
            } catch (IOException e) {
                fault = reason(e);
            }
            if (fault != null) {
                unreadable(clean(file.toString(), Integer.MAX_VALUE), fault);
                return;
            }
            if (!listed.path().equals(manifest.tracePath())) {
                skipped++;
            }
        }
        Path trace = found.get(manifest.tracePath());
        String traceLabel = clean(trace.toString(), Integer.MAX_VALUE);
        TraceFilesBudget budget = fileBudget(manifest.trace().bytes());
        try (InputStream in = new BufferedInputStream(Files.newInputStream(trace), BUFFER)) {
            trace(traceLabel, TraceBundles.rechecked(in, manifest.trace()), budget, false,
                    identity(label, manifest, campaign));
        } catch (BudgetExhausted e) {
            unreadable(traceLabel, budget.message());
        } catch (IOException e) {
            unreadable(traceLabel, e);
        }
    }

    private static String relative(Path directory, Path file) {
        StringBuilder relative = new StringBuilder();
        for (Path component : directory.relativize(file)) {
            relative.append(relative.length() == 0 ? "" : "/").append(component);
        }
        return relative.toString();
    }

    private static BundleIdentity identity(String source, TraceBundles.Manifest manifest, CampaignCapture campaign) {
        return new BundleIdentity(source, manifest.runId(), manifest.sha256(), manifest.tracePath(),
                List.copyOf(manifest.files().values()), campaign);
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
        TraceFilesBudget budget = attributes.isRegularFile() ? fileBudget(attributes.size())
                : TraceFilesBudget.unlimited();
        plans = kind != Kind.TRACE && attributes.isRegularFile() ? survey(path, label, kind, budget) : null;
        try {
            if (kind == Kind.ZIP && attributes.isRegularFile()) {
                zipFile(path, label, budget);
                return;
            }
            try (InputStream in = new BufferedInputStream(Files.newInputStream(path), BUFFER)) {
                if (kind == Kind.TRACE) {
                    trace(label, in, budget, false);
                } else {
                    archive(label, kind, in, 1, budget, false, "");
                }
            } catch (BudgetExhausted e) {
                unreadable(label, budget.message());
            } catch (IOException e) {
                unreadable(label, e);
            }
        } finally {
            plans = null;
        }
    }

    /** What all decompression of a file of {@code size} bytes may produce. */
    private TraceFilesBudget fileBudget(long size) {
        return new TraceFilesBudget(limits.maxExpansion(size), "expands to more than " + limits.maxExpansion(size)
                + " bytes in all, over " + TraceFiles.Limits.EXPANSION_FACTOR + " times its size: refused as an "
                + "archive bomb");
    }

    /**
     * The first pass over an archive file: its bundles and campaigns, at every level, or null when it
     * holds none. Failures are not reported here: the walk proper meets them again.
     */
    private TraceFilesSurvey survey(Path path, String label, Kind kind, TraceFilesBudget budget) {
        TraceFilesSurvey survey = new TraceFilesSurvey();
        TraceFilesWalk first = new TraceFilesWalk(limits, NO_VISITOR, survey);
        TraceFilesBudget own = budget.fresh();
        try {
            if (kind == Kind.ZIP) {
                first.zipFile(path, label, own);
            } else {
                try (InputStream in = new BufferedInputStream(Files.newInputStream(path), BUFFER)) {
                    first.archive(label, kind, in, 1, own, false, "");
                }
            }
        } catch (Abort | IOException e) {
            // met again, and reported, by the walk proper
        }
        return survey.found() ? survey : null;
    }

    /**
     * One entry of an archive at {@code depth}; {@code shared} when its source is the archive's
     * own stream, so that a failure of the source ends the archive (thrown). {@code key} is the
     * survey's key of the entry, should it be an archive.
     */
    private void entry(String label, String name, InputStream data, int depth, TraceFilesBudget budget,
            boolean shared, String key) throws IOException {
        files++;
        Kind kind = Kind.of(name);
        if (kind == Kind.OTHER) {
            skipped++;
        } else if (kind == Kind.TRACE) {
            trace(label, data, budget, shared);
        } else if (depth >= limits.maxNesting()) {
            unreadable(label, "archives nested more than " + limits.maxNesting() + " deep");
        } else {
            archive(label, kind, data, depth + 1, budget, shared, key);
        }
    }

    /**
     * Survey mode: one entry of the archive level being recorded, {@code data} null for an entry that
     * is no regular file. Manifests and campaign manifests are read; nested archives are surveyed.
     */
    private void surveyEntry(TraceFilesSurvey.Level level, int ordinal, String entryName, String label,
            InputStream data, int depth, TraceFilesBudget budget, boolean shared, String key) throws IOException {
        String path = TraceBundles.normalized(entryName);
        level.entry(path, ordinal);
        if (data == null) {
            return;
        }
        String fileName = path == null ? null : TraceBundles.fileName(path);
        Kind kind = Kind.of(entryName);
        if (fileName != null && TraceBundles.isManifestName(fileName)) {
            byte[] bytes = data.readNBytes(TraceBundles.MAX_MANIFEST_BYTES + 1);
            String folder = TraceBundles.folder(path);
            if (bytes.length > TraceBundles.MAX_MANIFEST_BYTES) {
                level.manifest(folder, ordinal, null, TOO_LARGE_MANIFEST);
            } else if (!level.mayHold(bytes.length)) {
                level.manifest(folder, ordinal, null, "not read: more than " + TraceFilesSurvey.MAX_MANIFEST_BYTES
                        + " bytes of manifests in this archive");
            } else {
                level.manifest(folder, ordinal, bytes, null);
            }
        } else if (kind == Kind.TRACE) {
            if (fileName != null && TraceBundles.isJsonName(fileName)) {
                byte[] head = data.readNBytes(TraceBundles.CAMPAIGN_HEAD_BYTES);
                if (TraceBundles.mayBeCampaign(head)) {
                    byte[] rest = data.readNBytes(TraceBundles.MAX_MANIFEST_BYTES + 1 - head.length);
                    int size = head.length + rest.length;
                    if (size <= TraceBundles.MAX_MANIFEST_BYTES && level.mayHold(size)) {
                        byte[] bytes = Arrays.copyOf(head, size);
                        System.arraycopy(rest, 0, bytes, head.length, rest.length);
                        TraceBundles.Read<TraceBundles.Campaign> campaign = TraceBundles.campaign(bytes);
                        if (campaign != null) {
                            level.campaign(TraceBundles.folder(path), ordinal, entryName, campaign, size);
                        }
                    }
                }
            }
        } else if (kind != Kind.OTHER && depth < limits.maxNesting()) {
            archive(label, kind, data, depth + 1, budget, shared, key);
        }
    }

    /** Lends the trace's plain bytes to the visitor; throws only a failure of a shared source. */
    private void trace(String label, InputStream source, TraceFilesBudget budget, boolean shared)
            throws IOException {
        trace(label, source, budget, shared, null);
    }

    /** As {@link #trace(String, InputStream, TraceFilesBudget, boolean)}, of a verified bundle when not null. */
    private void trace(String label, InputStream source, TraceFilesBudget budget, boolean shared,
            BundleIdentity bundle) throws IOException {
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
            if (bundle == null) {
                visitor.trace(label, lent);
            } else {
                visitor.trace(label, lent, bundle);
            }
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
            boolean shared, String key) throws IOException {
        archives++;
        TraceFilesGuard raw = new TraceFilesGuard(source);
        InputStream archive = null;
        try {
            BufferedInputStream buffered = new BufferedInputStream(raw, BUFFER);
            if (kind == Kind.ZIP) {
                ZipArchiveInputStream zip = streamingZip(buffered);
                archive = zip;
                zipEntries(label, zip, depth, budget, key);
            } else {
                TraceFilesTarStream tar = new TraceFilesTarStream(decompress(buffered, budget));
                archive = tar;
                tarEntries(label, tar, depth, budget, key);
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

    /**
     * The bundles of the archive level of {@code key}, when the survey found any in it; null in survey
     * mode and for levels without bundles or campaigns.
     */
    private ArchiveBundles bundlesOf(String key, String label, TraceFilesBudget budget) {
        TraceFilesSurvey.Plan plan = plans == null ? null : plans.plan(key, label);
        return plan == null ? null : new ArchiveBundles(plan, budget);
    }

    private void tarEntries(String label, TraceFilesTarStream tar, int depth, TraceFilesBudget budget, String key)
            throws IOException {
        TraceFilesSurvey.Level level = recording == null ? null : recording.level(key);
        try (ArchiveBundles bundled = bundlesOf(key, label, budget)) {
            TarArchiveEntry entry;
            int ordinal = -1;
            while ((entry = tar.getNextEntry()) != null) {
                ordinal++;
                if (entry.isDirectory()) {
                    continue;
                }
                String name = label + '!' + clean(entry.getName(), MAX_ENTRY_NAME_CHARS);
                boolean link = entry.isSymbolicLink() || entry.isLink();
                boolean special = !link && (!entry.isFile() || entry.isCharacterDevice() || entry.isBlockDevice()
                        || entry.isFIFO());
                boolean readable = !link && !special && tar.canReadEntryData(entry);
                String unusable = link ? TraceBundles.LINK_IN_BUNDLE : special ? TraceBundles.SPECIAL_IN_BUNDLE
                        : !readable ? "cannot be read: unsupported tar entry type" : null;
                if (level != null) {
                    surveyEntry(level, ordinal, entry.getName(), name, readable ? tar : null, depth, budget, true,
                            key + "/" + ordinal);
                } else if (bundled != null && bundled.claims(ordinal, entry.getName(), name, unusable,
                        readable ? tar : null, null, true)) {
                    continue;
                } else if (link || special) {
                    files++;
                    skipped++;
                } else if (!readable) {
                    unsupported(name, entry.getName(), "unsupported tar entry type");
                } else {
                    entry(name, entry.getName(), tar, depth, budget, true, key + "/" + ordinal);
                }
            }
            if (bundled != null) {
                bundled.finishAll();
            }
        }
    }

    private void zipEntries(String label, ZipArchiveInputStream zip, int depth, TraceFilesBudget budget, String key)
            throws IOException {
        TraceFilesSurvey.Level level = recording == null ? null : recording.level(key);
        try (ArchiveBundles bundled = bundlesOf(key, label, budget)) {
            ZipArchiveEntry entry;
            byte[] drain = null;
            int ordinal = -1;
            while ((entry = zip.getNextEntry()) != null) {
                ordinal++;
                if (entry.isDirectory()) {
                    continue;
                }
                String name = label + '!' + clean(entry.getName(), MAX_ENTRY_NAME_CHARS);
                boolean readable = !entry.isUnixSymlink() && readable(entry, zip.canReadEntryData(entry), true);
                String unusable = entry.isUnixSymlink() ? TraceBundles.LINK_IN_BUNDLE
                        : !readable ? "cannot be read: " + unsupportedZipEntry(entry) : null;
                TraceFilesCounter data = readable ? new TraceFilesCounter(zip, budget) : null;
                if (level != null) {
                    surveyEntry(level, ordinal, entry.getName(), name, data, depth, budget, true, key + "/" + ordinal);
                } else if (bundled != null && bundled.claims(ordinal, entry.getName(), name, unusable, data, null,
                        true)) {
                    // a bundle's file, or a campaign manifest
                } else if (entry.isUnixSymlink()) {
                    files++;
                    skipped++;
                } else if (!readable) {
                    unsupported(name, entry.getName(), unsupportedZipEntry(entry));
                } else {
                    entry(name, entry.getName(), data, depth, budget, true, key + "/" + ordinal);
                }
                if (data != null && (entry.getGeneralPurposeBit().usesDataDescriptor()
                        || entry.getCompressedSize() < 0)) {
                    // The stream would inflate the rest uncounted to find the next entry; do it counted.
                    drain = drain == null ? new byte[BUFFER] : drain;
                    while (data.read(drain) >= 0) {
                        // discard
                    }
                }
            }
            if (bundled != null) {
                bundled.finishAll();
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
        } catch (IOException e) {
            unreadable(label, e); // not expected: entries read by random access fail alone
        } finally {
            closeQuietly(zip);
        }
    }

    private void zipFileEntries(ZipFile zip, String label, TraceFilesBudget budget) throws IOException {
        TraceFilesSurvey.Level level = recording == null ? null : recording.level("");
        try (ArchiveBundles bundled = bundlesOf("", label, budget)) {
            Enumeration<ZipArchiveEntry> entries = zip.getEntries();
            int ordinal = -1;
            while (entries.hasMoreElements()) {
                ZipArchiveEntry entry = entries.nextElement();
                ordinal++;
                if (entry.isDirectory()) {
                    continue;
                }
                String name = label + '!' + clean(entry.getName(), MAX_ENTRY_NAME_CHARS);
                boolean readable = !entry.isUnixSymlink() && readable(entry, zip.canReadEntryData(entry), false);
                String unusable = entry.isUnixSymlink() ? TraceBundles.LINK_IN_BUNDLE
                        : !readable ? "cannot be read: " + unsupportedZipEntry(entry) : null;
                if (level != null) {
                    surveyZipFileEntry(zip, entry, level, ordinal, name, readable, budget);
                } else if (bundled != null && claims(bundled, zip, entry, ordinal, name, unusable, budget)) {
                    continue;
                } else if (entry.isUnixSymlink()) {
                    files++;
                    skipped++;
                } else if (!readable) {
                    unsupported(name, entry.getName(), unsupportedZipEntry(entry));
                } else if (Kind.of(entry.getName()) == Kind.OTHER) {
                    files++;
                    skipped++;
                } else {
                    zipFileEntry(zip, entry, name, budget, "/" + ordinal);
                }
            }
            if (bundled != null) {
                bundled.finishAll();
            }
        }
    }

    /** An entry of a zip file that the bundles of its level may claim; its data opened (and again) as needed. */
    private boolean claims(ArchiveBundles bundled, ZipFile zip, ZipArchiveEntry entry, int ordinal, String name,
            String unusable, TraceFilesBudget budget) throws IOException {
        Opener reopen = () -> new TraceFilesCounter(zip.getInputStream(entry), budget);
        return bundled.claims(ordinal, entry.getName(), name, unusable, null, unusable == null ? reopen : null, false);
    }

    /** Survey mode: an entry of a zip file, opened only when the survey wants its bytes. */
    private void surveyZipFileEntry(ZipFile zip, ZipArchiveEntry entry, TraceFilesSurvey.Level level, int ordinal,
            String name, boolean readable, TraceFilesBudget budget) {
        String path = TraceBundles.normalized(entry.getName());
        boolean wanted = readable && (Kind.of(entry.getName()) == Kind.ZIP || Kind.of(entry.getName()) == Kind.TAR
                || path != null && TraceBundles.isJsonName(TraceBundles.fileName(path)));
        if (!wanted) {
            level.entry(path, ordinal);
            return;
        }
        InputStream in = null;
        try {
            in = zip.getInputStream(entry);
            surveyEntry(level, ordinal, entry.getName(), name, new TraceFilesCounter(in, budget), 1, budget, false,
                    "/" + ordinal);
        } catch (Abort a) {
            throw a;
        } catch (IOException | RuntimeException e) {
            if (budget.exhausted()) {
                throw new BudgetExhausted();
            }
            // the walk proper reports it
        } finally {
            closeQuietly(in);
        }
    }

    private void zipFileEntry(ZipFile zip, ZipArchiveEntry entry, String name, TraceFilesBudget budget, String key) {
        InputStream in = null;
        try {
            in = zip.getInputStream(entry);
            entry(name, entry.getName(), new TraceFilesCounter(in, budget), 1, budget, false, key);
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
            zipEntries(label, zip, 1, budget, "");
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

    /**
     * The bundles and campaigns of one archive level, as the survey found them: each entry of a bundle
     * is checked against its {@code bundle.json} as it comes (the trace kept: spooled from a stream,
     * or opened again from a zip read by random access), and once its bundle's last entry has come,
     * the verified trace is handed on; the first fault rejects the bundle, naming the file, and its
     * other entries are passed over. A campaign manifest is not read as a trace: what it plans but
     * the archive lacks is reported at it.
     */
    private final class ArchiveBundles implements AutoCloseable {
        private final TraceFilesSurvey.Plan plan;
        private final TraceFilesBudget budget;
        private final Map<String, Pending> open = new LinkedHashMap<>();
        private final Set<String> closed = new HashSet<>();

        ArchiveBundles(TraceFilesSurvey.Plan plan, TraceFilesBudget budget) {
            this.plan = plan;
            this.budget = budget;
        }

        /**
         * Whether the entry at {@code ordinal} is a bundle's or a campaign manifest (then it is handled
         * here). {@code data} is the entry's stream (shared with the archive when {@code shared}), or
         * null with {@code reopen} for an entry read by random access; both null for an entry that is
         * no regular file, {@code unusable} saying why.
         */
        boolean claims(int ordinal, String entryName, String name, String unusable, InputStream data, Opener reopen,
                boolean shared) throws IOException {
            String path = TraceBundles.normalized(entryName);
            String root = path == null ? null : plan.rootOf(path);
            if (root == null) {
                if (!plan.isCampaign(ordinal)) {
                    return false;
                }
                files++;
                campaigns++;
                for (TraceFilesSurvey.Note note : plan.notes(ordinal)) {
                    unreadable(note.name(), note.reason());
                }
                return true;
            }
            files++;
            if (closed.contains(root)) {
                skipped++;
                return true;
            }
            Pending bundle = open.get(root);
            if (bundle == null) {
                bundles++;
                TraceFilesSurvey.BundlePlan planned = plan.bundle(root);
                if (!planned.manifest.ok()) {
                    closed.add(root);
                    skipped++;
                    unreadable(plan.label(TraceBundles.join(root, TraceBundles.MANIFEST)), planned.manifest.problem());
                    return true;
                }
                bundle = new Pending(planned);
                open.put(root, bundle);
            }
            String relative = root.isEmpty() ? path : path.substring(root.length() + 1);
            String fault;
            try {
                fault = bundle.observe(relative, name, unusable, data, reopen);
            } catch (IOException e) {
                if (budget.exhausted()) {
                    throw new BudgetExhausted();
                }
                reject(root, bundle, name, reason(e));
                if (shared && !(e instanceof TraceFilesSpool.SpoolFailed)) {
                    throw e; // the archive's stream failed: the archive ends here
                }
                return true;
            }
            if (fault != null) {
                reject(root, bundle, name, fault);
                return true;
            }
            if (!relative.equals(bundle.manifest.tracePath())) {
                skipped++;
            }
            if (ordinal == bundle.planned.last) {
                finish(root, bundle);
            }
            return true;
        }

        /** The bundles still open when their archive ends (their last entries unknown, or cut off). */
        void finishAll() throws IOException {
            for (Map.Entry<String, Pending> e : List.copyOf(open.entrySet())) {
                finish(e.getKey(), e.getValue());
            }
        }

        private void finish(String root, Pending bundle) throws IOException {
            open.remove(root);
            closed.add(root);
            try {
                String missing = bundle.missing();
                if (missing != null) {
                    unreadable(plan.label(TraceBundles.join(root, missing)), MISSING);
                    return;
                }
                InputStream in;
                try {
                    in = bundle.spool != null ? bundle.spool.open()
                            : TraceBundles.rechecked(bundle.reopen.open(), bundle.manifest.trace());
                } catch (IOException e) {
                    unreadable(bundle.traceLabel, e);
                    return;
                }
                try (InputStream trace = in) {
                    trace(bundle.traceLabel, trace, budget, false,
                            identity(plan.label(root), bundle.manifest, bundle.planned.campaign));
                }
            } finally {
                bundle.close();
            }
        }

        private void reject(String root, Pending bundle, String name, String fault) {
            open.remove(root);
            closed.add(root);
            bundle.close();
            unreadable(name, fault);
        }

        @Override
        public void close() {
            open.values().forEach(Pending::close);
            open.clear();
        }
    }

    /** One bundle of an archive whose entries are being checked. */
    private final class Pending {
        final TraceFilesSurvey.BundlePlan planned;
        final TraceBundles.Manifest manifest;
        private final Set<String> seen = new HashSet<>();
        TraceFilesSpool spool;
        Opener reopen;
        String traceLabel;

        Pending(TraceFilesSurvey.BundlePlan planned) {
            this.planned = planned;
            this.manifest = planned.manifest.value();
        }

        /** Checks one entry of the bundle; its fault, or null. */
        String observe(String relative, String name, String unusable, InputStream data, Opener reopenEntry)
                throws IOException {
            if (unusable != null) {
                return unusable;
            }
            if (relative.equals(TraceBundles.MANIFEST)) {
                TraceBundles.Observed seenManifest = observeEntry(data, reopenEntry, TraceBundles.MAX_MANIFEST_BYTES,
                        null);
                return seenManifest.sha256().equals(manifest.sha256()) ? null
                        : "changed while the archive was read (its SHA-256 differs from the first reading's)";
            }
            BundleFile listed = manifest.files().get(relative);
            if (listed == null) {
                return NOT_LISTED;
            }
            if (!seen.add(relative)) {
                return "comes twice in the archive";
            }
            TraceFilesSpool copy = null;
            if (relative.equals(manifest.tracePath())) {
                traceLabel = name;
                if (data != null) {
                    spool = new TraceFilesSpool(spoolMemory);
                    copy = spool;
                } else {
                    reopen = reopenEntry;
                }
            }
            return TraceBundles.mismatch(listed, observeEntry(data, reopenEntry, listed.bytes(), copy));
        }

        private TraceBundles.Observed observeEntry(InputStream data, Opener reopenEntry, long listedBytes,
                TraceFilesSpool copy) throws IOException {
            if (data != null) {
                return TraceBundles.observe(data, listedBytes, copy);
            }
            try (InputStream in = reopenEntry.open()) {
                return TraceBundles.observe(in, listedBytes, copy);
            }
        }

        /** The first listed file not seen, or null. */
        String missing() {
            return manifest.files().keySet().stream().filter(p -> !seen.contains(p)).findFirst().orElse(null);
        }

        void close() {
            if (spool != null) {
                spool.close();
                spool = null;
            }
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
