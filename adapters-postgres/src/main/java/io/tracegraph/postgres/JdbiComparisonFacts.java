package io.tracegraph.postgres;

import static io.tracegraph.domain.task.Tasks.join;
import static io.tracegraph.postgres.Reads.DAEMON;
import static io.tracegraph.postgres.Reads.call;
import static io.tracegraph.postgres.Reads.gone;
import static io.tracegraph.postgres.RunRows.gradients;

import io.tracegraph.domain.compare.GradientFact;
import io.tracegraph.domain.compare.PathStats;
import io.tracegraph.domain.compare.RunFacts;
import io.tracegraph.domain.port.ComparisonFacts;
import io.tracegraph.domain.run.RunRef;
import io.tracegraph.domain.trace.ComparisonIdentity;
import io.tracegraph.domain.trace.RunOutcome;
import io.tracegraph.domain.trace.TensorStats;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.transaction.TransactionIsolationLevel;

/**
 * The PostgreSQL reader of what comparisons need of stored runs: each run's path statistics as
 * stored at import (V5 {@code path_packs}, packed columns read with binary COPY, with their device
 * times since V6), its totals and gradients, its outcome, identity, tensor statistics and device
 * time, several runs read at once on connections of their own.
 */
final class JdbiComparisonFacts implements ComparisonFacts {
    private final Jdbi jdbi;
    private final int parallelism;
    /**
     * The path texts the last {@link #facts} call used (its first run's, and those it probed): the
     * next call, mostly about runs with the same paths, need not read them again.
     */
    private volatile PathTexts reference;

    JdbiComparisonFacts(Jdbi jdbi) {
        // Twice the cores, at most 4: while one reader decodes, another's rows are being produced.
        this(jdbi, Math.max(2, Math.min(4, 2 * Runtime.getRuntime().availableProcessors())));
    }

