package io.tracegraph.json;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

/**
 * Deterministic generator of synthetic {@code candle-graph/trace/6} JSONL traces, for tests and
 * benchmarks (JDK only, no Jackson).
 *
 * <pre>{@code
 * SyntheticTrace.training().ops(1_000_000).seed(7).writeTo(Path.of("/tmp/bench/train_1m.jsonl"));
 * SyntheticTrace.inference().ops(150).seed(2).device("cpu").tag("owner", "bench").writeTo(writer);
 * SyntheticTrace.deepChain(100_000).writeTo(path);   // 100k nested spans, one op at the bottom
 * SyntheticTrace.wide(50_000).writeTo(path);         // 50k sibling spans under the measured span
 * }</pre>
 *
 * <p>What a trace looks like (training): meta; root span {@code s1} (function, name = entrypoint,
 * not measured); measured span {@code "update"}; a device checkpoint and one {@code parameter}
 * allocation per parameter; {@code Model::forward} (step forward) with {@code Embedding::forward},
 * one {@code Layer<i>::forward} per layer (LayerNorm / Attention with a Linear child / LayerNorm /
 * Mlp) and the head (LayerNorm, Linear, cross_entropy); {@code backward} (step backward) walking
 * the layers in reverse and freeing each layer's activations when it is done; {@code AdamW::step}
 * (step optimizer) with one in-place {@code adamw} op and one retained {@code optimizer} state
 * allocation per parameter, freeing the parameter gradients; one {@code gradient} record per
 * parameter (mostly present, a few missing or zero); device checkpoints; a few sibling
 * {@code edge} records. Inference has the forward pass only (measured span {@code "infer_step"},
 * temporaries freed at once, the per-layer K/V tensors retained as a KV cache) and a
 * {@code sample} span.
 *
 * <p>Guarantees, for every seed and size: exactly the requested number of {@code op} records;
 * span ids {@code s1, s2, ...} and tensor ids {@code t1, t2, ...} in creation order; records in
 * time order (span_start, its ops/memory/children interleaved as they happen, span_end); exactly
 * one root and one measured span; every span closed, inside its parent, children's durations
 * summing to at most the parent's; every reference to a span resolves; each (device, tensor)
 * allocated once and freed at most once, after its allocation; memory timestamps non-decreasing
 * in file order; each op's inputs produced earlier (by an op or an allocation). So the health
 * check of spec section 3 trusts every generated trace. Its only warning is
 * {@code retained_allocations} (parameters and optimizer state, or the KV cache, stay live), plus
 * {@code tensors_absent} for deep/wide, which write no tensor checkpoints (both have phase
 * {@code infer}, so no training gap warnings apply); {@code ops(0)} adds {@code operations_absent}.
 * Records are compact JSON with members in the declaration order of spec section 1.3, optional
 * members omitted, defaulted ones written, {@code storage_bytes} always written (spec 1.6).
 *
 * <p>Scaling: the number of layers grows with {@code ops} (about 103 ops and 12 spans per
 * training layer, 44 ops and 5 spans per inference layer, i.e. one span per ~8-9 ops); the
 * remainder is made up by {@code contiguous} copies sprinkled evenly over the forward/backward
 * ops, and for sizes below one layer's worth ops are dropped evenly (their outputs aliased to
 * their first input). Model dimensions are drawn from the seed and shrunk when many layers would
 * exceed about 60% of the device capacity. Output is streamed (nothing but per-tensor metadata
 * of a few bytes each is kept), about 690 bytes per op for training.
 *
 * <p>Command line: {@code SyntheticTrace [train|infer|deep|wide] N OUTFILE [--seed S]
 * [--timing-seed S] [--device D] [--run-id ID] [--tag KEY=VALUE]... [--slow SPAN=FACTOR]
 * [--grow SPAN=TENSORS]}; {@code N} is the op count for train/infer,
 * the depth for deep and the number of children for wide. A name ending in {@code .gz} is
 * gzip-compressed.
 */
public final class SyntheticTrace {

    /** Trace schema written into the meta record. */
    public static final String SCHEMA = "candle-graph/trace/6";
    /** Largest accepted {@link #ops(long)}. */
    public static final long MAX_OPS = 20_000_000L;

    private enum Shape { TRAIN, INFER, DEEP, WIDE }

    private final Shape shape;
    private final int size;
    private long ops = 1_000;
    private long seed = 1;
    private String device = "cuda:0";
    private String runId;
    private final Map<String, String> tags = new LinkedHashMap<>();
    private Long timingSeed;
    private String slowedSpan;
    private double slowdown = 1;
    private String growingSpan;
    private int extraTensors;
    private int revision = 6;
    private boolean hierarchyEdges;
    private String failure;
    private long nonFinite;

    private SyntheticTrace(Shape shape, int size) {
        this.shape = shape;
        this.size = size;
    }

    /** A training update (phase {@code train}); 1,000 ops unless {@link #ops(long)} says otherwise. */
    public static SyntheticTrace training() {
        return new SyntheticTrace(Shape.TRAIN, 0);
    }

    /** An inference step (phase {@code infer}); 1,000 ops unless {@link #ops(long)} says otherwise. */
    public static SyntheticTrace inference() {
        return new SyntheticTrace(Shape.INFER, 0);
    }

    /** Root + measured span + a chain of {@code depth} nested spans; one op in the innermost. */
    public static SyntheticTrace deepChain(int depth) {
        if (depth < 0) {
            throw new IllegalArgumentException("depth must be >= 0: " + depth);
        }
        return new SyntheticTrace(Shape.DEEP, depth);
    }

    /** Root + measured span with {@code children} direct child spans, each with one op. */
    public static SyntheticTrace wide(int children) {
        if (children < 0) {
            throw new IllegalArgumentException("children must be >= 0: " + children);
        }
        return new SyntheticTrace(Shape.WIDE, children);
    }

    /** Exact number of {@code op} records to write (training and inference only). */
    public SyntheticTrace ops(long n) {
        if (shape == Shape.DEEP || shape == Shape.WIDE) {
            throw new IllegalStateException("ops() applies to training() and inference() only");
        }
        if (n < 0 || n > MAX_OPS) {
            throw new IllegalArgumentException("ops must be within 0.." + MAX_OPS + ": " + n);
        }
        this.ops = n;
        return this;
    }

    public SyntheticTrace seed(long seed) {
        this.seed = seed;
        return this;
    }

    /** Device of every record; {@code cuda*} devices use device-synchronized timing, others host. */
    public SyntheticTrace device(String device) {
        if (Objects.requireNonNull(device, "device").isEmpty()) {
            throw new IllegalArgumentException("device must not be empty");
        }
        this.device = device;
        return this;
    }

    /** Run id of the meta record; default {@code <shape>-s<seed>}, e.g. {@code train-s42}. */
    public SyntheticTrace runId(String id) {
        this.runId = Objects.requireNonNull(id, "runId");
        return this;
    }

    /** Adds (or replaces) a meta tag; written after the generated ones, or in place of one. */
    public SyntheticTrace tag(String key, String value) {
        tags.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
        return this;
    }

    /**
     * Draws op durations and gaps from {@code seed} instead of the model's seed: runs of one model
     * (same {@link #seed}, so the same structure, sizes and gradient states) with their own timing
     * noise, as repeated runs of one commit are.
     */
    public SyntheticTrace timingSeed(long seed) {
        this.timingSeed = seed;
        return this;
    }

    /**
     * Stretches every span named {@code spanName} to {@code factor} times its duration, the added
     * time spent in the span itself (its ops and child spans keep their durations): the span's self
     * and total time and its ancestors' total time grow, nothing else does.
     */
    public SyntheticTrace slowSpan(String spanName, double factor) {
        if (!(factor >= 1 && Double.isFinite(factor))) {
            throw new IllegalArgumentException("factor must be at least 1: " + factor);
        }
        this.slowedSpan = Objects.requireNonNull(spanName, "spanName");
        this.slowdown = factor;
        return this;
    }

    /**
     * Where a span named {@code spanName} first starts, allocates {@code tensors} workspace tensors
     * (category {@code other}, the size of the fp32 logits) that stay live until the optimizer
     * step ends (training) or the step ends (inference): the memory peak grows by their size.
     */
    public SyntheticTrace growMemory(String spanName, int tensors) {
        if (tensors < 0) {
            throw new IllegalArgumentException("tensors must be >= 0: " + tensors);
        }
        this.growingSpan = Objects.requireNonNull(spanName, "spanName");
        this.extraTensors = tensors;
        return this;
    }

    /**
     * Writes the same workload as {@code candle-graph/trace/<revision>} (6..10), the way candle-graph
     * 0.8.0 to 0.9.5 write it: from trace/7 on, the meta record carries a capture contract (from
     * trace/9 with the exact gradient contract of a training run) and a comparison identity
     * ({@code implementation_id} from trace/8), ops carry {@code output_dense_bytes} /
     * {@code input_dense_bytes}, tensors a {@code label} for a few and {@code dense_bytes}, memory
     * records a {@code storage_id} (one storage per tensor), device checkpoints a
     * {@code capacity_bytes}, edges are typed ({@code edge_kind}: call edges, plus a few recorded data
     * edges that repeat an op's input→output pair), spans with ops on a cuda device get
     * {@code device_interval}s, trace/10 adds {@code tensor_stats} for the loss (training) or the
     * logits (inference), and a {@code terminal} record ends the trace. Call edges then run from a
     * span's parent to the span with its duration ({@link #hierarchyEdges()}, which trace/7 requires);
     * warm-up steps are kept below the capture step. Structure, ids, times, bytes and memory are
     * those of the trace/6 form with {@link #hierarchyEdges()}: the two are twins.
     */
    public SyntheticTrace schema(int revision) {
        if (revision < 6 || revision > 10) {
            throw new IllegalArgumentException("revision must be within 6..10: " + revision);
        }
        this.revision = revision;
        if (revision >= 7) {
            this.hierarchyEdges = true;
        }
        return this;
    }

    /**
     * Ends a trace/7+ capture with a {@code failed} terminal record and {@code reason} instead of a
     * complete one (every span is still closed: a structurally valid failed capture).
     */
    public SyntheticTrace failed(String reason) {
        this.failure = Objects.requireNonNull(reason, "reason");
        return this;
    }

    /**
     * Gives every trace/10 {@code tensor_stats} record {@code count} non-finite elements (at most its
     * element count) instead of none.
     */
    public SyntheticTrace nonFinite(long count) {
        if (count < 0) {
            throw new IllegalArgumentException("count must be >= 0: " + count);
        }
        this.nonFinite = count;
        return this;
    }

