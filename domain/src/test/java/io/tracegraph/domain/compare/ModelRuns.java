package io.tracegraph.domain.compare;

import io.tracegraph.domain.graph.SemanticPaths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Synthetic runs of one small model (21 semantic paths): every node's self time and the run's
 * memory peak carry seeded multiplicative noise, totals are summed bottom-up as the graph builder
 * does, so slowing one span slows its ancestors by the same amount of time.
 */
final class ModelRuns {
    /** The slowest op; about 38% of the root's total time. */
    static final String SLOWED = "loss/Encoder::forward/Layer1::forward/attention/matmul";
    static final List<String> SLOWED_AND_ANCESTORS = List.of(SLOWED,
            "loss/Encoder::forward/Layer1::forward/attention",
            "loss/Encoder::forward/Layer1::forward",
            "loss/Encoder::forward",
            "loss");
    static final long BASE_PEAK_BYTES = 1_000_000_000L;

    /** Path, kind, self time in microseconds, bytes; parents before children. */
    private static final Object[][] MODEL = {
            {"loss", "root", 20, 0},
            {"loss/Encoder::forward", "module", 30, 0},
            {"loss/Encoder::forward/embed", "op", 400, 4_000_000},
            {"loss/Encoder::forward/Layer0::forward", "module", 30, 0},
            {"loss/Encoder::forward/Layer0::forward/attention", "function", 40, 0},
            {"loss/Encoder::forward/Layer0::forward/attention/matmul", "op", 800, 8_000_000},
            {"loss/Encoder::forward/Layer0::forward/attention/softmax", "op", 200, 2_000_000},
            {"loss/Encoder::forward/Layer0::forward/mlp", "function", 40, 0},
            {"loss/Encoder::forward/Layer0::forward/mlp/matmul", "op", 900, 9_000_000},
            {"loss/Encoder::forward/Layer0::forward/mlp/gelu", "op", 150, 1_500_000},
            {"loss/Encoder::forward/Layer1::forward", "module", 30, 0},
            {"loss/Encoder::forward/Layer1::forward/attention", "function", 40, 0},
            {SLOWED, "op", 3000, 30_000_000},
            {"loss/Encoder::forward/Layer1::forward/attention/softmax", "op", 200, 2_000_000},
            {"loss/Encoder::forward/Layer1::forward/mlp", "function", 40, 0},
            {"loss/Encoder::forward/Layer1::forward/mlp/matmul", "op", 900, 9_000_000},
            {"loss/Encoder::forward/Layer1::forward/mlp/gelu", "op", 150, 1_500_000},
            {"loss/Decoder::forward", "module", 30, 0},
            {"loss/Decoder::forward/matmul", "op", 700, 7_000_000},
            {"loss/Decoder::forward/log_softmax", "op", 100, 1_000_000},
            {"loss/nll", "op", 50, 500_000},
    };

    private final SplittableRandom random;
    private double noise = 0.05;
    private double wrapperNoise = 0.05;
    private double slowdown = 1.0;
    private double memoryGrowth = 1.0;

    private ModelRuns(long seed) {
        this.random = new SplittableRandom(seed);
    }

    static ModelRuns seeded(long seed) {
        return new ModelRuns(seed);
    }

    static List<String> paths() {
        return Arrays.stream(MODEL).map(row -> (String) row[0]).toList();
    }

    static long hash(String path) {
        return SemanticPaths.hashOf(List.of(path.split("/")));
    }

    /** Relative noise of every self time: uniform in {@code ±noise}. */
    ModelRuns noise(double value) {
        this.noise = value;
        return this;
    }

    /** Relative noise of the self time of spans that have children. */
    ModelRuns wrapperNoise(double value) {
        this.wrapperNoise = value;
        return this;
    }

    /** Multiplies the self time (and bytes) of {@link #SLOWED} by {@code factor}. */
    ModelRuns slowedBy(double factor) {
        this.slowdown = factor;
        return this;
    }

    ModelRuns memoryGrownBy(double factor) {
        this.memoryGrowth = factor;
        return this;
    }

    List<RunFacts> runs(String prefix, int count) {
        List<RunFacts> runs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            runs.add(run(String.format(Locale.ROOT, "%s-%02d", prefix, i)));
        }
        return runs;
    }

    RunFacts run(String runId) {
        int n = MODEL.length;
        long[] self = new long[n];
        long[] total = new long[n];
        long[] bytes = new long[n];
        List<String> paths = paths();
        for (int i = 0; i < n; i++) {
            String path = paths.get(i);
            boolean wrapper = i + 1 < n && paths.get(i + 1).startsWith(path + "/");
            double factor = path.equals(SLOWED) ? slowdown : 1.0;
            double spread = wrapper ? wrapperNoise : noise;
            double jitter = 1 + spread * (2 * random.nextDouble() - 1);
            self[i] = Math.round(((Integer) MODEL[i][2]) * 1000.0 * factor * jitter);
            bytes[i] = Math.round(((Integer) MODEL[i][3]) * factor);
            total[i] = self[i];
        }
        for (int i = n - 1; i > 0; i--) {
            int parent = paths.indexOf(paths.get(i).substring(0, paths.get(i).lastIndexOf('/')));
            total[parent] += total[i];
        }
        List<PathStats> stats = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String path = paths.get(i);
            stats.add(PathStats.of(path, hash(path), (String) MODEL[i][1], self[i], total[i], bytes[i], bytes[i]));
        }
        long peak = Math.round(BASE_PEAK_BYTES * memoryGrowth * (1 + 0.01 * (2 * random.nextDouble() - 1)));
        return new RunFacts(runId, total[0] / 1e6, peak, stats);
    }
}
