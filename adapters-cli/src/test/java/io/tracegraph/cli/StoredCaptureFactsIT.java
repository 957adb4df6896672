package io.tracegraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tracegraph.domain.compare.PathStats;
import io.tracegraph.domain.compare.RunFacts;
import io.tracegraph.domain.graph.ExecutionGraph;
import io.tracegraph.domain.graph.GraphBuilder;
import io.tracegraph.domain.graph.GraphOutcome;
import io.tracegraph.domain.health.TraceHealth;
import io.tracegraph.domain.port.StoredGraphs.GraphPart;
import io.tracegraph.domain.port.TraceReader;
import io.tracegraph.domain.run.PathHistoryPoint;
import io.tracegraph.domain.run.RunFilter;
import io.tracegraph.domain.run.RunListing;
import io.tracegraph.domain.run.RunRef;
import io.tracegraph.domain.run.RunResolution;
import io.tracegraph.domain.run.RunSummary;
import io.tracegraph.domain.run.RunToStore;
import io.tracegraph.domain.run.StoreResult;
import io.tracegraph.domain.trace.RunOutcome;
import io.tracegraph.domain.trace.TraceDocument;
import io.tracegraph.json.JacksonTraceReader;
import io.tracegraph.json.SyntheticTrace;
import io.tracegraph.json.pytorch.PyTorchTraceReader;
import io.tracegraph.postgres.DatabaseConfig;
import io.tracegraph.postgres.PostgresExtension;
import io.tracegraph.postgres.PostgresStore;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The capture facts of candle-graph trace/7..10 and of PyTorch profiler traces through the real
 * store (V6) and its ports: every stored graph is the graph building its trace gives (device time
 * per node, capture outcome, contract and identity, tensor statistics, tensor labels, storage ids,
 * the slowest spans by device time), whole and by part; the path statistics that comparisons read
 * carry the paths' device times as the domain aggregates them; the facts of a run carry its outcome,
 * identity, tensor statistics and device time; the history of a path has its device times; a failed
 * capture is stored as a failed run with what could be built.
 */