    /** {@code parallelism}: how many connections {@link #facts} uses at once. */
    JdbiComparisonFacts(Jdbi jdbi, int parallelism) {
        this.jdbi = Objects.requireNonNull(jdbi, "jdbi");
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism must be at least 1: " + parallelism);
        }
        this.parallelism = parallelism;
    }

    @Override
    public List<PathStats> pathStats(RunRef run) {
        return call(() -> jdbi.inTransaction(TransactionIsolationLevel.REPEATABLE_READ, h -> {
            PackedPaths columns = PackedPaths.read(h, run.key(), run.key());
            String[] texts = PathTexts.read(h, run);
            if (texts.length != columns.hashes().length) {
                throw new SQLException("run " + run.runId() + " has " + texts.length + " path texts for "
                        + columns.hashes().length + " paths");
            }
            return columns.stats(texts);
        }));
    }

    @Override
    public List<RunFacts> facts(List<RunRef> runs, boolean gradients) {
        List<RunRef> wanted = List.copyOf(runs);
        int n = wanted.size();
        if (n == 0) {
            return List.of();
        }
        // Each run's statistics come as one row of packed columns (path_columns), without path texts:
        // those of the first run are read once (unless an earlier call left some), the runs compared
        // with it mostly have the same paths in the same order, and the few texts still unknown are
        // probed. Each reader keeps one connection for all it reads (a new one costs tens of ms); the
        // tasks are the first run's texts, then each run.
        PathTexts known = reference;
        int tasks = known == null ? n + 1 : n;
        Object[] read = new Object[tasks];
        AtomicInteger next = new AtomicInteger();
        int helpers = Math.min(parallelism, n) - 1;
        ExecutorService pool = helpers <= 0 ? null : Executors.newFixedThreadPool(helpers, DAEMON);
        try {
            List<CompletableFuture<Void>> readers = new ArrayList<>();
            for (int i = 0; i < helpers; i++) {
                readers.add(CompletableFuture.runAsync(() -> call(() -> {
                    try (Handle h = jdbi.open()) {
                        readTasks(h, wanted, known == null, read, next, gradients);
                    }
                    return null;
                }), pool));
            }
            return call(() -> {
                try (Handle h = jdbi.open()) {
                    try {
                        readTasks(h, wanted, known == null, read, next, gradients);
                    } finally {
                        // On failure the helpers find no task left.
                        next.set(tasks);
                    }
                    for (CompletableFuture<Void> reader : readers) {
                        join(reader);
                    }
                    PathTexts texts = known != null ? known : PathTexts.of(wanted.get(0),
                            ((StoredFacts) read[1]).columns().hashes(), (String[]) read[0]);
                    StoredFacts[] stored = new StoredFacts[n];
                    System.arraycopy(read, tasks - n, stored, 0, n);
                    PackedPaths first = stored[0].columns();
                    for (int i = 1; i < n; i++) {
                        stored[i] = stored[i].like(first);
                    }
                    // The texts known already, for all runs at once; then those to probe, on this connection.
                    String[][] names = new String[n][];
                    IntStream.range(0, n).parallel()
                            .forEach(i -> names[i] = texts.known(stored[i].columns().hashes()));
                    for (int i = 0; i < n; i++) {
                        texts.probe(h, wanted.get(i), stored[i].columns().hashes(), names[i]);
                    }
                    RunFacts[] facts = new RunFacts[n];
                    IntStream.range(0, n).parallel().forEach(i -> facts[i] = new RunFacts(wanted.get(i).runId(),
                            stored[i].totalMs(), stored[i].peakBytes(), stored[i].columns().stats(names[i]),
                            stored[i].gradients(), stored[i].outcome(), stored[i].identity(),
                            stored[i].tensorStats(), stored[i].deviceTimeNs()));
                    reference = texts;
                    return List.of(facts);
                }
            });
        } finally {
            if (pool != null) {
                pool.shutdownNow();
            }
        }
    }

    /**
     * Does the tasks {@code next} hands out until none is left: with {@code firstTexts}, task 0 reads
     * the first run's path texts and task {@code i + 1} run {@code i}; else task {@code i} reads run
     * {@code i}.
     */
    private static void readTasks(Handle h, List<RunRef> runs, boolean firstTexts, Object[] read, AtomicInteger next,
            boolean gradients) throws SQLException {
        for (int task = next.getAndIncrement(); task < read.length; task = next.getAndIncrement()) {
            if (firstTexts && task == 0) {
                read[0] = PathTexts.read(h, runs.get(0));
            } else {
                read[task] = storedFacts(h, runs.get(firstTexts ? task - 1 : task), runs.get(0), gradients);
            }
        }
    }

    /** What {@link #facts} reads of one run in one transaction: all but its path texts. */
    private record StoredFacts(double totalMs, long peakBytes, PackedPaths columns, List<GradientFact> gradients,
            RunOutcome outcome, ComparisonIdentity identity, List<TensorStats> tensorStats, Long deviceTimeNs) {
        StoredFacts like(PackedPaths first) {
            return new StoredFacts(totalMs, peakBytes, columns.like(first), gradients, outcome, identity, tensorStats,
                    deviceTimeNs);
        }
    }

    /** The run's row of runs as far as a comparison needs it. */
    private record Totals(double totalMs, long peakBytes, RunOutcome outcome, ComparisonIdentity identity,
            Long deviceTimeNs) {
    }

    private static StoredFacts storedFacts(Handle handle, RunRef run, RunRef like, boolean withGradients)
            throws SQLException {
        return handle.inTransaction(TransactionIsolationLevel.REPEATABLE_READ, h -> {
            Totals totals = h.createQuery("SELECT r.total_ms, coalesce(m.peak_bytes, 0) AS peak_bytes, r.outcome, "
                    + "r.outcome_reason, r.terminal_timestamp_ns, r.device_time_ns, " + RunRows.IDENTITY_COLUMNS
                    + " FROM runs r LEFT JOIN memory_summaries m ON m.run_key = r.run_key WHERE r.run_key = :key")
                    .bind("key", run.key())
                    .map((rs, ctx) -> new Totals(rs.getDouble("total_ms"), rs.getLong("peak_bytes"),
                            RunRows.outcome(rs), RunRows.identity(rs), rs.getObject("device_time_ns", Long.class)))
                    .findOne()
                    .orElseThrow(() -> gone(run));
            List<GradientFact> gradients = withGradients
                    ? gradients(h, run.key()).stream().map(GradientFact::of).toList()
                    : List.of();
            return new StoredFacts(totals.totalMs(), totals.peakBytes(), PackedPaths.read(h, run.key(), like.key()),
                    gradients, totals.outcome(), totals.identity(), JdbiStoredGraphs.tensorStats(h, run.key()),
                    totals.deviceTimeNs());
        });
    }
}