    /**
     * Writes each {@code edge} record from the span's parent to the span, with the span's duration
     * (as candle-graph's {@code record_call_edge} is used), instead of between consecutive siblings
     * with the gap between them; the default for trace/7 and later.
     */
    public SyntheticTrace hierarchyEdges() {
        this.hierarchyEdges = true;
        return this;
    }

    /** Writes the trace to {@code file}; gzip (fastest level) when the name ends with {@code .gz}. */
    public void writeTo(Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        boolean gz = file.getFileName().toString().endsWith(".gz");
        try (OutputStream raw = Files.newOutputStream(file);
             OutputStream os = gz ? new FastGzip(raw) : raw) {
            generate(new Out(os, null));
        }
    }

    /** Gzip at {@link Deflater#BEST_SPEED}: about 3x faster than the default level, 50% larger. */
    private static final class FastGzip extends GZIPOutputStream {
        FastGzip(OutputStream out) throws IOException {
            super(out, 1 << 16);
            def.setLevel(Deflater.BEST_SPEED);
        }
    }

    /** Writes the trace to {@code out} (flushed, not closed). */
    public void writeTo(Writer out) throws IOException {
        generate(new Out(null, Objects.requireNonNull(out, "out")));
        out.flush();
    }

    private void generate(Out out) throws IOException {
        try {
            Plan plan = plan();
            Gen gen = new Gen(this, plan, out);
            gen.run();
            out.flush();
            if (gen.emittedOps != plan.targetOps && plan.targetOps >= 0) {
                throw new IllegalStateException("generator bug: wrote " + gen.emittedOps
                        + " ops, wanted " + plan.targetOps);
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    // ---------------------------------------------------------------------------------------
    // Planning: model configuration, number of layers, drop / extra mode (dry runs, no output)

    private static final long BASE_USED = 629_145_600L;

    static long capacityOf(String device) {
        return device.startsWith("cuda") ? 85_899_345_920L : 68_719_476_736L;
    }

    private static final class Config {
        int batch;
        int seq;
        int dim;
        int heads;
        int vocab;
        String act;
        String commit;
        String timestamp;
        long captureStep;
        long warmupSteps;

        Config copy() {
            Config c = new Config();
            c.batch = batch;
            c.seq = seq;
            c.dim = dim;
            c.heads = heads;
            c.vocab = vocab;
            c.act = act;
            c.commit = commit;
            c.timestamp = timestamp;
            c.captureStep = captureStep;
            c.warmupSteps = warmupSteps;
            return c;
        }
    }

    private static final class Plan {
        Config cfg;
        int layers;
        long targetOps = -1;   // -1: not op-driven (deep / wide)
        long naturalOps;       // ops the structure has without dropping / extras
        long eligibleOps;      // forward/backward ops that may get a contiguous copy
        boolean drop;
        long extra;
        SplittableRandom rng;
    }

    private static final DateTimeFormatter ISO_MILLIS =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);

    private Plan plan() {
        SplittableRandom root = new SplittableRandom(seed);
        Config c = new Config();
        boolean cuda = device.startsWith("cuda");
        c.act = cuda ? pick(root, "bf16", "bf16", "f16", "f32") : "f32";
        c.batch = pickInt(root, 2, 4, 8);
        c.seq = pickInt(root, 16, 32, 64, 128);
        c.dim = pickInt(root, 64, 128, 256);
        c.heads = c.dim / 32;
        c.vocab = pickInt(root, 256, 1024, 8192, 32000);
        c.commit = String.format(Locale.ROOT, "%012x", root.nextLong() & 0xffff_ffff_ffffL);
        long start = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();
        c.timestamp = ISO_MILLIS.format(Instant.ofEpochMilli(start + root.nextLong(180L * 86_400_000L)));
        c.captureStep = 1 + root.nextInt(1_000);
        c.warmupSteps = root.nextInt(6);
        Plan p = new Plan();
        p.rng = root.split();
        p.cfg = c;
        if (shape == Shape.DEEP || shape == Shape.WIDE) {
            c.batch = 2;
            c.seq = 16;
            c.dim = 64;
            c.heads = 2;
            p.layers = 0;
            return p;
        }
        p.targetOps = ops;
        Gen one = dryRun(c, 1);
        Gen two = dryRun(c, 2);
        long perLayer = two.natural - one.natural;
        long fixed = one.natural - perLayer;
        p.layers = (int) Math.max(1, (ops - fixed) / perLayer);
        long budget = (long) (capacityOf(device) * 0.6) - BASE_USED;
        Gen dry = dryRun(c, p.layers);
        while (dry.peakBytes > budget) {
            Config s = c.copy();
            if (s.seq > 16) {
                s.seq /= 2;
            } else if (s.batch > 1) {
                s.batch /= 2;
            } else if (s.dim > 32) {
                s.dim /= 2;
                s.heads = Math.max(1, s.dim / 32);
            } else {
                break;
            }
            c = s;
            dry = dryRun(c, p.layers);
        }
        p.cfg = c;
        p.naturalOps = dry.natural;
        p.eligibleOps = dry.eligible;
        p.drop = ops < dry.natural;
        p.extra = p.drop ? 0 : ops - dry.natural;
        return p;
    }

    private Gen dryRun(Config c, int layers) {
        Plan p = new Plan();
        p.cfg = c;
        p.layers = layers;
        Gen g = new Gen(this, p, null);
        g.run();
        return g;
    }

    @SafeVarargs
    private static <T> T pick(SplittableRandom r, T... values) {
        return values[r.nextInt(values.length)];
    }

    private static int pickInt(SplittableRandom r, int... values) {
        return values[r.nextInt(values.length)];
    }

    // ---------------------------------------------------------------------------------------
    // Shapes

    private static final int K_TOK = 0;
    private static final int K_BTD = 1;
    private static final int K_BTD32 = 2;
    private static final int K_BT1 = 3;
    private static final int K_BT3D = 4;
    private static final int K_BHTd = 5;
    private static final int K_BHdT = 6;
    private static final int K_BHTT = 7;
    private static final int K_BTHd = 8;
    private static final int K_BTF = 9;
    private static final int K_BTV = 10;
    private static final int K_BTV32 = 11;
    private static final int K_BT32 = 12;
    private static final int K_SCALAR = 13;
    private static final int K_BV = 14;
    private static final int K_BV32 = 15;
    private static final int K_BU32 = 16;
    // parameters (f32); optimizer state of parameter kind k is k + OPT_OFFSET
    private static final int P_VD = 17;
    private static final int P_TD = 18;
    private static final int P_D = 19;
    private static final int P_3DD = 20;
    private static final int P_3D = 21;
    private static final int P_DD = 22;
    private static final int P_FD = 23;
    private static final int P_F = 24;
    private static final int P_DF = 25;
    private static final int OPT_OFFSET = 9;
    private static final int KIND_COUNT = P_DF + OPT_OFFSET + 1;

    private static final class Kind {
        final String dtypeName;
        final long[] dims;
        final byte[] shape;
        final byte[] dtype;
        final long elems;
        final long bytes;

        Kind(String dtype, long... dims) {
            this.dtypeName = dtype;
            this.dims = dims.clone();
            StringBuilder sb = new StringBuilder("[");
            long n = 1;
            for (int i = 0; i < dims.length; i++) {
                if (i > 0) {
                    sb.append(',');
                }
                sb.append(dims[i]);
                n *= dims[i];
            }
            this.shape = sb.append(']').toString().getBytes(StandardCharsets.US_ASCII);
            this.dtype = dtype.getBytes(StandardCharsets.US_ASCII);
            this.elems = n;
            this.bytes = n * dtypeSize(dtype);
        }

        /** Adam state of a parameter: first and second moment side by side ({@code [..., 2]}). */
        Kind withStateDim() {
            long[] d = Arrays.copyOf(dims, dims.length + 1);
            d[dims.length] = 2;
            return new Kind(dtypeName, d);
        }

        private static long dtypeSize(String d) {
            switch (d) {
                case "u8": return 1;
                case "bf16": case "f16": return 2;
                case "f32": case "u32": return 4;
                default: return 8;
            }
        }
    }

    private static Kind[] kinds(Config c) {
        long b = c.batch;
        long t = c.seq;
        long d = c.dim;
        long h = c.heads;
        long dh = d / h;
        long v = c.vocab;
        long f = 4 * d;
        String a = c.act;
        Kind[] k = new Kind[KIND_COUNT];
        k[K_TOK] = new Kind("i64", b, t);
        k[K_BTD] = new Kind(a, b, t, d);
        k[K_BTD32] = new Kind("f32", b, t, d);
        k[K_BT1] = new Kind("f32", b, t, 1);
        k[K_BT3D] = new Kind(a, b, t, 3 * d);
        k[K_BHTd] = new Kind(a, b, h, t, dh);
        k[K_BHdT] = new Kind(a, b, h, dh, t);
        k[K_BHTT] = new Kind(a, b, h, t, t);
        k[K_BTHd] = new Kind(a, b, t, h, dh);
        k[K_BTF] = new Kind(a, b, t, f);
        k[K_BTV] = new Kind(a, b, t, v);
        k[K_BTV32] = new Kind("f32", b, t, v);
        k[K_BT32] = new Kind("f32", b, t);
        k[K_SCALAR] = new Kind("f32");
        k[K_BV] = new Kind(a, b, v);
        k[K_BV32] = new Kind("f32", b, v);
        k[K_BU32] = new Kind("u32", b);
        k[P_VD] = new Kind("f32", v, d);
        k[P_TD] = new Kind("f32", t, d);
        k[P_D] = new Kind("f32", d);
        k[P_3DD] = new Kind("f32", 3 * d, d);
        k[P_3D] = new Kind("f32", 3 * d);
        k[P_DD] = new Kind("f32", d, d);
        k[P_FD] = new Kind("f32", f, d);
        k[P_F] = new Kind("f32", f);
        k[P_DF] = new Kind("f32", d, f);
        for (int p = P_VD; p <= P_DF; p++) {
            k[p + OPT_OFFSET] = k[p].withStateDim();
        }
        return k;
    }

    // ---------------------------------------------------------------------------------------
    // The generator proper

    private static final int CAT_PARAMETER = 0;
    private static final int CAT_ACTIVATION = 1;
    private static final int CAT_GRADIENT = 2;
    private static final int CAT_OPTIMIZER = 3;
    private static final int CAT_OTHER = 4;
    private static final String[] CATEGORY = {"parameter", "activation", "gradient", "optimizer", "other"};

    private static final int STEP_NONE = -1;
    private static final int STEP_FORWARD = 0;
    private static final int STEP_BACKWARD = 1;
    private static final int STEP_OPTIMIZER = 2;
    private static final String[] STEP = {"forward", "backward", "optimizer"};

    private static final int FUNCTION = 0;
    private static final int MODULE = 2;
    private static final String[] SPAN_KIND = {"function", "op", "module"};

    // parameter ids: globals first, then 12 per layer
    private static final int WTE = 1;
    private static final int WPE = 2;
    private static final int LNF_W = 3;
    private static final int LNF_B = 4;
    private static final int HEAD = 5;
    private static final int GLOBAL_PARAMS = 5;
    private static final int LN1_W = 0;
    private static final int LN1_B = 1;
    private static final int QKV_W = 2;
    private static final int QKV_B = 3;
    private static final int PROJ_W = 4;
    private static final int PROJ_B = 5;
    private static final int LN2_W = 6;
    private static final int LN2_B = 7;
    private static final int FC1_W = 8;
    private static final int FC1_B = 9;
    private static final int FC2_W = 10;
    private static final int FC2_B = 11;
    private static final int LAYER_PARAMS = 12;
    private static final int[] GLOBAL_KINDS = {P_VD, P_TD, P_D, P_D, P_VD};
    private static final String[] GLOBAL_KEYS = {"embed.weight", "pos_embed.weight", "ln_f.weight", "ln_f.bias", "lm_head.weight"};
    private static final int[] LAYER_KINDS = {P_D, P_D, P_3DD, P_3D, P_DD, P_D, P_D, P_D, P_FD, P_F, P_DF, P_D};
    private static final String[] LAYER_KEYS = {"ln1.weight", "ln1.bias", "attn.qkv.weight", "attn.qkv.bias",
        "attn.proj.weight", "attn.proj.bias", "ln2.weight", "ln2.bias", "mlp.fc1.weight", "mlp.fc1.bias",
        "mlp.fc2.weight", "mlp.fc2.bias"};

    // per-layer saved tensors (slots)
    private static final int S_LN1 = 0;      // xc, sd, xn at +0, +1, +2
    private static final int S_H = 3;
    private static final int S_Q = 4;
    private static final int S_KT = 5;
    private static final int S_V = 6;
    private static final int S_ATT = 7;
    private static final int S_CM = 8;
    private static final int S_LN2 = 9;      // xc, sd, xn at +0, +1, +2
    private static final int S_H2 = 12;
    private static final int S_F = 13;
    private static final int S_G = 14;
    private static final int S_FIRST = 15;
    private static final int S_LAST = 16;
    private static final int SLOTS = 17;

    private static final class Gen {
        final SyntheticTrace spec;
        final Plan plan;
        final Out out;          // null: dry run
        final boolean dry;
        final boolean train;
        final boolean cuda;
        final SplittableRandom rng;
        /** Durations and gaps: {@link #rng} unless a timing seed is given. */
        final SplittableRandom timing;
        /** Workspace tensors of {@link SyntheticTrace#growMemory} once allocated. */
        int[] workspace;
        final Kind[] kinds;
        final int layers;
        final int dim;
        final byte[] dev;       // JSON-quoted device

        // op accounting
        long natural;
        long eligible;
        long emittedOps;
        boolean inOptimizer;

        // tensors
        short[] tKind = new short[1 << 12];
        byte[] tCat = new byte[1 << 12];
        final BitSet live = new BitSet();
        int nextTensor = 1;
        long liveBytes;
        long peakBytes;

        // spans
        int nextSpan = 1;
        int[] stackId = new int[64];
        long[] stackStart = new long[64];
        boolean[] stackSlowed = new boolean[64];
        int depth;
        long now;

        // trace/7 and later
        final int revision;
        /** Per open span: its ops' first timestamp and summed durations (device intervals). */
        long[] stackOpStart = new long[64];
        long[] stackOpTime = new long[64];
        /** Per span id: parent and duration (edges from a span's parent). */
        int[] parentOf = new int[1 << 10];
        long[] durationOf = new long[1 << 10];
        long deviceSpans;

        Gen(SyntheticTrace spec, Plan plan, Out out) {
            this.spec = spec;
            this.plan = plan;
            this.out = out;
            this.dry = out == null;
            this.train = spec.shape == Shape.TRAIN;
            this.cuda = spec.device.startsWith("cuda");
            this.rng = dry ? null : plan.rng;
            this.timing = dry || spec.timingSeed == null ? rng : new SplittableRandom(spec.timingSeed);
            this.kinds = kinds(plan.cfg);
            this.layers = plan.layers;
            this.dim = plan.cfg.dim;
            this.dev = jsonQuoted(spec.device);
            this.revision = spec.revision;
        }

        void run() {
            switch (spec.shape) {
                case TRAIN: training(); break;
                case INFER: inference(); break;
                case DEEP: deep(); break;
                default: wideShape(); break;
            }
        }

        // ----- random timing (never consulted in dry runs, so structure never depends on it)

        long gap(int lo, int hi) {
            return dry ? 0 : lo + timing.nextInt(hi - lo);
        }

        long duration(String name, Kind k) {
            if (dry) {
                return 0;
            }
            long base = cuda ? 1_800 + timing.nextInt(1_600) : 120 + timing.nextInt(900);
            long work;
            if (name.startsWith("matmul")) {
                work = k.elems * 2 * dim / (cuda ? 40_000 : 40);
            } else {
                work = k.bytes / (cuda ? 900 : 12);
            }
            return base + work;
        }

        // ----- tensors

        int newTensor(int kind, int cat) {
            int t = nextTensor++;
            if (t >= tKind.length) {
                tKind = Arrays.copyOf(tKind, tKind.length * 2);
                tCat = Arrays.copyOf(tCat, tCat.length * 2);
            }
            tKind[t] = (short) kind;
            tCat[t] = (byte) cat;
            live.set(t);
            liveBytes += kinds[kind].bytes;
            if (liveBytes > peakBytes) {
                peakBytes = liveBytes;
            }
            return t;
        }

        Kind kindOf(int t) {
            return kinds[tKind[t]];
        }

        /** Memory-only allocation (parameters, optimizer state): no op produces it. */
        int memAlloc(int kind, int cat, String opName) {
            int t = newTensor(kind, cat);
            if (!dry) {
                writeMemory(now, t, opName, "alloc");
            }
            return t;
        }

        /** Frees a live activation / gradient / other tensor; anything else is left alone. */
        void free(int t) {
            if (t == 0 || !live.get(t)) {
                return;
            }
            int cat = tCat[t];
            if (cat == CAT_PARAMETER || cat == CAT_OPTIMIZER) {
                return;
            }
            live.clear(t);
            liveBytes -= kindOf(t).bytes;
            if (!dry) {
                writeMemory(now, t, null, "free");
            }
        }

        void freeRange(int first, int last, int keepA, int keepB, int keepC) {
            for (int t = first; t <= last; t++) {
                if (t != keepA && t != keepB && t != keepC) {
                    free(t);
                }
            }
        }

        // ----- ops

        private boolean keep(long k) {
            if (!plan.drop) {
                return true;
            }
            long n = plan.targetOps;
            long total = plan.naturalOps;
            return (k + 1) * n / total > k * n / total;
        }

        private static int firstInput(int[] in) {
            for (int t : in) {
                if (t != 0) {
                    return t;
                }
            }
            return 0;
        }

        /** An op producing a new tensor; returns the tensor downstream code should use (0 = none). */
        int op(String name, int kind, int cat, int... in) {
            long k = natural++;
            boolean elig = !inOptimizer;
            long j = elig ? eligible++ : -1;
            if (!keep(k)) {
                return firstInput(in);
            }
            int t = emit(name, kind, cat, in);
            if (j >= 0 && plan.extra > 0) {
                long copies = (j + 1) * plan.extra / plan.eligibleOps - j * plan.extra / plan.eligibleOps;
                for (long c = 0; c < copies; c++) {
                    int t2 = emit("contiguous", kind, cat, t);
                    free(t);
                    t = t2;
                }
            }
            return t;
        }

        private int emit(String name, int kind, int cat, int... in) {
            Kind kd = kinds[kind];
            long ts = now + gap(40, 700);
            long dur = duration(name, kd);
            int t = newTensor(kind, cat);
            if (!dry) {
                writeOp(name, in, t, kd, ts, dur);
                writeMemory(ts, t, name, "alloc");
                if (revision >= 7 && name.equals("matmul") && in.length > 0 && in[0] != 0 && emittedOps % 16 == 0) {
                    writeDataEdge(in[0], t);
                }
                opTime(ts, dur);
            }
            now = ts + dur;
            emittedOps++;
            return t;
        }

        /** Accounts an op's time to the innermost span (its device interval). */
        void opTime(long ts, long dur) {
            if (stackOpTime[depth - 1] == 0) {
                stackOpStart[depth - 1] = ts;
            }
            stackOpTime[depth - 1] += dur;
        }

        /** An op updating {@code target} in place (no new allocation). */
        void opInPlace(String name, int target, int... in) {
            long k = natural++;
            if (!keep(k)) {
                return;
            }
            Kind kd = kindOf(target);
            long ts = now + gap(40, 700);
            long dur = duration(name, kd);
            if (!dry) {
                writeOp(name, in, target, kd, ts, dur);
                opTime(ts, dur);
            }
            now = ts + dur;
            emittedOps++;
        }

        // ----- spans

        int span(String name, int spanKind, int step, boolean measured) {
            int id = nextSpan++;
            int parent = depth > 0 ? stackId[depth - 1] : 0;
            if (depth == stackId.length) {
                stackId = Arrays.copyOf(stackId, depth * 2);
                stackStart = Arrays.copyOf(stackStart, depth * 2);
                stackSlowed = Arrays.copyOf(stackSlowed, depth * 2);
                stackOpStart = Arrays.copyOf(stackOpStart, depth * 2);
                stackOpTime = Arrays.copyOf(stackOpTime, depth * 2);
            }
            if (spec.hierarchyEdges && !dry) {
                if (id >= parentOf.length) {
                    parentOf = Arrays.copyOf(parentOf, Math.max(id + 1, parentOf.length * 2));
                    durationOf = Arrays.copyOf(durationOf, parentOf.length);
                }
                parentOf[id] = parent;
            }
            stackOpTime[depth] = 0;
            stackId[depth] = id;
            stackStart[depth] = now;
            stackSlowed[depth] = name.equals(spec.slowedSpan);
            depth++;
            if (!dry) {
                writeSpanStart(id, parent, name, now, spanKind, measured, step);
                if (workspace == null && spec.extraTensors > 0 && name.equals(spec.growingSpan)) {
                    workspace = new int[spec.extraTensors];
                    for (int i = 0; i < workspace.length; i++) {
                        workspace[i] = memAlloc(K_BTV32, CAT_OTHER, null);
                    }
                }
            }
            now += gap(20, 400);
            return id;
        }

        long lastSpanStart() {
            return stackStart[depth - 1];
        }

        /** Closes the innermost span; returns its end time. */
        long end() {
            now += gap(40, 300);
            depth--;
            if (stackSlowed[depth]) {
                now += Math.round((now - stackStart[depth]) * (spec.slowdown - 1));
            }
            if (!dry) {
                long duration = now - stackStart[depth];
                writeSpanEnd(stackId[depth], duration);
                if (spec.hierarchyEdges) {
                    durationOf[stackId[depth]] = duration;
                }
                if (revision >= 7 && cuda && stackOpTime[depth] > 0) {
                    writeDeviceIntervals(stackId[depth], stackOpStart[depth], stackOpTime[depth]);
                }
                if (revision >= 7 && depth == 0) {
                    writeTerminal(now);
                }
            }
            return now;
        }

        int currentSpan() {
            return stackId[depth - 1];
        }

        /** Frees the workspace tensors of {@link SyntheticTrace#growMemory}, if any were allocated. */
        void releaseWorkspace() {
            if (workspace != null) {
                for (int t : workspace) {
                    free(t);
                }
            }
        }

        // ----- shared parts

        void meta(String entrypoint, String phase, Map<String, String> generated) {
            if (dry) {
                return;
            }
            Config c = plan.cfg;
            Map<String, String> all = new LinkedHashMap<>(generated);
            all.putAll(spec.tags);
            String run = spec.runId != null ? spec.runId : spec.shape.name().toLowerCase(Locale.ROOT) + "-s" + spec.seed;
            out.raw(revision >= 7 ? metaStart(revision) : META_1);
            out.raw(jsonQuoted(run));
            out.raw(META_CORRELATION);
            out.raw(jsonQuoted(entrypoint + "/update-" + c.captureStep));
            out.raw(META_ENTRYPOINT);
            out.raw(jsonQuoted(entrypoint));
            out.raw(META_PHASE);
            out.ascii(phase);
            out.raw(META_TIMESTAMP);
            out.ascii(c.timestamp);
            out.raw(META_CAPTURE);
            out.num(c.captureStep);
            out.raw(META_WARMUP);
            out.num(revision >= 7 ? Math.min(c.warmupSteps, c.captureStep - 1) : c.warmupSteps);
            out.raw(META_DEVICE);
            out.raw(dev);
            if (revision >= 7) {
                metaCapture(measuredName(), entrypoint, phase);
                out.ascii(",\"tags\":{");
            } else {
                out.raw(META_TIMING);
                out.ascii(cuda ? "device_synchronized" : "host");
                out.raw(META_TAGS);
            }
            boolean first = true;
            for (Map.Entry<String, String> e : all.entrySet()) {
                if (!first) {
                    out.ch(',');
                }
                first = false;
                out.raw(jsonQuoted(e.getKey()));
                out.ch(':');
                out.raw(jsonQuoted(e.getValue()));
            }
            out.raw(META_END);
            out.endLine();
        }

        String measuredName() {
            return spec.shape == Shape.TRAIN ? "update" : "infer_step";
        }

        Map<String, String> modelTags() {
            Config c = plan.cfg;
            Map<String, String> m = new LinkedHashMap<>();
            m.put("model", "tinygpt");
            m.put("commit", c.commit);
            m.put("precision", c.act);
            m.put("physical_batch", Integer.toString(c.batch));
            m.put("seq_len", Integer.toString(c.seq));
            m.put("layers", Integer.toString(layers));
            return m;
        }

        void deviceMemory() {
            if (dry) {
                return;
            }
            long cap = capacityOf(spec.device);
            long used = BASE_USED + liveBytes;
            long reserved = ((used + 6_291_456L + 2_097_151L) / 2_097_152L) * 2_097_152L;
            out.raw(DM_1);
            out.num(now);
            out.raw(DM_DEVICE);
            out.raw(dev);
            out.raw(DM_USED);
            out.num(used);
            out.raw(DM_FREE);
            out.num(Math.max(0, cap - used));
            out.raw(DM_RESERVED);
            out.num(reserved);
            if (revision >= 7) {
                out.raw(DM7_CAPACITY);
                out.num(used + Math.max(0, cap - used));
            }
            out.ch('}');
            out.endLine();
        }

        void tensor(int t, boolean requiresGrad) {
            tensor(t, requiresGrad, null);
        }

        /** A tensor checkpoint; {@code label} is written from trace/7 on (the caller's observation label). */
        void tensor(int t, boolean requiresGrad, String label) {
            if (dry || t == 0) {
                return;
            }
            Kind k = kindOf(t);
            out.raw(T_1);
            out.num(currentSpan());
            out.raw(T_TENSOR);
            out.num(t);
            if (revision >= 7 && label != null) {
                out.raw(T7_LABEL);
                out.ascii(label);
            }
            out.raw(T_SHAPE);
            out.raw(k.shape);
            out.raw(T_DTYPE);
            out.raw(k.dtype);
            out.raw(T_DEVICE);
            out.raw(dev);
            if (revision >= 7) {
                out.raw(requiresGrad ? T7_GRAD_TRUE : T7_GRAD_FALSE);
            } else {
                out.raw(requiresGrad ? T_GRAD_TRUE : T_GRAD_FALSE);
            }
            out.num(k.bytes);
            out.raw(T_CATEGORY);
            out.ascii(CATEGORY[tCat[t]]);
            out.raw(END_QUOTE_BRACE);
            out.endLine();
        }

        void edge(int from, int to, long duration) {
            if (dry) {
                return;
            }
            if (spec.hierarchyEdges) {
                from = parentOf[to];
                duration = durationOf[to];
            }
            if (revision >= 7) {
                out.raw(E7_1);
                out.num(from);
                out.raw(E_TO);
                out.num(to);
                out.raw(E7_DURATION);
                out.num(duration);
                out.ch('}');
                out.endLine();
                return;
            }
            out.raw(E_1);
            out.num(from);
            out.raw(E_TO);
            out.num(to);
            out.raw(E_DURATION);
            out.num(Math.max(0, duration));
            out.ch('}');
            out.endLine();
        }

        int paramCount() {
            return GLOBAL_PARAMS + LAYER_PARAMS * layers;
        }

        static int lp(int layer, int p) {
            return GLOBAL_PARAMS + 1 + LAYER_PARAMS * layer + p;
        }

        int paramKind(int id) {
            return id <= GLOBAL_PARAMS ? GLOBAL_KINDS[id - 1] : LAYER_KINDS[(id - GLOBAL_PARAMS - 1) % LAYER_PARAMS];
        }

        String paramKey(int id) {
            if (id <= GLOBAL_PARAMS) {
                return GLOBAL_KEYS[id - 1];
            }
            int x = id - GLOBAL_PARAMS - 1;
            return "layers." + (x / LAYER_PARAMS) + "." + LAYER_KEYS[x % LAYER_PARAMS];
        }

        void allocParameters() {
            for (int p = 1; p <= paramCount(); p++) {
                int t = memAlloc(paramKind(p), CAT_PARAMETER, null);
                if (t != p) {
                    throw new IllegalStateException("parameter ids must come first");
                }
            }
        }

        // ----- model pieces

        /** Decomposed LayerNorm (11 ops); saves xc, sd, xn at slots[base..base+2]. */
        int layerNorm(int x, int w, int b, int[] slots, int base) {
            int act = CAT_ACTIVATION;
            span("LayerNorm::forward", MODULE, STEP_FORWARD, false);
            int x32 = op("to_dtype", K_BTD32, act, x);
            int mu = op("mean_keepdim", K_BT1, act, x32);
            int xc = op("broadcast_sub", K_BTD32, act, x32, mu);
            free(x32);
            free(mu);
            int sq = op("sqr", K_BTD32, act, xc);
            int var = op("mean_keepdim", K_BT1, act, sq);
            free(sq);
            int ve = op("affine", K_BT1, act, var);
            free(var);
            int sd = op("sqrt", K_BT1, act, ve);
            free(ve);
            int xn = op("broadcast_div", K_BTD32, act, xc, sd);
            int y0 = op("broadcast_mul", K_BTD32, act, xn, w);
            int y1 = op("broadcast_add", K_BTD32, act, y0, b);
            free(y0);
            int y = op("to_dtype", K_BTD, act, y1);
            free(y1);
            if (slots != null) {
                slots[base] = xc;
                slots[base + 1] = sd;
                slots[base + 2] = xn;
            }
            end();
            return y;
        }

        /** Decomposed LayerNorm backward (11 ops); returns dx, records the two parameter grads. */
        int layerNormBackward(int dy, int[] slots, int base, int w, int[] grads, int gw, int gb) {
            int g = CAT_GRADIENT;
            int sd = slots[base + 1];
            int xn = slots[base + 2];
            span("LayerNorm::backward", FUNCTION, STEP_BACKWARD, false);
            int d32 = op("to_dtype", K_BTD32, g, dy);
            free(dy);
            int t1 = op("mul", K_BTD32, g, d32, xn);
            grads[gw] = op("sum_keepdim", P_D, g, t1);
            free(t1);
            grads[gb] = op("sum_keepdim", P_D, g, d32);
            int dxn = op("broadcast_mul", K_BTD32, g, d32, w);
            free(d32);
            int m1 = op("mean_keepdim", K_BT1, g, dxn);
            int t2 = op("mul", K_BTD32, g, dxn, xn);
            int m2 = op("mean_keepdim", K_BT1, g, t2);
            free(t2);
            int u = op("layer_norm_backward", K_BTD32, g, dxn, xn, m1, m2);
            free(dxn);
            free(m1);
            free(m2);
            int dx32 = op("broadcast_div", K_BTD32, g, u, sd);
            free(u);
            int dx = op("to_dtype", K_BTD, g, dx32);
            free(dx32);
            end();
            return dx;
        }

        /** One transformer layer forward: 44 ops (training: 6 spans, inference: 5 spans). */
        int layerForward(int i, int x, int[] saved) {
            int act = CAT_ACTIVATION;
            int base = i * SLOTS;
            int[] s = saved;
            span("Layer" + i + "::forward", MODULE, STEP_FORWARD, false);
            int first = nextTensor;
            tensor(lp(i, QKV_W), train);
            tensor(lp(i, PROJ_W), train);
            tensor(lp(i, FC1_W), train);
            tensor(lp(i, FC2_W), train);
            int h = layerNorm(x, lp(i, LN1_W), lp(i, LN1_B), s, base + S_LN1);

            span("Attention::forward", MODULE, STEP_FORWARD, false);
            int qkv0 = op("matmul", K_BT3D, act, h, lp(i, QKV_W));
            int qkv = op("broadcast_add", K_BT3D, act, qkv0, lp(i, QKV_B));
            free(qkv0);
            int q = op("narrow", K_BHTd, act, qkv);
            int k = op("narrow", K_BHTd, act, qkv);
            int v = op("narrow", K_BHTd, act, qkv);
            free(qkv);
            int kt = op("transpose", K_BHdT, act, k);
            free(k);
            int sc = op("matmul", K_BHTT, act, q, kt);
            int ss = op("affine", K_BHTT, act, sc);
            free(sc);
            int sm = op("masked_fill", K_BHTT, act, ss);
            free(ss);
            int att = op("softmax_last_dim", K_BHTT, act, sm);
            free(sm);
            int c = op("matmul", K_BHTd, act, att, v);
            int ct = op("transpose", K_BTHd, act, c);
            free(c);
            int cm = op("reshape", K_BTD, act, ct);
            free(ct);
            if (train) {
                span("Linear::forward", MODULE, STEP_FORWARD, false);
            }
            int o0 = op("matmul", K_BTD, act, cm, lp(i, PROJ_W));
            int o = op("broadcast_add", K_BTD, act, o0, lp(i, PROJ_B));
            free(o0);
            if (train) {
                end();
            }
            end();

            int r1 = op("add", K_BTD, act, x, o);
            if (!train) {
                free(x);
                free(o);
            }
            int h2 = layerNorm(r1, lp(i, LN2_W), lp(i, LN2_B), s, base + S_LN2);

            span("Mlp::forward", MODULE, STEP_FORWARD, false);
            int f0 = op("matmul", K_BTF, act, h2, lp(i, FC1_W));
            int f = op("broadcast_add", K_BTF, act, f0, lp(i, FC1_B));
            free(f0);
            int g = op("gelu", K_BTF, act, f);
            int m0 = op("matmul", K_BTD, act, g, lp(i, FC2_W));
            int m = op("broadcast_add", K_BTD, act, m0, lp(i, FC2_B));
            free(m0);
            end();

            int r2 = op("add", K_BTD, act, r1, m);
            int last = nextTensor - 1;
            if (train) {
                s[base + S_H] = h;
                s[base + S_Q] = q;
                s[base + S_KT] = kt;
                s[base + S_V] = v;
                s[base + S_ATT] = att;
                s[base + S_CM] = cm;
                s[base + S_H2] = h2;
                s[base + S_F] = f;
                s[base + S_G] = g;
                s[base + S_FIRST] = first;
                s[base + S_LAST] = last;
            } else {
                // inference: everything but the KV cache (k^T, v) and the output goes at once
                freeRange(first, last, kt, v, r2);
            }
            end();
            if (i % 16 == 15) {
                deviceMemory();
            }
            return r2;
        }

        /** One transformer layer backward: 47 ops, 5 spans; frees the layer's activations. */
        int layerBackward(int i, int dy, int[] s, int[] grads) {
            int g = CAT_GRADIENT;
            int base = i * SLOTS;
            span("Layer" + i + "::backward", FUNCTION, STEP_BACKWARD, false);

            span("Mlp::backward", FUNCTION, STEP_BACKWARD, false);
            grads[lp(i, FC2_B)] = op("sum_keepdim", P_D, g, dy);
            int dg = op("matmul", K_BTF, g, dy, lp(i, FC2_W));
            grads[lp(i, FC2_W)] = op("matmul", P_DF, g, s[base + S_G], dy);
            int df = op("gelu_backward", K_BTF, g, dg, s[base + S_F]);
            free(dg);
            grads[lp(i, FC1_B)] = op("sum_keepdim", P_F, g, df);
            int dh2 = op("matmul", K_BTD, g, df, lp(i, FC1_W));
            grads[lp(i, FC1_W)] = op("matmul", P_FD, g, s[base + S_H2], df);
            free(df);
            end();

            int dx2 = layerNormBackward(dh2, s, base + S_LN2, lp(i, LN2_W), grads, lp(i, LN2_W), lp(i, LN2_B));
            int dr1 = op("add", K_BTD, g, dy, dx2);
            free(dy);
            free(dx2);

            span("Attention::backward", FUNCTION, STEP_BACKWARD, false);
            grads[lp(i, PROJ_B)] = op("sum_keepdim", P_D, g, dr1);
            grads[lp(i, PROJ_W)] = op("matmul", P_DD, g, s[base + S_CM], dr1);
            int dcm = op("matmul", K_BTD, g, dr1, lp(i, PROJ_W));
            int dct = op("reshape", K_BTHd, g, dcm);
            free(dcm);
            int dc = op("transpose", K_BHTd, g, dct);
            free(dct);
            int datt = op("matmul", K_BHTT, g, dc, s[base + S_V]);
            int dv = op("matmul", K_BHTd, g, s[base + S_ATT], dc);
            free(dc);
            int ds = op("softmax_backward", K_BHTT, g, datt, s[base + S_ATT]);
            free(datt);
            int dss = op("affine", K_BHTT, g, ds);
            free(ds);
            int dq = op("matmul", K_BHTd, g, dss, s[base + S_KT]);
            int dkt = op("matmul", K_BHdT, g, s[base + S_Q], dss);
            free(dss);
            int dk = op("transpose", K_BHTd, g, dkt);
            free(dkt);
            int dqkv = op("cat", K_BT3D, g, dq, dk, dv);
            free(dq);
            free(dk);
            free(dv);
            grads[lp(i, QKV_B)] = op("sum_keepdim", P_3D, g, dqkv);
            grads[lp(i, QKV_W)] = op("matmul", P_3DD, g, s[base + S_H], dqkv);
            int dh = op("matmul", K_BTD, g, dqkv, lp(i, QKV_W));
            free(dqkv);
            end();

            int dx1 = layerNormBackward(dh, s, base + S_LN1, lp(i, LN1_W), grads, lp(i, LN1_W), lp(i, LN1_B));
            int dx = op("add", K_BTD, g, dr1, dx1);
            free(dr1);
            free(dx1);
            freeRange(s[base + S_FIRST], s[base + S_LAST], 0, 0, 0);
            end();
            if (i % 16 == 0) {
                deviceMemory();
            }
            return dx;
        }

        void optimizerGroup(String name, int[] grads, int from, int to) {
            span(name, FUNCTION, STEP_OPTIMIZER, false);
            for (int p = from; p <= to; p++) {
                int state = memAlloc(paramKind(p) + OPT_OFFSET, CAT_OPTIMIZER, "adamw");
                opInPlace("adamw", p, p, grads[p], state);
                free(grads[p]);
            }
            end();
        }

        void gradients() {
            if (dry) {
                return;
            }
            int count = paramCount();
            int forcedMissing = 1 + rng.nextInt(count);
            int forcedZero = 1 + rng.nextInt(count);
            if (forcedZero == forcedMissing) {
                forcedZero = forcedZero % count + 1;
            }
            for (int p = 1; p <= count; p++) {
                int r = rng.nextInt(1_000);
                out.raw(G_1);
                out.num(p);
                out.raw(G_ROOT);
                out.ascii(paramKey(p));
                out.raw(G_STATE);
                if (p == forcedMissing || (p != forcedZero && r < 12)) {
                    out.ascii("missing");
                    out.raw(END_QUOTE_BRACE);
                } else if (p == forcedZero || r < 24) {
                    out.ascii("zero");
                    out.raw(G_ZERO_NORM);
                } else {
                    out.ascii("present");
                    out.raw(G_NORM);
                    long micro = 1_000 + rng.nextInt(1_999_000);
                    out.num(micro / 1_000_000);
                    out.ch('.');
                    long frac = micro % 1_000_000;
                    for (long div = 100_000; div > 0; div /= 10) {
                        out.ch((char) ('0' + (frac / div) % 10));
                    }
                    out.ch('}');
                }
                out.endLine();
            }
        }

        // ----- the four shapes

        /** Span ids and times needed for the trace's sibling {@code edge} records. */
        private int embSpan;
        private long embEnd;
        private int layer0Span;
        private long layer0Start;
        private long layer0End;
        private int layer1Span;
        private long layer1Start;

        /** Embedding output, then every layer; returns the last layer's output. */
        int allLayers(int x, int[] saved) {
            for (int i = 0; i < layers; i++) {
                if (i <= 1) {
                    now += gap(20, 200);
                    if (i == 0) {
                        layer0Span = nextSpan;
                        layer0Start = now;
                    } else {
                        layer1Span = nextSpan;
                        layer1Start = now;
                    }
                }
                x = layerForward(i, x, saved);
                if (i == 0) {
                    layer0End = now;
                }
            }
            return x;
        }

        void layerEdges() {
            edge(embSpan, layer0Span, layer0Start - embEnd);
            if (layer1Span != 0) {
                edge(layer0Span, layer1Span, layer1Start - layer0End);
            }
        }

        void training() {
            String entrypoint = "tinygpt::train::update";
            meta(entrypoint, "train", modelTags());
            span(entrypoint, FUNCTION, STEP_NONE, false);
            now += gap(600, 1_600);
            span("update", FUNCTION, STEP_NONE, true);
            deviceMemory();
            allocParameters();
            int[] saved = new int[layers * SLOTS];
            int[] grads = new int[paramCount() + 1];
            int[] head = new int[3];
            int act = CAT_ACTIVATION;

            int fwd = span("Model::forward", MODULE, STEP_FORWARD, false);
            embSpan = span("Embedding::forward", MODULE, STEP_FORWARD, false);
            int embFirst = nextTensor;
            int tokens = op("to_device", K_TOK, CAT_OTHER);
            tensor(tokens, false, "input/tokens");
            tensor(WTE, true, "param/embed.weight");
            int labels = op("to_device", K_TOK, CAT_OTHER);
            int e = op("embedding", K_BTD, act, tokens, WTE);
            int x = op("broadcast_add", K_BTD, act, e, WPE);
            free(e);
            int embLast = nextTensor - 1;
            embEnd = end();
            x = allLayers(x, saved);
            int headFirst = nextTensor;
            int y = layerNorm(x, LNF_W, LNF_B, head, 0);
            span("Linear::forward", MODULE, STEP_FORWARD, false);
            int logits = op("matmul", K_BTV, act, y, HEAD);
            int l32 = op("to_dtype", K_BTV32, act, logits);
            free(logits);
            end();
            span("cross_entropy", FUNCTION, STEP_FORWARD, false);
            int lsm = op("log_softmax", K_BTV32, act, l32);
            free(l32);
            int nll = op("gather", K_BT32, act, lsm, labels);
            int neg = op("neg", K_BT32, act, nll);
            free(nll);
            int loss = op("mean", K_SCALAR, act, neg);
            free(neg);
            tensorStats("train/loss", loss);
            end();
            int headLast = nextTensor - 1;
            long fwdEnd = end();
            deviceMemory();

            now += gap(100, 900);
            int g = CAT_GRADIENT;
            int bwd = span("backward", FUNCTION, STEP_BACKWARD, false);
            long bwdStart = lastSpanStart();
            span("cross_entropy::backward", FUNCTION, STEP_BACKWARD, false);
            int g0 = op("mean_backward", K_BT32, g, loss);
            int g1 = op("neg", K_BT32, g, g0);
            free(g0);
            int g2 = op("gather_backward", K_BTV32, g, g1, labels);
            free(g1);
            int dl = op("log_softmax_backward", K_BTV32, g, g2, lsm);
            free(g2);
            end();
            span("Linear::backward", FUNCTION, STEP_BACKWARD, false);
            int dlb = op("to_dtype", K_BTV, g, dl);
            free(dl);
            grads[HEAD] = op("matmul", P_VD, g, y, dlb);
            int dy = op("matmul", K_BTD, g, dlb, HEAD);
            free(dlb);
            end();
            int dx = layerNormBackward(dy, head, 0, LNF_W, grads, LNF_W, LNF_B);
            freeRange(headFirst, headLast, 0, 0, 0);
            for (int i = layers - 1; i >= 0; i--) {
                dx = layerBackward(i, dx, saved, grads);
            }
            span("Embedding::backward", FUNCTION, STEP_BACKWARD, false);
            grads[WPE] = op("sum_keepdim", P_TD, g, dx);
            grads[WTE] = op("embedding_backward", P_VD, g, dx, tokens);
            free(dx);
            freeRange(embFirst, embLast, 0, 0, 0);
            end();
            long bwdEnd = end();
            deviceMemory();

            now += gap(100, 900);
            inOptimizer = true;
            int opt = span("AdamW::step", FUNCTION, STEP_OPTIMIZER, false);
            long optStart = lastSpanStart();
            optimizerGroup("AdamW::update[embeddings]", grads, WTE, WPE);
            for (int i = 0; i < layers; i++) {
                optimizerGroup("AdamW::update[layer" + i + "]", grads, lp(i, 0), lp(i, LAYER_PARAMS - 1));
            }
            optimizerGroup("AdamW::update[head]", grads, LNF_W, HEAD);
            end();
            inOptimizer = false;
            releaseWorkspace();
            deviceMemory();
            gradients();
            end();
            deviceMemory();
            edge(fwd, bwd, bwdStart - fwdEnd);
            edge(bwd, opt, optStart - bwdEnd);
            layerEdges();
            end();
        }

        void inference() {
            String entrypoint = "tinygpt::infer::generate";
            meta(entrypoint, "infer", modelTags());
            span(entrypoint, FUNCTION, STEP_NONE, false);
            now += gap(600, 1_600);
            span("infer_step", FUNCTION, STEP_NONE, true);
            deviceMemory();
            allocParameters();
            int act = CAT_ACTIVATION;

            int fwd = span("Model::forward", MODULE, STEP_FORWARD, false);
            embSpan = span("Embedding::forward", MODULE, STEP_FORWARD, false);
            int tokens = op("to_device", K_TOK, CAT_OTHER);
            tensor(tokens, false, "input/tokens");
            tensor(WTE, false, "param/embed.weight");
            int e = op("embedding", K_BTD, act, tokens, WTE);
            int x = op("broadcast_add", K_BTD, act, e, WPE);
            free(e);
            embEnd = end();
            x = allLayers(x, null);
            int headFirst = nextTensor;
            int y = layerNorm(x, LNF_W, LNF_B, null, 0);
            free(x);
            span("Linear::forward", MODULE, STEP_FORWARD, false);
            int logits = op("matmul", K_BTV, act, y, HEAD);
            tensorStats("infer/logits", logits);
            end();
            freeRange(headFirst, nextTensor - 1, logits, 0, 0);
            long fwdEnd = end();
            deviceMemory();

            now += gap(100, 900);
            int sample = span("sample", FUNCTION, STEP_FORWARD, false);
            long sampleStart = lastSpanStart();
            int lastPos = op("narrow", K_BV, act, logits);
            free(logits);
            int probs = op("softmax", K_BV32, act, lastPos);
            free(lastPos);
            int idx = op("argmax", K_BU32, act, probs);
            free(probs);
            int host = op("to_host", K_BU32, CAT_OTHER, idx);
            free(idx);
            free(host);
            free(tokens);
            end();
            releaseWorkspace();
            deviceMemory();
            end();
            deviceMemory();
            edge(fwd, sample, sampleStart - fwdEnd);
            layerEdges();
            end();
        }

        Map<String, String> shapeTags(String kind, int n) {
            Map<String, String> m = new LinkedHashMap<>();
            m.put("model", "synthetic");
            m.put("commit", plan.cfg.commit);
            m.put("shape", kind);
            m.put(kind.equals("deep_chain") ? "depth" : "children", Integer.toString(n));
            return m;
        }

        void deep() {
            int n = spec.size;
            meta("synthetic::deep_chain", "infer", shapeTags("deep_chain", n));
            span("synthetic::deep_chain", FUNCTION, STEP_NONE, false);
            now += gap(600, 1_600);
            span("infer_step", FUNCTION, STEP_NONE, true);
            deviceMemory();
            int w = memAlloc(P_DD, CAT_PARAMETER, null);
            for (int d = 1; d <= n; d++) {
                span("Nested" + d + "::forward", MODULE, STEP_FORWARD, false);
            }
            int t = op("matmul", K_BTD, CAT_ACTIVATION, w);
            free(t);
            for (int d = 1; d <= n; d++) {
                end();
            }
            deviceMemory();
            end();
            end();
        }

        void wideShape() {
            int n = spec.size;
            meta("synthetic::wide", "infer", shapeTags("wide", n));
            span("synthetic::wide", FUNCTION, STEP_NONE, false);
            now += gap(600, 1_600);
            span("infer_step", FUNCTION, STEP_NONE, true);
            deviceMemory();
            int w = memAlloc(P_DD, CAT_PARAMETER, null);
            int firstChild = nextSpan;
            long[] ends = new long[Math.min(n, 4)];
            long[] starts = new long[Math.min(n, 4)];
            for (int c = 0; c < n; c++) {
                span("Branch" + c + "::forward", MODULE, STEP_FORWARD, false);
                if (c < starts.length) {
                    starts[c] = lastSpanStart();
                }
                int t = op("matmul", K_BTD, CAT_ACTIVATION, w);
                free(t);
                long e = end();
                if (c < ends.length) {
                    ends[c] = e;
                }
            }
            deviceMemory();
            end();
            for (int c = 0; c + 1 < ends.length; c++) {
                edge(firstChild + c, firstChild + c + 1, starts[c + 1] - ends[c]);
            }
            end();
        }

        // ----- trace/7 and later

        /** One interval per span with ops on the device; every 8th such span a second, overlapping one. */
        void writeDeviceIntervals(int span, long firstOp, long opTime) {
            long start = firstOp + 1_000_000;
            long busy = opTime * 3 / 4 + 1;
            writeDeviceInterval(span, "7", start, busy);
            if (deviceSpans++ % 8 == 7) {
                writeDeviceInterval(span, "13", start + busy / 2, busy / 2 + 1);
            }
        }

        void writeDeviceInterval(int span, String stream, long start, long duration) {
            out.raw(DI_1);
            out.num(span);
            out.raw(DI_DEVICE);
            out.raw(dev);
            out.raw(DI_STREAM);
            out.ascii(stream);
            out.raw(DI_CLOCK);
            out.ascii("cuda-event:" + spec.device);
            out.raw(DI_START);
            out.num(start);
            out.raw(DI_DURATION);
            out.num(duration);
            out.ch('}');
            out.endLine();
        }

        void writeDataEdge(int from, int to) {
            out.raw(DE_1);
            out.num(from);
            out.raw(DE_TO);
            out.num(to);
            out.raw(END_QUOTE_BRACE);
            out.endLine();
        }

        /** trace/10 statistics of a tensor, derived from its id (no random draw: twins stay twins). */
        void tensorStats(String label, int t) {
            if (dry || revision < 10 || t == 0) {
                return;
            }
            Kind k = kindOf(t);
            out.raw(TS_1);
            out.num(currentSpan());
            out.raw(TS_LABEL);
            out.ascii(label);
            out.raw(TS_SHAPE);
            out.raw(k.shape);
            out.raw(TS_DTYPE);
            out.raw(k.dtype);
            out.raw(TS_ELEMENTS);
            out.num(k.elems);
            if (spec.nonFinite > 0) {
                out.ascii(",\"non_finite\":" + Math.min(spec.nonFinite, k.elems));
            } else {
                out.raw(TS_NON_FINITE);
            }
            out.ascii(",\"rms\":" + (1 + (t % 97) / 100.0) + ",\"abs_max\":" + (4 + (t % 13) / 4.0)
                    + ",\"mean\":" + (-0.5 + (t % 11) / 10.0));
            out.ch('}');
            out.endLine();
        }

        void writeTerminal(long timestamp) {
            if (spec.failure != null) {
                out.ascii("{\"kind\":\"terminal\",\"outcome\":\"failed\",\"timestamp_ns\":");
                out.num(timestamp);
                out.ascii(",\"reason\":");
                out.raw(jsonQuoted(spec.failure));
                out.ch('}');
                out.endLine();
                return;
            }
            out.raw(TERMINAL_1);
            out.num(timestamp);
            out.ch('}');
            out.endLine();
        }

        /** The trace/7+ meta members after {@code device}: synchronization, timing, contract, identity. */
        void metaCapture(String measured, String entrypoint, String phase) {
            Config c = plan.cfg;
            out.ascii(",\"measured_region_device_synchronized\":" + cuda);
            out.raw(META_TIMING);
            out.ascii(cuda ? "device_synchronized" : "host");
            out.ascii("\",\"capture_contract\":{\"measurement_scope\":\"profiled_work\",\"operations\":\"complete\""
                    + ",\"tensors\":\"partial\"");
            boolean exact = revision >= 9 && train;
            out.ascii(",\"gradients\":\"" + (train ? (exact ? "complete" : "partial") : "none") + "\"");
            if (exact) {
                gradientContract();
            }
            out.ascii(",\"logical_memory\":\"complete\",\"physical_memory\":\"partial\",\"device_timing\":\""
                    + (cuda ? "partial" : "none") + "\",\"required_semantic_labels\":[");
            out.raw(jsonQuoted(entrypoint));
            out.ch(',');
            out.raw(jsonQuoted(measured));
            out.ch(']');
            if (revision >= 10) {
                if (cuda) {
                    out.ascii(",\"gpu_expected_semantic_labels\":[");
                    out.raw(jsonQuoted(measured));
                    out.ascii("],\"cpu_only_semantic_labels\":[");
                    out.raw(jsonQuoted(entrypoint));
                    out.ch(']');
                } else {
                    out.ascii(",\"cpu_only_semantic_labels\":[");
                    out.raw(jsonQuoted(entrypoint));
                    out.ch(',');
                    out.raw(jsonQuoted(measured));
                    out.ch(']');
                }
            }
            out.ascii("},\"comparison_identity\":{");
            if (revision >= 8) {
                out.ascii("\"implementation_id\":\"tracegraph-synthetic/" + c.commit + "\",");
            }
            out.ascii("\"workload_id\":\"tinygpt/" + phase + "\",\"model_id\":\"tinygpt-" + layers + "l-d" + dim
                    + "\",\"config_id\":\"b" + c.batch + "-t" + c.seq + "\",\"data_id\":\"synthetic-s" + spec.seed
                    + "\",\"seed_policy\":\"fixed\",\"physical_batch\":" + c.batch
                    + ",\"accumulation_steps\":1,\"precision\":\"" + c.act + "\",\"device_state\":\"warm\"}");
        }

        /**
         * The exact gradient manifest (trace/9+ training): every parameter in id order, the five
         * global ones in family {@code global} (active, at least one present), each layer's in
         * {@code layer<i>} (data-conditional, at least one present when any is).
         */
        void gradientContract() {
            int count = paramCount();
            StringBuilder expected = new StringBuilder();
            java.security.MessageDigest digest;
            try {
                digest = java.security.MessageDigest.getInstance("SHA-256");
            } catch (java.security.NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
            digest.update("candle-graph/gradient-manifest/1".getBytes(StandardCharsets.UTF_8));
            digest.update((byte) 0);
            for (int p = 1; p <= count; p++) {
                String family = familyOf(p);
                for (String v : new String[] {"vb", paramKey(p), family}) {
                    byte[] bytes = v.getBytes(StandardCharsets.UTF_8);
                    long n = bytes.length;
                    for (int i = 0; i < 8; i++) {
                        digest.update((byte) (n >>> (8 * i)));
                    }
                    digest.update(bytes);
                }
                expected.append(p == 1 ? "" : ",").append("{\"root\":\"vb\",\"key\":\"").append(paramKey(p))
                        .append("\",\"family\":\"").append(family).append("\"}");
            }
            StringBuilder hex = new StringBuilder("sha256:");
            for (byte b : digest.digest()) {
                hex.append(String.format(Locale.ROOT, "%02x", b & 0xff));
            }
            out.ascii(",\"gradient_contract\":{\"manifest_sha256\":\"" + hex + "\",\"expected\":[" + expected
                    + "],\"families\":[{\"family\":\"global\",\"expectation\":\"active\",\"min_present\":1}");
            for (int i = 0; i < layers; i++) {
                out.ascii(",{\"family\":\"layer" + i + "\",\"expectation\":\"data_conditional\",\"min_present\":1}");
            }
            out.ascii("]}");
        }

        String familyOf(int p) {
            return p <= GLOBAL_PARAMS ? "global" : "layer" + ((p - GLOBAL_PARAMS - 1) / LAYER_PARAMS);
        }

        // ----- record writers

        void writeSpanStart(int id, int parent, String name, long start, int kind, boolean measured, int step) {
            out.raw(SS_1);
            out.num(id);
            if (parent != 0) {
                out.raw(SS_PARENT);
                out.num(parent);
            }
            out.raw(SS_NAME);
            out.ascii(name);
            out.raw(SS_START);
            out.num(start);
            out.raw(SS_KIND);
            out.ascii(SPAN_KIND[kind]);
            out.raw(measured ? SS_MEASURED_TRUE : SS_MEASURED_FALSE);
            if (step != STEP_NONE) {
                out.raw(SS_STEP);
                out.ascii(STEP[step]);
                out.ch('"');
            }
            out.ch('}');
            out.endLine();
        }

        void writeSpanEnd(int id, long duration) {
            out.raw(SE_1);
            out.num(id);
            out.raw(SE_DURATION);
            out.num(duration);
            out.ch('}');
            out.endLine();
        }

        void writeOp(String name, int[] in, int output, Kind k, long ts, long dur) {
            out.raw(OP_1);
            out.num(currentSpan());
            out.raw(OP_NAME);
            out.ascii(name);
            out.raw(OP_INPUTS);
            long inBytes = 0;
            boolean first = true;
            for (int t : in) {
                if (t == 0) {
                    continue;
                }
                out.raw(first ? OP_IN_FIRST : OP_IN_NEXT);
                first = false;
                out.num(t);
                out.ch('"');
                inBytes += kindOf(t).bytes;
            }
            out.raw(OP_OUTPUT);
            out.num(output);
            out.raw(OP_SHAPE);
            out.raw(k.shape);
            out.raw(OP_DTYPE);
            out.raw(k.dtype);
            out.raw(OP_DEVICE);
            out.raw(dev);
            out.raw(OP_DURATION);
            out.num(dur);
            out.raw(OP_TIMESTAMP);
            out.num(ts);
            out.raw(revision >= 7 ? OP7_DENSE : OP_STORAGE);
            out.num(k.bytes);
            out.raw(revision >= 7 ? OP7_INPUT_DENSE : OP_INPUT_STORAGE);
            out.num(inBytes);
            out.ch('}');
            out.endLine();
        }

        void writeMemory(long ts, int t, String opName, String action) {
            Kind k = kindOf(t);
            out.raw(M_1);
            out.num(ts);
            if (revision >= 7) {
                out.raw(M7_STORAGE);
                out.num(t);
                out.ch('"');
            }
            out.raw(M_TENSOR);
            out.num(t);
            out.raw(M_SPAN);
            out.num(currentSpan());
            if (opName != null) {
                out.raw(M_OP);
                out.ascii(opName);
            }
            out.raw(M_DEVICE);
            out.raw(dev);
            out.raw(M_BYTES);
            out.num(k.bytes);
            out.raw(M_ACTION);
            out.ascii(action);
            out.raw(M_SHAPE);
            out.raw(k.shape);
            out.raw(M_DTYPE);
            out.raw(k.dtype);
            out.raw(M_CATEGORY);
            out.ascii(CATEGORY[tCat[t]]);
            out.raw(END_QUOTE_BRACE);
            out.endLine();
        }
    }

    // ---------------------------------------------------------------------------------------
    // Fixed fragments of the records (compact JSON, members in spec order)

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static final byte[] END_QUOTE_BRACE = b("\"}");
    private static final byte[] META_1 = b("{\"kind\":\"meta\",\"schema\":\"" + SCHEMA + "\",\"run_id\":");
    private static final byte[] META_CORRELATION = b(",\"correlation_id\":");
    private static final byte[] META_ENTRYPOINT = b(",\"entrypoint\":");
    private static final byte[] META_PHASE = b(",\"phase\":\"");
    private static final byte[] META_TIMESTAMP = b("\",\"timestamp\":\"");
    private static final byte[] META_CAPTURE = b("\",\"capture_step\":");
    private static final byte[] META_WARMUP = b(",\"warmup_steps\":");
    private static final byte[] META_DEVICE = b(",\"device\":");
    private static final byte[] META_TIMING = b(",\"timing_mode\":\"");
    private static final byte[] META_TAGS = b("\",\"tags\":{");
    private static final byte[] META_END = b("},\"candle_version\":\"0.8.4\"}");
    private static final byte[] SS_1 = b("{\"kind\":\"span_start\",\"id\":\"s");
    private static final byte[] SS_PARENT = b("\",\"parent_id\":\"s");
    private static final byte[] SS_NAME = b("\",\"name\":\"");
    private static final byte[] SS_START = b("\",\"start_ns\":");
    private static final byte[] SS_KIND = b(",\"span_kind\":\"");
    private static final byte[] SS_MEASURED_TRUE = b("\",\"measured\":true");
    private static final byte[] SS_MEASURED_FALSE = b("\",\"measured\":false");
    private static final byte[] SS_STEP = b(",\"step\":\"");
    private static final byte[] SE_1 = b("{\"kind\":\"span_end\",\"id\":\"s");
    private static final byte[] SE_DURATION = b("\",\"duration_ns\":");
    private static final byte[] OP_1 = b("{\"kind\":\"op\",\"span_id\":\"s");
    private static final byte[] OP_NAME = b("\",\"op_name\":\"");
    private static final byte[] OP_INPUTS = b("\",\"inputs\":[");
    private static final byte[] OP_IN_FIRST = b("\"t");
    private static final byte[] OP_IN_NEXT = b(",\"t");
    private static final byte[] OP_OUTPUT = b("],\"output\":\"t");
    private static final byte[] OP_SHAPE = b("\",\"shape\":");
    private static final byte[] OP_DTYPE = b(",\"dtype\":\"");
    private static final byte[] OP_DEVICE = b("\",\"device\":");
    private static final byte[] OP_DURATION = b(",\"duration_ns\":");
    private static final byte[] OP_TIMESTAMP = b(",\"timestamp_ns\":");
    private static final byte[] OP_STORAGE = b(",\"storage_bytes\":");
    private static final byte[] OP_INPUT_STORAGE = b(",\"input_storage_bytes\":");
    private static final byte[] M_1 = b("{\"kind\":\"memory\",\"timestamp_ns\":");
    private static final byte[] M_TENSOR = b(",\"tensor_id\":\"t");
    private static final byte[] M_SPAN = b("\",\"span_id\":\"s");
    private static final byte[] M_OP = b("\",\"op_name\":\"");
    private static final byte[] M_DEVICE = b("\",\"device\":");
    private static final byte[] M_BYTES = b(",\"bytes\":");
    private static final byte[] M_ACTION = b(",\"action\":\"");
    private static final byte[] M_SHAPE = b("\",\"shape\":");
    private static final byte[] M_DTYPE = b(",\"dtype\":\"");
    private static final byte[] M_CATEGORY = b("\",\"category\":\"");
    private static final byte[] T_1 = b("{\"kind\":\"tensor\",\"span_id\":\"s");
    private static final byte[] T_TENSOR = b("\",\"tensor_id\":\"t");
    private static final byte[] T_SHAPE = b("\",\"shape\":");
    private static final byte[] T_DTYPE = b(",\"dtype\":\"");
    private static final byte[] T_DEVICE = b("\",\"device\":");
    private static final byte[] T_GRAD_TRUE = b(",\"requires_grad\":true,\"storage_bytes\":");
    private static final byte[] T_GRAD_FALSE = b(",\"requires_grad\":false,\"storage_bytes\":");
    private static final byte[] T_CATEGORY = b(",\"category\":\"");
    private static final byte[] DM_1 = b("{\"kind\":\"device_memory\",\"timestamp_ns\":");
    private static final byte[] DM_DEVICE = b(",\"device\":");
    private static final byte[] DM_USED = b(",\"used_bytes\":");
    private static final byte[] DM_FREE = b(",\"free_bytes\":");
    private static final byte[] DM_RESERVED = b(",\"reserved_bytes\":");
    private static final byte[] G_1 = b("{\"kind\":\"gradient\",\"event_id\":\"grad-");
    private static final byte[] G_ROOT = b("\",\"root\":\"vb\",\"key\":\"");
    private static final byte[] G_STATE = b("\",\"state\":\"");
    private static final byte[] G_NORM = b("\",\"norm\":");
    private static final byte[] G_ZERO_NORM = b("\",\"norm\":0.0}");
    private static final byte[] E_1 = b("{\"kind\":\"edge\",\"from_span\":\"s");
    private static final byte[] E_TO = b("\",\"to_span\":\"s");
    private static final byte[] E_DURATION = b("\",\"duration_ns\":");

    /** JSON string literal (quotes included) as UTF-8 bytes. */
    private static byte[] metaStart(int revision) {
        return b("{\"kind\":\"meta\",\"schema\":\"candle-graph/trace/" + revision + "\",\"run_id\":");
    }

    private static final byte[] OP7_DENSE = b(",\"output_dense_bytes\":");
    private static final byte[] OP7_INPUT_DENSE = b(",\"input_dense_bytes\":");
    private static final byte[] M7_STORAGE = b(",\"storage_id\":\"st");
    private static final byte[] T7_LABEL = b("\",\"label\":\"");
    private static final byte[] T7_GRAD_TRUE = b(",\"requires_grad\":true,\"dense_bytes\":");
    private static final byte[] T7_GRAD_FALSE = b(",\"requires_grad\":false,\"dense_bytes\":");
    private static final byte[] DM7_CAPACITY = b(",\"capacity_bytes\":");
    private static final byte[] E7_1 = b("{\"kind\":\"edge\",\"edge_kind\":\"call\",\"from_span\":\"s");
    private static final byte[] E7_DURATION = b("\",\"host_duration_ns\":");
    private static final byte[] DE_1 = b("{\"kind\":\"edge\",\"edge_kind\":\"data\",\"from_tensor\":\"t");
    private static final byte[] DE_TO = b("\",\"to_tensor\":\"t");
    private static final byte[] DI_1 = b("{\"kind\":\"device_interval\",\"span_id\":\"s");
    private static final byte[] DI_DEVICE = b("\",\"device\":");
    private static final byte[] DI_STREAM = b(",\"stream_id\":\"");
    private static final byte[] DI_CLOCK = b("\",\"clock_id\":\"");
    private static final byte[] DI_START = b("\",\"backend\":\"cuda\",\"start_ns\":");
    private static final byte[] DI_DURATION = b(",\"duration_ns\":");
    private static final byte[] TS_1 = b("{\"kind\":\"tensor_stats\",\"span_id\":\"s");
    private static final byte[] TS_LABEL = b("\",\"label\":\"");
    private static final byte[] TS_SHAPE = b("\",\"shape\":");
    private static final byte[] TS_DTYPE = b(",\"dtype\":\"");
    private static final byte[] TS_ELEMENTS = b("\",\"elements\":");
    private static final byte[] TS_NON_FINITE = b(",\"non_finite\":0");
    private static final byte[] TERMINAL_1 = b("{\"kind\":\"terminal\",\"outcome\":\"complete\",\"timestamp_ns\":");

    static byte[] jsonQuoted(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"': sb.append("\\\""); break;
                case '\\': sb.append("\\\\"); break;
                case '\n': sb.append("\\n"); break;
                case '\r': sb.append("\\r"); break;
                case '\t': sb.append("\\t"); break;
                case '\b': sb.append("\\b"); break;
                case '\f': sb.append("\\f"); break;
                default:
                    if (c < 0x20) {
                        sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
            }
        }
        return sb.append('"').toString().getBytes(StandardCharsets.UTF_8);
    }

    // ---------------------------------------------------------------------------------------
    // Output buffer: bytes, flushed at line boundaries (so multi-byte characters never split)

    private static final class Out {
        private static final int FLUSH_AT = 1 << 18;
        private byte[] buf = new byte[(1 << 18) + (1 << 14)];
        private int pos;
        private final OutputStream os;
        private final Writer writer;

        Out(OutputStream os, Writer writer) {
            this.os = os;
            this.writer = writer;
        }

        private void grow(int n) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, pos + n));
        }

        void raw(byte[] b) {
            int n = b.length;
            if (pos + n > buf.length) {
                grow(n);
            }
            System.arraycopy(b, 0, buf, pos, n);
            pos += n;
        }

        void ch(char c) {
            if (pos == buf.length) {
                grow(1);
            }
            buf[pos++] = (byte) c;
        }

        /** Writes a string known to be ASCII without JSON escapes. */
        void ascii(String s) {
            int n = s.length();
            if (pos + n > buf.length) {
                grow(n);
            }
            byte[] b = buf;
            int p = pos;
            for (int i = 0; i < n; i++) {
                b[p++] = (byte) s.charAt(i);
            }
            pos = p;
        }

        void num(long v) {
            if (pos + 20 > buf.length) {
                grow(20);
            }
            if (v < 10) {
                buf[pos++] = (byte) ('0' + v);
                return;
            }
            int len = 1;
            for (long x = v / 10; x > 0; x /= 10) {
                len++;
            }
            int p = pos + len;
            pos = p;
            byte[] b = buf;
            while (v > 0) {
                b[--p] = (byte) ('0' + v % 10);
                v /= 10;
            }
        }

        void endLine() {
            ch('\n');
            if (pos >= FLUSH_AT) {
                flushUnchecked();
            }
        }

        private void flushUnchecked() {
            try {
                flush();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        void flush() throws IOException {
            if (pos == 0) {
                return;
            }
            if (os != null) {
                os.write(buf, 0, pos);
            } else {
                writer.write(new String(buf, 0, pos, StandardCharsets.UTF_8));
            }
            pos = 0;
        }
    }

    // ---------------------------------------------------------------------------------------
    // Command line

    /**
     * {@code SyntheticTrace [train|infer|deep|wide] N OUTFILE [--seed S] [--device D]
     * [--run-id ID] [--tag KEY=VALUE]...}
     */
    public static void main(String[] args) throws IOException {
        if (args.length < 3) {
            usage("expected a shape, a size and an output file");
            return;
        }
        long n;
        try {
            n = Long.parseLong(args[1].replace("_", ""));
        } catch (NumberFormatException e) {
            usage("size is not a number: " + args[1]);
            return;
        }
        SyntheticTrace trace;
        switch (args[0]) {
            case "train": trace = training().ops(n); break;
            case "infer": trace = inference().ops(n); break;
            case "deep": trace = deepChain(Math.toIntExact(n)); break;
            case "wide": trace = wide(Math.toIntExact(n)); break;
            default:
                usage("unknown shape: " + args[0]);
                return;
        }
        for (int i = 3; i < args.length; i++) {
            String a = args[i];
            if (i + 1 >= args.length) {
                usage("missing value after " + a);
                return;
            }
            String v = args[++i];
            switch (a) {
                case "--seed": trace.seed(Long.parseLong(v)); break;
                case "--device": trace.device(v); break;
                case "--run-id": trace.runId(v); break;
                case "--timing-seed": trace.timingSeed(Long.parseLong(v)); break;
                case "--slow": {
                    String[] kv = pair(v, true, "--slow needs SPAN=FACTOR");
                    trace.slowSpan(kv[0], Double.parseDouble(kv[1]));
                    break;
                }
                case "--grow": {
                    String[] kv = pair(v, true, "--grow needs SPAN=TENSORS");
                    trace.growMemory(kv[0], Integer.parseInt(kv[1]));
                    break;
                }
                case "--tag": {
                    String[] kv = pair(v, false, "--tag needs KEY=VALUE");
                    trace.tag(kv[0], kv[1]);
                    break;
                }
                case "--schema": trace.schema(Integer.parseInt(v)); break;
                case "--edges":
                    if (!v.equals("hierarchy")) {
                        usage("--edges takes hierarchy");
                        return;
                    }
                    trace.hierarchyEdges();
                    break;
                default:
                    usage("unknown option: " + a);
                    return;
            }
        }
        Path file = Path.of(args[2]);
        long t0 = System.nanoTime();
        trace.writeTo(file);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        System.err.printf(Locale.ROOT, "wrote %s: %,d bytes in %,d ms%n", file, Files.size(file), ms);
    }

    /** {@code A=B} split at its first (or, with {@code last}, its last) '='; exits with usage otherwise. */
    private static String[] pair(String value, boolean last, String problem) {
        int eq = last ? value.lastIndexOf('=') : value.indexOf('=');
        if (eq <= 0) {
            usage(problem + ": " + value);
        }
        return new String[] {value.substring(0, eq), value.substring(eq + 1)};
    }

    private static void usage(String problem) {
        System.err.println("SyntheticTrace: " + problem);
        System.err.println("usage: SyntheticTrace [train|infer|deep|wide] N OUTFILE [--seed S] [--timing-seed S]"
                + " [--device D] [--run-id ID] [--tag KEY=VALUE]... [--slow SPAN=FACTOR] [--grow SPAN=TENSORS]"
                + " [--schema 6..10] [--edges hierarchy]");
        System.exit(2);
    }

}
