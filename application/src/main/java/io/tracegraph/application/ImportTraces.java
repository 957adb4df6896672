package io.tracegraph.application;

import io.tracegraph.domain.graph.ExecutionGraph;
import io.tracegraph.domain.graph.GraphBuilder;
import io.tracegraph.domain.graph.GraphOutcome;
import io.tracegraph.domain.health.TraceHealth;
import io.tracegraph.domain.port.RunStore;
import io.tracegraph.domain.port.TraceReader;
import io.tracegraph.domain.run.BundleIdentity;
import io.tracegraph.domain.run.CampaignCapture;
import io.tracegraph.domain.run.ImportLogEntry;
import io.tracegraph.domain.run.ImportOutcome;
import io.tracegraph.domain.run.KnownContent;
import io.tracegraph.domain.run.RunToStore;
import io.tracegraph.domain.run.StoreResult;
import io.tracegraph.domain.trace.MalformedTraceException;
import io.tracegraph.domain.trace.RunMeta;
import io.tracegraph.domain.trace.StepSplit;
import io.tracegraph.domain.trace.TraceDocument;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Use case: import a batch of traces into the run store. Each trace is read, checked and built,
 * then stored in one transaction; malformed and untrusted traces are rejected with their reason and
 * the rest goes on. Content already stored is skipped before parsing. With {@code jobs > 1}, traces
 * of up to {@link #BUFFERED_TRACE_BYTES} are read into memory and processed in parallel; larger
 * ones are streamed in the batch's thread (the reader itself decodes on several threads).
 *
 * <p>A trace that came in a verified candle-graph bundle ({@link TraceBatch.Sink#trace(String,
 * InputStream, BundleIdentity)}) must be of the run_id its {@code bundle.json} names, and of the
 * entrypoint and capture step its campaign plans, if any; its run keeps the bundle's identity
 * ({@link RunToStore#bundle()}) and the tags {@link #BUNDLE_TAG}, {@link #CAMPAIGN_TAG} and
 * {@link #CAMPAIGN_STEP_TAG}.
 */
public final class ImportTraces {
    /** The tag naming the bundle a run came in: the SHA-256 of its {@code bundle.json}. */
    public static final String BUNDLE_TAG = "bundle";
    /** The tag naming the campaign that planned a run's capture: its {@code campaign_id}. */
    public static final String CAMPAIGN_TAG = "campaign";
    /** The tag giving the capture step that the campaign planned for the run. */
    public static final String CAMPAIGN_STEP_TAG = "campaign.step";

    /**
     * How the import report and log name a failed capture that was stored (followed by its reason): a
     * failed capture is a valid fact, stored as a run with outcome failed and what could be built.
     */
    public static final String FAILED_RUN = "stored as failed run: ";

    /** How releases before schema version 6 rejected a failed capture (the health's refusal). */
    private static final String EARLIER_FAILED_CAPTURE = "capture failed: ";

    /** Largest trace that is buffered in memory to be processed by a worker. */
    public static final int BUFFERED_TRACE_BYTES = 64 << 20;

    /**
     * What to import and how; {@code tags} are added to every stored run's own tags (replacing a tag
     * of the same key), e.g. the commit a directory of traces was recorded at. With
     * {@code splitSteps}, a trace whose root has step spans (PyTorch's {@code ProfilerStep#N}) is
     * stored as one run per step ({@link StepSplit}); a trace without steps is stored whole.
     */
    public record Command(TraceBatch batch, int jobs, boolean replace, ImportProgress progress,
            Map<String, String> tags, boolean splitSteps) {
        public Command {
            Objects.requireNonNull(batch, "batch");
            Objects.requireNonNull(progress, "progress");
            if (jobs < 1) {
                throw new IllegalArgumentException("jobs must be at least 1");
            }
            tags = Map.copyOf(tags);
        }

        public Command(TraceBatch batch, int jobs, boolean replace, ImportProgress progress,
                Map<String, String> tags) {
            this(batch, jobs, replace, progress, tags, false);
        }

        public Command(TraceBatch batch, int jobs, boolean replace, ImportProgress progress) {
            this(batch, jobs, replace, progress, Map.of());
        }
    }

    private final TraceReader reader;
    private final RunStore store;

    public ImportTraces(TraceReader reader, RunStore store) {
        this.reader = Objects.requireNonNull(reader, "reader");
        this.store = Objects.requireNonNull(store, "store");
    }

    /**
     * @throws UncheckedIOException when an input cannot be read for reasons outside the trace
     * @throws RuntimeException the store's own exception when the database fails (the import stops;
     *     runs already committed stay, the one in flight is rolled back)
     */
    public ImportReport run(Command command) {
        long started = System.nanoTime();
        Tally tally = new Tally(UUID.randomUUID(), command);
        ExecutorService workers = command.jobs() > 1 ? Executors.newFixedThreadPool(command.jobs(), r -> {
            Thread t = new Thread(r, "import-worker");
            t.setDaemon(true);
            return t;
        }) : null;
        Semaphore slots = new Semaphore(command.jobs() * 2);
        List<Future<?>> pending = new ArrayList<>();
        try {
            command.batch().forEach(new TraceBatch.Sink() {
                @Override
                public void trace(String name, InputStream in) {
                    accept(name, in, null);
                }

                @Override
                public void trace(String name, InputStream in, BundleIdentity bundle) {
                    accept(name, in, Objects.requireNonNull(bundle, "bundle"));
                }

                private void accept(String name, InputStream in, BundleIdentity bundle) {
                    int index = tally.nextIndex();
                    byte[] bytes;
                    try {
                        if (workers == null) {
                            tally.record(index, importOne(name, in, bundle, tally));
                            return;
                        }
                        bytes = in.readNBytes(BUFFERED_TRACE_BYTES + 1);
                        if (bytes.length > BUFFERED_TRACE_BYTES) {
                            InputStream rest = new java.io.SequenceInputStream(new ByteArrayInputStream(bytes), in);
                            tally.record(index, importOne(name, rest, bundle, tally));
                            return;
                        }
                    } catch (IOException | UncheckedIOException e) {
                        // The input itself could not be read (truncated archive, too large...): its fault.
                        tally.record(index, reject(name, readFailure(name, e), null, 0, tally));
                        return;
                    }
                    slots.acquireUninterruptibly();
                    pending.add(workers.submit(() -> {
                        try {
                            tally.record(index, importOne(name, new ByteArrayInputStream(bytes), bundle, tally));
                            return null;
                        } finally {
                            slots.release();
                        }
                    }));
                    failFast(pending);
                }

                @Override
                public void unreadable(String name, String reason) {
                    int index = tally.nextIndex();
                    tally.record(index, reject(name, reason, null, 0, tally));
                }
            });
            for (Future<?> f : pending) {
                await(f);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            if (workers != null) {
                workers.shutdownNow();
            }
        }
        return tally.report(Duration.ofNanos(System.nanoTime() - started));
    }

    private static String readFailure(String name, Exception e) {
        String message = e instanceof UncheckedIOException && e.getCause() != null ? e.getCause().getMessage()
                : e.getMessage();
        if (message == null) {
            message = e.getClass().getSimpleName();
        }
        return message.startsWith(name) ? message : name + ": " + message;
    }

    private static void failFast(List<Future<?>> pending) {
        pending.removeIf(f -> {
            if (!f.isDone()) {
                return false;
            }
            await(f);
            return true;
        });
    }

    private static void await(Future<?> f) {
        try {
            f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(cause);
        }
    }

    private Result importOne(String name, InputStream in, BundleIdentity bundle, Tally tally) throws IOException {
        MessageDigest sha = sha256();
        if (in instanceof ByteArrayInputStream) {
            // A buffered trace is hashed first, so that known content is not parsed again.
            byte[] bytes = in.readAllBytes();
            String hash = HexFormat.of().formatHex(sha.digest(bytes));
            Optional<Result> known = known(name, hash, bytes.length, tally);
            if (known.isPresent()) {
                return known.get();
            }
            return parseAndStore(name, new ByteArrayInputStream(bytes), sha, hash, bundle, tally);
        }
        return parseAndStore(name, new DigestInputStream(in, sha), sha, null, bundle, tally);
    }

    /** Content seen before: a duplicate of a stored run, or rejected again for what it is. */
    private Optional<Result> known(String name, String hash, long bytes, Tally tally) {
        Optional<KnownContent> known = store.knownContent(hash);
        if (known.isEmpty()) {
            return Optional.empty();
        }
        if (known.get() instanceof KnownContent.StoredRun run) {
            return Optional.of(done(name, ImportOutcome.DUPLICATE, "same content as run " + run.runId(), run.runId(),
                    hash, bytes, 0, 0, false, tally));
        }
        String reason = ((KnownContent.Rejected) known.get()).reason();
        if (reason.startsWith(EARLIER_FAILED_CAPTURE)) {
            // Rejected by a release that refused failed captures: read again, now stored as a failed run.
            return Optional.empty();
        }
        return Optional.of(done(name, ImportOutcome.PREVIOUSLY_REJECTED, reason, null, hash, bytes, 0, 0, false,
                tally));
    }

    /**
     * Reads, checks, builds and stores one trace. {@code hash} is known for buffered traces; for
     * streamed ones it is the digest of everything read, taken once the stream is drained. A trace
     * of a bundle must be the run that the bundle (and the campaign that planned it) names.
     */
    private Result parseAndStore(String name, InputStream in, MessageDigest sha, String hash, BundleIdentity bundle,
            Tally tally) throws IOException {
        CountingInput counted = new CountingInput(in);
        TraceDocument doc;
        try {
            doc = reader.read(name, counted);
        } catch (MalformedTraceException e) {
            String digest = drain(counted, sha, hash);
            Optional<Result> known = hash == null ? known(name, digest, counted.count, tally) : Optional.empty();
            return known.orElseGet(() -> rejectContent(name, e.problem().render(), digest, counted.count, tally));
        }
        String digest = drain(counted, sha, hash);
        Optional<String> foreign = bundle == null ? Optional.empty() : notTheBundlesRun(bundle, doc.run());
        if (foreign.isPresent()) {
            return reject(name, foreign.get(), digest, counted.count, tally);
        }
        if (tally.command.splitSteps()) {
            List<TraceDocument> steps = StepSplit.steps(doc);
            if (!steps.isEmpty()) {
                return storeSteps(name, steps, digest, counted.count, bundle, tally);
            }
        }
        GraphOutcome outcome = GraphBuilder.build(doc);
        ExecutionGraph graph;
        TraceHealth health;
        if (outcome instanceof GraphOutcome.Untrusted untrusted) {
            if (!untrusted.isFailedCapture()) {
                Optional<Result> known = hash == null ? known(name, digest, counted.count, tally) : Optional.empty();
                return known.orElseGet(() -> rejectContent(name, untrusted.message(), digest, counted.count, tally));
            }
            // A failed capture is a fact: stored as a failed run with what could be built of it.
            graph = untrusted.partialGraph();
            health = untrusted.health();
        } else {
            GraphOutcome.Built built = (GraphOutcome.Built) outcome;
            graph = built.graph();
            health = built.health();
        }
        long bytes = counted.count;
        StoreResult stored = store.store(new RunToStore(name, digest, bytes, doc.schema(),
                withTags(doc.run(), tags(bundle, tally.command.tags())), health, graph, bundle),
                tally.command.replace());
        if (stored instanceof StoreResult.Stored s) {
            String failure = graph.outcome().isFailed() ? FAILED_RUN + graph.outcome().reason() : null;
            return done(name, s.replaced() ? ImportOutcome.REPLACED : ImportOutcome.ACCEPTED, failure, s.runId(),
                    digest, bytes, graph.spans().size(), graph.edges().size(), false, tally);
        }
        if (stored instanceof StoreResult.Duplicate d) {
            return done(name, ImportOutcome.DUPLICATE, "same content as run " + d.runId(), d.runId(), digest, bytes,
                    0, 0, false, tally);
        }
        StoreResult.Conflict conflict = (StoreResult.Conflict) stored;
        return done(name, ImportOutcome.REJECTED, conflict.message(), null, digest, bytes, 0, 0, false, tally);
    }

    /**
     * Each step of a trace as its own run, under {@code NAME (step N)}: its content hash is the
     * trace's with the step number (so importing the trace again finds every step stored), the
     * trace's bytes count at its first step. The first step's result stands for the trace; the
     * others are counted besides it.
     */
    private Result storeSteps(String name, List<TraceDocument> steps, String digest, long bytes,
            BundleIdentity bundle, Tally tally) {
        Result first = null;
        for (TraceDocument step : steps) {
            String stepName = name + " (step " + step.run().captureStep() + ")";
            String stepDigest = HexFormat.of().formatHex(sha256().digest((digest + "\nstep="
                    + step.run().captureStep()).getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            long stepBytes = first == null ? bytes : 0;
            Result result;
            GraphOutcome outcome = GraphBuilder.build(step);
            if (outcome instanceof GraphOutcome.Untrusted untrusted) {
                result = rejectContent(stepName, untrusted.message(), stepDigest, stepBytes, tally);
            } else {
                GraphOutcome.Built built = (GraphOutcome.Built) outcome;
                StoreResult stored = store.store(new RunToStore(stepName, stepDigest, stepBytes, step.schema(),
                        withTags(step.run(), tags(bundle, tally.command.tags())), built.health(), built.graph(),
                        bundle), tally.command.replace());
                if (stored instanceof StoreResult.Stored s) {
                    result = done(stepName, s.replaced() ? ImportOutcome.REPLACED : ImportOutcome.ACCEPTED, null,
                            s.runId(), stepDigest, stepBytes, built.graph().spans().size(),
                            built.graph().edges().size(), false, tally);
                } else if (stored instanceof StoreResult.Duplicate d) {
                    result = done(stepName, ImportOutcome.DUPLICATE, "same content as run " + d.runId(), d.runId(),
                            stepDigest, stepBytes, 0, 0, false, tally);
                } else {
                    result = done(stepName, ImportOutcome.REJECTED, ((StoreResult.Conflict) stored).message(), null,
                            stepDigest, stepBytes, 0, 0, false, tally);
                }
            }
            if (first == null) {
                first = result;
            } else {
                tally.extra(result);
            }
        }
        return first;
    }

    /**
     * Why a bundle's trace is not the run its bundle names: another run_id than {@code bundle.json}'s
     * (candle-graph binds the two), or another entrypoint or capture step than the campaign plans.
     */
    private static Optional<String> notTheBundlesRun(BundleIdentity bundle, RunMeta run) {
        if (!bundle.runId().equals(run.runId())) {
            return Optional.of("bundle.json names run_id `" + bundle.runId() + "` but the trace is of run_id `"
                    + run.runId() + "`");
        }
        if (bundle.campaign() == null) {
            return Optional.empty();
        }
        CampaignCapture planned = bundle.campaign();
        if (!planned.entrypoint().equals(run.entrypoint())) {
            return Optional.of("campaign `" + planned.campaignId() + "` (" + planned.source() + ") plans entrypoint `"
                    + planned.entrypoint() + "` but the trace is of entrypoint `" + run.entrypoint() + "`");
        }
        if (planned.captureStep() != run.captureStep()) {
            return Optional.of("campaign `" + planned.campaignId() + "` (" + planned.source() + ") plans capture_step "
                    + planned.captureStep() + " for bundle " + planned.bundle() + " but the trace is of capture_step "
                    + run.captureStep());
        }
        return Optional.empty();
    }

    /**
     * The tags a run gets besides its own: {@code bundle} (the SHA-256 of the bundle's
     * {@code bundle.json}), {@code campaign} and {@code campaign.step} for a capture a campaign planned,
     * then the command's tags, which win.
     */
    static Map<String, String> tags(BundleIdentity bundle, Map<String, String> commandTags) {
        if (bundle == null) {
            return commandTags;
        }
        Map<String, String> tags = new LinkedHashMap<>();
        tags.put(BUNDLE_TAG, bundle.manifestSha256());
        bundle.plannedBy().ifPresent(c -> {
            tags.put(CAMPAIGN_TAG, c.campaignId());
            tags.put(CAMPAIGN_STEP_TAG, Long.toString(c.captureStep()));
        });
        tags.putAll(commandTags);
        return tags;
    }

    /** Reads the rest of the stream so the digest covers the whole trace; returns the hex digest. */
    private static String drain(InputStream in, MessageDigest sha, String hash) throws IOException {
        in.transferTo(java.io.OutputStream.nullOutputStream());
        return hash != null ? hash : HexFormat.of().formatHex(sha.digest());
    }

    private Result reject(String name, String reason, String sha, long bytes, Tally tally) {
        return done(name, ImportOutcome.REJECTED, reason, null, sha, bytes, 0, 0, false, tally);
    }

    private Result rejectContent(String name, String reason, String sha, long bytes, Tally tally) {
        return done(name, ImportOutcome.REJECTED, reason, null, sha, bytes, 0, 0, true, tally);
    }

    private Result done(String name, ImportOutcome outcome, String reason, String runId, String sha, long bytes,
            long nodes, long edges, boolean contentFault, Tally tally) {
        store.log(new ImportLogEntry(tally.importId, name, outcome, reason, runId, sha, contentFault));
        tally.command.progress().done(name, outcome, bytes);
        return new Result(name, outcome, reason, runId, bytes, nodes, edges);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private record Result(String name, ImportOutcome outcome, String reason, String runId, long bytes, long nodes,
            long edges) {
    }

    /** Counts what passes through. */
    private static final class CountingInput extends java.io.FilterInputStream {
        long count;

        CountingInput(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                count++;
            }
            return b;
        }

        @Override
        public int read(byte[] buf, int off, int len) throws IOException {
            int n = super.read(buf, off, len);
            if (n > 0) {
                count += n;
            }
            return n;
        }
    }

    /** Results by input order, so that the report lists rejections in the order inputs came. */
    private static final class Tally {
        final UUID importId;
        final Command command;
        private final AtomicLong next = new AtomicLong();
        private final java.util.Map<Integer, Result> results = new java.util.concurrent.ConcurrentHashMap<>();
        private final java.util.Queue<Result> extras = new java.util.concurrent.ConcurrentLinkedQueue<>();

        Tally(UUID importId, Command command) {
            this.importId = importId;
            this.command = command;
        }

        int nextIndex() {
            return (int) next.getAndIncrement();
        }

        void record(int index, Result result) {
            results.put(index, result);
        }

        /** A result besides the one of its input (the further steps of a split trace). */
        void extra(Result result) {
            extras.add(result);
        }

        ImportReport report(Duration elapsed) {
            long imported = 0;
            long replaced = 0;
            long duplicates = 0;
            long previouslyRejected = 0;
            long nodes = 0;
            long edges = 0;
            long bytes = 0;
            List<ImportReport.Rejection> rejections = new ArrayList<>();
            List<Result> all = new ArrayList<>();
            List<ImportReport.FailedRun> failedRuns = new ArrayList<>();
            for (int i = 0; i < next.get(); i++) {
                Result r = results.get(i);
                if (r != null) {
                    all.add(r);
                }
            }
            all.addAll(extras);
            for (Result r : all) {
                bytes += r.bytes();
                nodes += r.nodes();
                edges += r.edges();
                if ((r.outcome() == ImportOutcome.ACCEPTED || r.outcome() == ImportOutcome.REPLACED)
                        && r.reason() != null && r.reason().startsWith(FAILED_RUN)) {
                    failedRuns.add(new ImportReport.FailedRun(r.name(), r.runId(),
                            r.reason().substring(FAILED_RUN.length())));
                }
                switch (r.outcome()) {
                    case ACCEPTED: imported++; break;
                    case REPLACED: replaced++; break;
                    case DUPLICATE: duplicates++; break;
                    case PREVIOUSLY_REJECTED:
                        previouslyRejected++;
                        rejections.add(new ImportReport.Rejection(r.name(), "rejected before: " + r.reason()));
                        break;
                    default: rejections.add(new ImportReport.Rejection(r.name(), r.reason()));
                }
            }
            return new ImportReport(next.get() + extras.size(), imported, replaced, duplicates, previouslyRejected,
                    rejections, nodes, edges, bytes, elapsed, failedRuns);
        }
    }

    private static RunMeta withTags(RunMeta meta, Map<String, String> extra) {
        if (extra.isEmpty()) {
            return meta;
        }
        Map<String, String> tags = new HashMap<>(meta.tags());
        tags.putAll(extra);
        return new RunMeta(meta.runId(), meta.correlationId(), meta.entrypoint(), meta.phase(), meta.timestamp(),
                meta.captureStep(), meta.warmupSteps(), meta.device(), meta.timingMode(), tags, meta.candleVersion(),
                meta.measuredRegionDeviceSynchronized(), meta.captureContract(), meta.comparisonIdentity());
    }
}