@ExtendWith(PostgresExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StoredCaptureFactsIT {
    private final PostgresStore store;
    private final StoreProbe sql;
    /** Each stored run's built graph and health, by run_id, in storing order. */
    private final Map<String, Built> built = new LinkedHashMap<>();

    private record Built(ExecutionGraph graph, TraceHealth health, RunToStore run) {
    }

    StoredCaptureFactsIT(DatabaseConfig db) {
        this.store = PostgresStore.open(db, notice -> { });
        this.sql = new StoreProbe(db);
    }

    @BeforeAll
    void storeRuns() throws Exception {
        for (int revision = 7; revision <= 10; revision++) {
            store(candle("train-t" + revision, SyntheticTrace.training().ops(250).seed(7).schema(revision)
                    .runId("train-t" + revision)));
        }
        store(candle("infer-t10-cpu", SyntheticTrace.inference().ops(120).seed(3).device("cpu").schema(10)
                .runId("infer-t10-cpu")));
        store(candle("train-t10-nan", SyntheticTrace.training().ops(250).seed(7).schema(10).nonFinite(3)
                .runId("train-t10-nan")));
        store(candle("train-t10-failed", SyntheticTrace.training().ops(250).seed(7).schema(10)
                .failed("CUDA out of memory").runId("train-t10-failed")));
        store(candle("train-t6", SyntheticTrace.training().ops(250).seed(7).runId("train-t6")));
        store(resource("/candle/trace10_train.jsonl", new JacksonTraceReader()));
        store(resource("/candle/trace10_failed.jsonl", new JacksonTraceReader()));
        store(resource("/pytorch/hta-a100-alexnet.json.gz", new PyTorchTraceReader()));
        store(resource("/pytorch/hta-mi250-minitoy-train.json.gz", new PyTorchTraceReader()));
    }

    @AfterAll
    void close() {
        store.close();
    }

    @Test
    void everyStoredGraphIsTheGraphItsTraceBuilds() {
        assertThat(built).hasSize(12);
        for (Map.Entry<String, Built> run : built.entrySet()) {
            RunRef ref = ref(run.getKey());
            ExecutionGraph original = run.getValue().graph();
            assertThat(store.graphs().graph(ref)).as(run.getKey()).contains(original);
            for (GraphPart part : GraphPart.values()) {
                ExecutionGraph one = store.graphs().graph(ref, EnumSet.of(part)).orElseThrow();
                assertThat(one.summary()).as(run.getKey() + " " + part).isEqualTo(original.summary());
                assertThat(one.capture()).as(run.getKey() + " " + part).isEqualTo(original.capture());
                assertThat(one.spans()).isEqualTo(part == GraphPart.NODES ? original.spans() : List.of());
                assertThat(one.tensorStats()).isEqualTo(part == GraphPart.TENSOR_STATS ? original.tensorStats()
                        : List.of());
                assertThat(one.tensors()).isEqualTo(part == GraphPart.TENSORS ? original.tensors() : List.of());
            }
        }
        // The corpus has what the store must keep: device times, identities, tensor statistics, failures.
        assertThat(built.get("train-t10").graph().spans()).anyMatch(n -> !n.deviceTimes().isEmpty());
        assertThat(built.get("train-t10").graph().summary().slowestDeviceSpans()).isNotEmpty();
        assertThat(built.get("train-t10").graph().capture().identity()).isNotNull();
        assertThat(built.get("train-t10").graph().capture().contract().gradientContract()).isNotNull();
        assertThat(built.get("train-t10").graph().tensorStats()).isNotEmpty();
        assertThat(built.get("train-t10").graph().tensors()).anyMatch(t -> t.label() != null);
        assertThat(built.get("train-t10").graph().memory().peakBreakdown()).anyMatch(a -> a.storageId() != null);
        assertThat(built.get("train-t10-failed").graph().outcome().isFailed()).isTrue();
        assertThat(built.values()).filteredOn(b -> b.run().sourceName().endsWith("alexnet.json.gz")).singleElement()
                .satisfies(b -> assertThat(b.graph().deviceTimeNs()).isPositive());
    }

    @Test
    void theSummaryOfAStoredRunHasItsOutcomeAndTheHealthOfItsTrace() {
        for (Map.Entry<String, Built> run : built.entrySet()) {
            RunSummary summary = store.catalog().summary(ref(run.getKey())).orElseThrow();
            assertThat(summary.health()).as(run.getKey()).isEqualTo(run.getValue().health());
            assertThat(summary.run().outcome()).as(run.getKey()).isEqualTo(run.getValue().graph().outcome());
            assertThat(summary.run().meta()).as(run.getKey()).isEqualTo(run.getValue().run().meta());
            assertThat(summary.summary()).isEqualTo(run.getValue().graph().summary());
        }
        RunSummary failed = store.catalog().summary(ref("train-t10-failed")).orElseThrow();
        assertThat(failed.run().failed()).isTrue();
        assertThat(failed.run().outcome().reason()).isEqualTo("CUDA out of memory");
        assertThat(failed.health().trusted()).isFalse();
        assertThat(failed.health().structurallyValid()).isTrue();
    }

    @Test
    void comparisonsReadEachPathsDeviceTimeAsTheDomainAggregatesIt() {
        List<RunRef> refs = new ArrayList<>();
        for (Map.Entry<String, Built> run : built.entrySet()) {
            RunRef ref = ref(run.getKey());
            refs.add(ref);
            List<PathStats> expected = PathStats.ofGraph(run.getValue().graph().spans());
            assertThat(store.comparisonFacts().pathStats(ref)).as(run.getKey()).containsExactlyElementsOf(expected);
        }
        assertThat(PathStats.ofGraph(built.get("train-t10").graph().spans()))
                .anyMatch(p -> p.deviceSelfTimeNs() > 0 && p.deviceTotalTimeNs() >= p.deviceSelfTimeNs());
        // Many runs at once (columns alike between runs are not read again): the same facts.
        for (boolean gradients : List.of(true, false)) {
            List<RunFacts> facts = store.comparisonFacts().facts(refs, gradients);
            List<Built> runs = List.copyOf(built.values());
            for (int i = 0; i < refs.size(); i++) {
                RunFacts f = facts.get(i);
                ExecutionGraph g = runs.get(i).graph();
                assertThat(List.copyOf(f.paths())).as(f.runId()).isEqualTo(PathStats.ofGraph(g.spans()));
                assertThat(f.outcome()).as(f.runId()).isEqualTo(g.outcome());
                assertThat(f.identity()).as(f.runId()).isEqualTo(runs.get(i).run().meta().comparisonIdentity());
                assertThat(f.tensorStats()).as(f.runId()).isEqualTo(g.tensorStats());
                assertThat(f.deviceTimeNs()).as(f.runId()).isEqualTo(g.deviceTimeNs());
            }
        }
    }

    @Test
    void theHistoryOfAPathHasItsDeviceTimesAndTheOutcomeOfEachRun() {
        ExecutionGraph graph = built.get("train-t10").graph();
        PathStats forward = PathStats.ofGraph(graph.spans()).stream()
                .filter(p -> p.path().endsWith("/Model::forward")).findFirst().orElseThrow();
        assertThat(forward.deviceTotalTimeNs()).isPositive();
        List<PathHistoryPoint> points = store.pathHistory().history(forward.path(), null);
        Map<String, PathHistoryPoint> byRun = new LinkedHashMap<>();
        points.forEach(p -> byRun.put(p.runId(), p));
        assertThat(byRun.get("train-t10").stats()).isEqualTo(forward);
        assertThat(byRun.get("train-t6").stats().deviceTotalTimeNs()).isZero();
        assertThat(byRun.get("train-t10-failed").failed()).isTrue();
        assertThat(byRun.get("train-t10").failed()).isFalse();
    }

    @Test
    void runsAreListedWithTheirOutcomeAndIdentityAndSelectedByThem() {
        List<RunListing> all = store.catalog().runs(RunFilter.all());
        Map<String, RunListing> byRun = new LinkedHashMap<>();
        all.forEach(r -> byRun.put(r.runId(), r));
        assertThat(byRun.get("train-t10-failed").outcome()).isEqualTo(built.get("train-t10-failed").graph().outcome());
        assertThat(byRun.get("train-t10").identity()).isEqualTo(built.get("train-t10").run().meta()
                .comparisonIdentity());
        assertThat(byRun.get("train-t6").identity()).isNull();

        List<RunListing> failed = store.catalog().runs(RunFilter.all().withOutcome(RunOutcome.Status.FAILED));
        assertThat(failed).extracting(RunListing::runId)
                .containsExactlyInAnyOrder("train-t10-failed", "run-failed");
        String model = built.get("train-t10").run().meta().comparisonIdentity().modelId();
        List<RunListing> ofModel = store.catalog().runs(RunFilter.all().withIdentity(Map.of("model_id", model)));
        assertThat(ofModel).extracting(RunListing::runId).containsExactlyInAnyOrder("train-t7", "train-t8",
                "train-t9", "train-t10", "train-t10-nan", "train-t10-failed");
        long batch = built.get("train-t10").run().meta().comparisonIdentity().physicalBatch();
        assertThat(store.catalog().runs(RunFilter.all().withIdentity(Map.of("model_id", model, "physical_batch",
                Long.toString(batch))))).hasSameSizeAs(ofModel);
        assertThat(store.catalog().runs(RunFilter.all().withIdentity(Map.of("model_id", "no such model")))).isEmpty();
    }

    @Test
    void sqlUsersReadTheNewFactsAsRows() throws Exception {
        for (Map.Entry<String, Built> run : built.entrySet()) {
            ExecutionGraph g = run.getValue().graph();
            long key = ref(run.getKey()).key();
            long deviceTimes = g.spans().stream().mapToLong(n -> n.deviceTimes().size()).sum();
            assertThat(sql.count("SELECT count(*) FROM node_device_times WHERE run_key = " + key)).as(run.getKey())
                    .isEqualTo(deviceTimes);
            assertThat(sql.count("SELECT count(*) FROM tensor_stats WHERE run_key = " + key))
                    .isEqualTo(g.tensorStats().size());
            List<PathStats> paths = PathStats.ofGraph(g.spans());
            List<List<Object>> rows = sql.rows("SELECT path_hash, device_self_time_ns, device_total_time_ns "
                    + "FROM path_device_times WHERE run_key = " + key + " ORDER BY path_rank");
            if (g.deviceTimeNs() == null) {
                assertThat(rows).isEmpty();
            } else {
                assertThat(rows).hasSameSizeAs(paths);
                for (int i = 0; i < paths.size(); i++) {
                    assertThat(rows.get(i)).containsExactly(paths.get(i).pathHash(), paths.get(i).deviceSelfTimeNs(),
                            paths.get(i).deviceTotalTimeNs());
                }
                assertThat(sql.count("SELECT device_time_ns FROM runs WHERE run_key = " + key))
                        .isEqualTo(g.deviceTimeNs());
                // The sums per node agree with the per-path figures that history reads.
                PathStats top = paths.stream().filter(p -> p.deviceTotalTimeNs() > 0).findFirst().orElseThrow();
                assertThat(sql.row("SELECT device_self_time_ns, device_total_time_ns FROM run_path_figures(" + key
                        + ", " + top.pathHash() + ")")).containsExactly(top.deviceSelfTimeNs(),
                        top.deviceTotalTimeNs());
                assertThat(sql.count("SELECT coalesce(sum(self_time_ns), 0) FROM node_device_times WHERE run_key = "
                        + key)).isEqualTo(g.deviceTimeNs());
            }
            long storageIds = g.memory().peakBreakdown().stream().filter(a -> a.storageId() != null).count();
            assertThat(sql.count("SELECT count(storage_id) FROM memory_peak_breakdown WHERE run_key = " + key))
                    .isEqualTo(storageIds);
        }
        var identity = built.get("train-t10").run().meta().comparisonIdentity();
        assertThat(sql.row("SELECT model_id, physical_batch, implementation_id FROM run_identities WHERE run_id = "
                + "'train-t10'")).containsExactly(identity.modelId(), identity.physicalBatch(),
                identity.implementationId());
        assertThat(sql.row("SELECT measurement_scope, expected_gradients FROM run_capture_contracts WHERE run_id = "
                + "'train-t10'")).containsExactly("profiled_work", built.get("train-t10").run().meta()
                .captureContract().gradientContract().expected().size());
        assertThat(sql.row("SELECT outcome, outcome_reason FROM runs WHERE run_id = 'run-failed'"))
                .containsExactly("failed", "CUDA out of memory");
        assertThat(sql.count("SELECT count(*) FROM tensor_stats WHERE non_finite > 0")).isEqualTo(
                built.get("train-t10-nan").graph().tensorStats().size());
    }

    private RunRef ref(String runId) {
        RunResolution resolution = store.catalog().resolve(runId);
        assertThat(resolution).as(runId).isInstanceOf(RunResolution.Found.class);
        return ((RunResolution.Found) resolution).run();
    }

    private void store(Read read) throws Exception {
        GraphOutcome outcome = GraphBuilder.build(read.doc());
        ExecutionGraph graph;
        TraceHealth health;
        if (outcome instanceof GraphOutcome.Built b) {
            graph = b.graph();
            health = b.health();
        } else {
            GraphOutcome.Untrusted u = (GraphOutcome.Untrusted) outcome;
            assertThat(u.isFailedCapture()).as(read.name() + ": " + u.message()).isTrue();
            graph = u.partialGraph();
            health = u.health();
        }
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(read.bytes()));
        RunToStore run = new RunToStore(read.name(), sha, read.bytes().length, read.doc().schema(), read.doc().run(),
                health, graph);
        StoreResult result = store.runStore().store(run, false);
        assertThat(result).as(read.name()).isInstanceOf(StoreResult.Stored.class);
        built.put(read.doc().run().runId(), new Built(graph, health, run));
    }

    private record Read(String name, byte[] bytes, TraceDocument doc) {
    }

    private static Read candle(String name, SyntheticTrace trace) throws IOException {
        StringWriter text = new StringWriter();
        trace.writeTo(text);
        byte[] bytes = text.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        return new Read(name + ".jsonl", bytes, new JacksonTraceReader().read(name, new ByteArrayInputStream(bytes)));
    }

    private static Read resource(String path, TraceReader reader) throws IOException {
        byte[] bytes;
        try (InputStream in = StoredCaptureFactsIT.class.getResourceAsStream(path)) {
            assertThat(in).as(path).isNotNull();
            bytes = in.readAllBytes();
        }
        return new Read(path, bytes, reader.read(path, new ByteArrayInputStream(bytes)));
    }
}
