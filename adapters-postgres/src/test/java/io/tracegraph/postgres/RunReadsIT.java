package io.tracegraph.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.tracegraph.domain.compare.GradientChange;
import io.tracegraph.domain.compare.GradientFact;
import io.tracegraph.domain.compare.PathStats;
import io.tracegraph.domain.compare.RunComparison;
import io.tracegraph.domain.compare.RunFacts;
import io.tracegraph.domain.graph.ExecutionGraph;
import io.tracegraph.domain.graph.GraphBuilder;
import io.tracegraph.domain.graph.GraphOutcome;
import io.tracegraph.domain.port.StoredGraphs;
import io.tracegraph.domain.run.PathHistoryPoint;
import io.tracegraph.domain.run.ReadOnlySql;
import io.tracegraph.domain.run.RunFilter;
import io.tracegraph.domain.run.RunListing;
import io.tracegraph.domain.run.RunRef;
import io.tracegraph.domain.run.RunResolution;
import io.tracegraph.domain.run.RunSummary;
import io.tracegraph.domain.run.RunToStore;
import io.tracegraph.domain.run.SqlOutcome;
import io.tracegraph.domain.run.StoreResult;
import io.tracegraph.domain.trace.EdgeEvent;
import io.tracegraph.domain.trace.ExecutionPhase;
import io.tracegraph.domain.trace.ExecutionStep;
import io.tracegraph.domain.trace.GradientEvent;
import io.tracegraph.domain.trace.GradientState;
import io.tracegraph.domain.trace.MemoryAction;
import io.tracegraph.domain.trace.MemoryCategory;
import io.tracegraph.domain.trace.MemoryEvent;
import io.tracegraph.domain.trace.OpEvent;
import io.tracegraph.domain.trace.RunMeta;
import io.tracegraph.domain.trace.Shape;
import io.tracegraph.domain.trace.SpanKind;
import io.tracegraph.domain.trace.SpanRecord;
import io.tracegraph.domain.trace.TimingMode;
import io.tracegraph.domain.trace.TraceDocument;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The read side against a real store (catalogue, stored graphs, comparison facts, path history,
 * ad-hoc SQL): six small runs written by {@link JdbiRunStore} from graphs
 * built by the domain's {@link GraphBuilder}, then every question asked of them, checked against the
 * domain's own answers on the same graphs and against hand-written SQL over the stored nodes.
 */
@ExtendWith(PostgresExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RunReadsIT {
    private static final String TRAIN = "tinygpt::train";
    private static final String INFER = "tinygpt::infer";
    private static final String INJECTION = "'; DROP TABLE runs; --";
    private static final String ODD_ID = "\u03b4elta" + INJECTION;
    private static final String ODD_ENTRYPOINT = "\u00fcn\u00efcode" + INJECTION;
    private static final String ODD_TAG = "it's \"quoted\"; --";
    private static final String LAYER_MATMUL = "step/Layer::forward/matmul";
    /** Names with '/' and characters outside ASCII (the second is outside the BMP). */
    private static final String INFER_PATH = "\u63a8\u7406/Schicht::vorw\u00e4rts/\u00fc/\ud834\udd1e";
    private static final List<String> TABLES = List.of("runs", "nodes", "edges", "tensors", "gradients",
            "graph_summaries", "memory_summaries", "memory_devices", "memory_timeline", "memory_peak_breakdown",
            "health_issues", "import_log");

    private final Database database;
    private final Jdbi jdbi;
    private final JdbiRunCatalog catalog;
    private final JdbiStoredGraphs graphs;
    private final JdbiComparisonFacts comparisonFacts;
    private final JdbiPathHistory pathHistory;
    private final JdbiAdHocSql adHocSql;
    private final Map<String, RunToStore> stored = new LinkedHashMap<>();
    private Map<String, Long> counts;

    RunReadsIT(DatabaseConfig config) {
        this.database = Database.open(config);
        this.jdbi = database.jdbi();
        this.catalog = new JdbiRunCatalog(jdbi);
        this.graphs = new JdbiStoredGraphs(jdbi);
        this.comparisonFacts = new JdbiComparisonFacts(jdbi);
        this.pathHistory = new JdbiPathHistory(jdbi);
        this.adHocSql = new JdbiAdHocSql(jdbi);
    }

    @BeforeAll
    void storeRuns() {
        // Every run's strings on a second connection, as a big run's are (the CLI's tests
        // store small runs through one connection).
        JdbiRunStore store = new JdbiRunStore(jdbi, null, 0);
        // Stored in this order: import time breaks the tie of gamma-1 and alpha-1's capture time.
        List<RunToStore> runs = List.of(
                train("alpha-1", "2026-08-01T10:00:00Z", Map.of("commit", "abc", "host", "a"), false),
                infer(),
                train("alpha-2", "2026-08-02T10:00:00Z", Map.of("commit", "def"), true),
                train("gamma-1", "2026-08-01T12:00:00+02:00", Map.of("commit", "ghi"), false),
                train("alpha-10", "2026-08-03T10:00:00Z", Map.of("commit", "def"), true),
                odd());
        for (RunToStore run : runs) {
            assertThat(store.store(run, false)).isInstanceOf(StoreResult.Stored.class);
            stored.put(run.meta().runId(), run);
        }
        jdbi.useHandle(h -> h.execute("INSERT INTO import_log (import_id, source_name, outcome, run_id) VALUES "
                + "('00000000-0000-0000-0000-000000000001', 'old.jsonl', 'accepted', 'alpha-1'), "
                + "('00000000-0000-0000-0000-000000000002', 'new.jsonl', 'accepted', 'alpha-10'), "
                + "('00000000-0000-0000-0000-000000000002', 'bad.jsonl', 'rejected', NULL)"));
        counts = counts();
    }

    @AfterAll
    void dataIsIntact() {
        assertThat(counts()).isEqualTo(counts);
    }

    /**
     * The strings row an import wrote on its second connection before its main transaction failed
     * belongs to no run: the next import removes it, but not one whose import still holds the key.
     */
    @Test
    void theNextImportRemovesTheStringsOfAFailedImportButNotOfOneStillRunning() {
        long failed = 9_000_001L;
        long running = 9_000_002L;
        jdbi.useHandle(h -> h.execute("INSERT INTO run_strings (run_key, words, ids) VALUES (?, '{x}', '{y}'), "
                + "(?, '{x}', '{y}')", failed, running));
        try (Handle importing = jdbi.open()) {
            importing.begin();
            importing.createQuery("SELECT pg_advisory_xact_lock(:key)").bind("key", running).mapTo(String.class)
                    .one();
            // A store's first import sweeps, whatever it stores (here: nothing new).
            StoreResult again = new JdbiRunStore(jdbi, null, 0).store(stored.get("alpha-1"), false);
            assertThat(again).isInstanceOf(StoreResult.Duplicate.class);
            importing.rollback();
        }
        List<Long> left = jdbi.withHandle(h -> h.createQuery("SELECT run_key FROM run_strings "
                + "WHERE run_key > 9000000 ORDER BY run_key").mapTo(Long.class).list());
        assertThat(left).containsExactly(running);
        jdbi.useHandle(h -> h.execute("DELETE FROM run_strings WHERE run_key = ?", running));
    }

    // ---- listing -------------------------------------------------------------------------------

    @Test
    void listsRunsNewestFirstByCaptureThenImportTime() {
        assertThat(ids(catalog.runs(RunFilter.all())))
                .containsExactly("alpha-10", "alpha-2", "gamma-1", "alpha-1", ODD_ID, "beta-1");
        assertThat(ids(catalog.runs(RunFilter.all().withLimit(2)))).containsExactly("alpha-10", "alpha-2");
    }

    @Test
    void listsWhatARunIs() {
        RunListing alpha = catalog.runs(RunFilter.all()).stream().filter(r -> r.runId().equals("alpha-1"))
                .findFirst().orElseThrow();
        ExecutionGraph graph = stored.get("alpha-1").graph();
        assertThat(alpha.timestamp()).isEqualTo("2026-08-01T10:00:00Z");
        assertThat(alpha.capturedAt()).isEqualTo(Instant.parse("2026-08-01T10:00:00Z"));
        assertThat(alpha.importedAt()).isBefore(Instant.now().plusSeconds(1));
        assertThat(alpha.entrypoint()).isEqualTo(TRAIN);
        assertThat(alpha.phase()).isEqualTo(ExecutionPhase.TRAIN);
        assertThat(alpha.device()).isEqualTo("cuda:0");
        assertThat(alpha.totalMs()).isEqualTo(graph.summary().totalMs());
        assertThat(alpha.peakBytes()).isEqualTo(graph.memory().summary().peakBytes()).isEqualTo(192);
        assertThat(alpha.tags()).containsExactly(Map.entry("commit", "abc"), Map.entry("host", "a"));

        RunListing beta = catalog.runs(RunFilter.all().withEntrypoint(INFER)).get(0);
        assertThat(beta.timestamp()).isEqualTo("yesterday, more or less");
        assertThat(beta.capturedAt()).isNull();
        assertThat(beta.phase()).isEqualTo(ExecutionPhase.INFER);
    }

    @Test
    void filtersByEntrypointTagsAndTime() {
        assertThat(ids(catalog.runs(RunFilter.all().withEntrypoint(INFER)))).containsExactly("beta-1");
        assertThat(ids(catalog.runs(RunFilter.all().withEntrypoint(TRAIN).withLimit(3))))
                .containsExactly("alpha-10", "alpha-2", "gamma-1");
        assertThat(ids(catalog.runs(RunFilter.all().withTags(Map.of("commit", "abc")))))
                .containsExactly("alpha-1", "beta-1");
        assertThat(ids(catalog.runs(RunFilter.all().withTags(Map.of("commit", "abc", "host", "a")))))
                .containsExactly("alpha-1");
        assertThat(ids(catalog.runs(RunFilter.all().withEntrypoint(TRAIN).withTags(Map.of("commit", "def")))))
                .containsExactly("alpha-10", "alpha-2");

        // beta-1's timestamp is not ISO-8601: its import time counts.
        Instant since = Instant.parse("2026-08-01T10:00:00Z");
        List<RunListing> recent = catalog.runs(RunFilter.all().withSince(since));
        Instant betaImported = catalog.runs(RunFilter.all().withEntrypoint(INFER)).get(0).importedAt();
        List<String> expected = new ArrayList<>(List.of("alpha-10", "alpha-2", "gamma-1", "alpha-1"));
        if (!betaImported.isBefore(since)) {
            expected.add("beta-1");
        }
        assertThat(ids(recent)).containsExactlyElementsOf(expected);
        assertThat(ids(catalog.runs(RunFilter.all().withSince(Instant.parse("2026-08-02T10:00:00.000001Z"))
                .withEntrypoint(TRAIN)))).containsExactly("alpha-10");
    }

    @Test
    void bindsOddNamesAsValues() {
        assertThat(ids(catalog.runs(RunFilter.all().withEntrypoint(ODD_ENTRYPOINT)))).containsExactly(ODD_ID);
        assertThat(ids(catalog.runs(RunFilter.all().withTags(Map.of("q", ODD_TAG))))).containsExactly(ODD_ID);
        assertThat(ids(catalog.runs(RunFilter.all().withTags(Map.of(INJECTION, INJECTION))))).isEmpty();
        assertThat(ids(catalog.runs(RunFilter.all().withEntrypoint(INJECTION)))).isEmpty();
        assertThat(catalog.resolve(INJECTION)).isInstanceOf(RunResolution.NotFound.class);
        assertThat(found(ODD_ID).runId()).isEqualTo(ODD_ID);
        assertThat(found("\u03b4").runId()).isEqualTo(ODD_ID);
        assertThat(pathHistory.history(INJECTION, INJECTION)).isEmpty();
        assertThat(pathHistory.history("odd/" + INJECTION, null)).singleElement()
                .satisfies(p -> assertThat(p.runId()).isEqualTo(ODD_ID));
        assertThat(catalog.summary(found(ODD_ID)).orElseThrow().run().meta())
                .isEqualTo(stored.get(ODD_ID).meta());
    }

    // ---- run references ------------------------------------------------------------------------

    @Test
    void resolvesRunIdsAndTheirPrefixes() {
        assertThat(found("alpha-2").runId()).isEqualTo("alpha-2");
        // An exact run_id wins over the longer ones it is a prefix of.
        assertThat(found("alpha-1").runId()).isEqualTo("alpha-1");
        assertThat(found("bet").runId()).isEqualTo("beta-1");
        assertThat(found("gamma").runId()).isEqualTo("gamma-1");
        RunRef alpha = found("alpha-10");
        assertThat(catalog.runs(RunFilter.all().withLimit(1)).get(0).run()).isEqualTo(alpha);
    }

    @Test
    void listsTheCandidatesOfAnAmbiguousPrefix() {
        RunResolution resolution = catalog.resolve("alpha");
        assertThat(resolution).isInstanceOf(RunResolution.Ambiguous.class);
        RunResolution.Ambiguous ambiguous = (RunResolution.Ambiguous) resolution;
        assertThat(ambiguous.candidates()).containsExactly("alpha-10", "alpha-2", "alpha-1");
        assertThat(ambiguous.matches()).isEqualTo(3);
        assertThat(ambiguous.message()).isEqualTo("run reference `alpha` is ambiguous: it matches alpha-10, "
                + "alpha-2, alpha-1; give more of the run_id");
    }

    @Test
    void resolvesLatestAndLatestTildeN() {
        assertThat(found("latest").runId()).isEqualTo("alpha-10");
        assertThat(found("latest~0").runId()).isEqualTo("alpha-10");
        assertThat(found("latest~1").runId()).isEqualTo("alpha-2");
        assertThat(found("latest~2").runId()).isEqualTo("gamma-1");
        assertThat(found("latest~3").runId()).isEqualTo("alpha-1");
        assertThat(found("latest~5").runId()).isEqualTo("beta-1");
        RunResolution beyond = catalog.resolve("latest~6");
        assertThat(beyond).isInstanceOf(RunResolution.NotFound.class);
        assertThat(((RunResolution.NotFound) beyond).message())
                .isEqualTo("`latest~6` is not stored: there are 6 runs (latest to latest~5)");
    }

    @Test
    void saysWhyAReferenceNamesNoRun() {
        assertThat(((RunResolution.NotFound) catalog.resolve("zeta")).message())
                .isEqualTo("no stored run has the run_id `zeta` or one starting with it");
        assertThat(catalog.resolve("latest~x")).isInstanceOf(RunResolution.NotFound.class);
        assertThat(catalog.resolve("latest~-1")).isInstanceOf(RunResolution.NotFound.class);
        assertThat(catalog.resolve(" ")).isInstanceOf(RunResolution.NotFound.class);
        assertThat(catalog.resolve("alpha\0")).isInstanceOf(RunResolution.NotFound.class);
    }

    // ---- show ----------------------------------------------------------------------------------

    @Test
    void summarisesARunAsTheDomainDid() {
        for (RunToStore run : stored.values()) {
            RunSummary summary = catalog.summary(found(run.meta().runId())).orElseThrow();
            assertThat(summary.run().meta()).isEqualTo(run.meta());
            assertThat(summary.health()).isEqualTo(run.health());
            assertThat(summary.summary()).isEqualTo(run.graph().summary());
            assertThat(summary.devices()).isEqualTo(run.graph().memory().byDevice());
            assertThat(summary.run().sourceName()).isEqualTo(run.sourceName());
            assertThat(summary.run().contentSha256()).isEqualTo(run.contentSha256());
            assertThat(summary.run().nodeCount()).isEqualTo(run.graph().spans().size());
            assertThat(summary.run().graphSchema()).isEqualTo(ExecutionGraph.SCHEMA);
        }
        RunSummary alpha = catalog.summary(found("alpha-1")).orElseThrow();
        assertThat(alpha.health().gaps()).contains("no tensor checkpoints were captured");
        assertThat(alpha.summary().slowestSpans()).isNotEmpty();
        assertThat(alpha.summary().memory().peakByCategory().asMap())
                .containsEntry(MemoryCategory.ACTIVATION, 128L).containsEntry(MemoryCategory.PARAMETER, 64L);
        assertThat(alpha.devices()).extracting(d -> d.device()).containsExactly("cpu", "cuda:0");
        assertThat(catalog.summary(new RunRef(-1, "gone"))).isEmpty();
    }

    // ---- per-path aggregates and comparisons ---------------------------------------------------

    @Test
    void aggregatesPathsAsTheDomainDoesOnTheGraph() {
        for (RunToStore run : stored.values()) {
            assertThat(comparisonFacts.pathStats(found(run.meta().runId())))
                    .isEqualTo(PathStats.ofGraph(run.graph().spans()));
        }
        assertThat(comparisonFacts.pathStats(found(ODD_ID))).filteredOn(p -> p.path().equals("odd/dup")).singleElement()
                .satisfies(p -> {
                    assertThat(p.kind()).isEqualTo("function");
                    assertThat(p.count()).isEqualTo(2);
                });
        List<PathStats> alpha = comparisonFacts.pathStats(found("alpha-1"));
        assertThat(alpha).filteredOn(p -> p.path().equals(LAYER_MATMUL)).singleElement()
                .satisfies(p -> assertThat(p.count()).isEqualTo(2));
        assertThat(comparisonFacts.pathStats(new RunRef(-1, "gone"))).isEmpty();
    }

    @Test
    void aggregatesPathsAsHandWrittenSqlOverTheStoredNodes() {
        for (String runId : stored.keySet()) {
            RunRef run = found(runId);
            assertThat(Set.copyOf(comparisonFacts.pathStats(run))).isEqualTo(Set.copyOf(handWritten(run.key())));
        }
    }

    @Test
    void givesTheSamePathsInTheRunPathsView() {
        for (String runId : stored.keySet()) {
            RunRef run = found(runId);
            for (String sql : List.of("SELECT * FROM run_paths WHERE run_key = :key",
                    "SELECT * FROM run_path_stats(:key)")) {
                List<PathStats> view = jdbi.withHandle(h -> h.createQuery(sql).bind("key", run.key())
                        .map((rs, ctx) -> new PathStats(rs.getString("path"), rs.getLong("path_hash"),
                                rs.getString("kind"), rs.getLong("count"), rs.getLong("self_time_ns"),
                                rs.getLong("total_time_ns"), rs.getLong("bytes"), rs.getLong("peak_bytes")))
                        .list());
                assertThat(PathStats.aggregate(view)).as(sql).isEqualTo(comparisonFacts.pathStats(run));
            }
        }
    }

    @Test
    void comparesTwoRunsInSqlAsHandWrittenSqlDoes() {
        RunRef base = found("alpha-1");
        RunRef cand = found("alpha-2");
        Map<Long, PathStats> before = byHash(handWritten(base.key()));
        Map<Long, PathStats> after = byHash(handWritten(cand.key()));
        List<Map<String, Object>> rows = jdbi.withHandle(h -> h.createQuery(
                "SELECT * FROM compare_runs(:base, :cand)").bind("base", base.key()).bind("cand", cand.key())
                .mapToMap().list());

        Set<Long> hashes = new java.util.HashSet<>(before.keySet());
        hashes.addAll(after.keySet());
        assertThat(rows).hasSize(hashes.size());
        assertThat(rows).extracting(r -> r.get("status")).contains("both", "added", "removed");
        for (Map<String, Object> row : rows) {
            long hash = (Long) row.get("path_hash");
            PathStats b = before.get(hash);
            PathStats c = after.get(hash);
            assertThat(row.get("status")).isEqualTo(b == null ? "added" : c == null ? "removed" : "both");
            assertThat(row.get("path")).isEqualTo((c != null ? c : b).path());
            assertThat(row.get("kind")).isEqualTo((c != null ? c : b).kind());
            assertThat(row.get("base_count")).isEqualTo(b == null ? null : b.count());
            assertThat(row.get("cand_count")).isEqualTo(c == null ? null : c.count());
            checkMetric(row, "self_time_ns", "self_time_ratio", b == null ? null : b.selfTimeNs(),
                    c == null ? null : c.selfTimeNs());
            checkMetric(row, "total_time_ns", "total_time_ratio", b == null ? null : b.totalTimeNs(),
                    c == null ? null : c.totalTimeNs());
            checkMetric(row, "bytes", "bytes_ratio", b == null ? null : b.bytes(), c == null ? null : c.bytes());
            checkMetric(row, "peak_bytes", "peak_bytes_ratio", b == null ? null : b.peakBytes(),
                    c == null ? null : c.peakBytes());
        }
        Map<String, Object> matmul = rows.stream().filter(r -> r.get("path").equals(LAYER_MATMUL)).findFirst()
                .orElseThrow();
        assertThat(matmul.get("delta_self_time_ns")).isEqualTo(150L);
        assertThat((Double) matmul.get("self_time_ratio")).isCloseTo(400.0 / 250.0, within(1e-12));
    }

    @Test
    void comparesStoredRunsAsTheDomainComparesTheirGraphs() {
        List<RunFacts> facts = comparisonFacts.facts(List.of(found("alpha-1"), found("alpha-2"), found("beta-1"),
                found(ODD_ID)));
        assertThat(facts).extracting(RunFacts::runId).containsExactly("alpha-1", "alpha-2", "beta-1", ODD_ID);
        for (RunFacts fact : facts) {
            RunFacts expected = facts(stored.get(fact.runId()));
            assertThat(fact.totalMs()).isEqualTo(expected.totalMs());
            assertThat(fact.peakBytes()).isEqualTo(expected.peakBytes());
            assertThat(fact.gradients()).isEqualTo(expected.gradients());
            assertThat(fact.paths()).isEqualTo(expected.paths());
        }
        RunComparison fromStore = RunComparison.compare(facts.get(0), facts.get(1));
        RunComparison fromGraphs = RunComparison.compare(facts(stored.get("alpha-1")), facts(stored.get("alpha-2")));
        assertThat(fromStore).isEqualTo(fromGraphs);
        assertThat(fromStore.added()).extracting(PathStats::path).contains("step/extra", "step/extra/add");
        assertThat(fromStore.removed()).extracting(PathStats::path).contains("step/loss", "step/loss/mean");
        assertThat(fromStore.hasGradientRegression()).isTrue();
        assertThat(comparisonFacts.facts(List.of())).isEmpty();
        assertThatThrownBy(() -> comparisonFacts.facts(List.of(found("alpha-1"), new RunRef(-1, "gone"))))
                .isInstanceOf(DatabaseException.class).hasMessage("run `gone` is no longer stored");
    }

    @Test
    void readsTheWholeGraphAsStoredOrOnlyThePartsAskedFor() {
        for (String runId : List.of("alpha-1", "alpha-2", "beta-1")) {
            ExecutionGraph original = stored.get(runId).graph();
            RunRef ref = found(runId);

            assertThat(graphs.graph(ref)).contains(original);
            ExecutionGraph nodesOnly = graphs.graph(ref, EnumSet.of(StoredGraphs.GraphPart.NODES)).orElseThrow();
            assertThat(nodesOnly.spans()).isEqualTo(original.spans());
            assertThat(nodesOnly.summary()).isEqualTo(original.summary());
            assertThat(nodesOnly.edges()).isEmpty();
            assertThat(nodesOnly.tensors()).isEmpty();
            assertThat(nodesOnly.gradients()).isEmpty();
            assertThat(nodesOnly.memory().summary()).isEqualTo(original.memory().summary());
            assertThat(nodesOnly.memory().timeline()).isEmpty();
            ExecutionGraph memoryOnly = graphs.graph(ref, EnumSet.of(StoredGraphs.GraphPart.MEMORY)).orElseThrow();
            assertThat(memoryOnly.memory()).isEqualTo(original.memory());
            assertThat(memoryOnly.spans()).isEmpty();
        }
        assertThat(graphs.graph(new RunRef(-1, "gone"), EnumSet.noneOf(StoredGraphs.GraphPart.class))).isEmpty();
    }

    @Test
    void readsTheEdgesBesideTheNodesAsItReadsThemAfter() {
        // Big runs have their edges read on a second connection while the nodes are read: here all.
        JdbiStoredGraphs apart = new JdbiStoredGraphs(jdbi, 1);
        for (String runId : stored.keySet()) {
            assertThat(apart.graph(found(runId))).contains(stored.get(runId).graph());
            assertThat(apart.graph(found(runId), EnumSet.of(StoredGraphs.GraphPart.NODES, StoredGraphs.GraphPart.EDGES))
                    .orElseThrow().edges()).isEqualTo(stored.get(runId).graph().edges());
        }
        assertThat(apart.graph(new RunRef(-1, "gone"))).isEmpty();
    }

    @Test
    void readsTheSameFactsWithOneConnectionOrMany() {
        List<RunRef> runs = List.of(found("beta-1"), found("alpha-1"), found("alpha-2"), found(ODD_ID),
                found("alpha-1"));
        List<RunFacts> alone = new JdbiComparisonFacts(jdbi, 1).facts(runs);

        assertThat(new JdbiComparisonFacts(jdbi, 4).facts(runs)).isEqualTo(alone);
        assertThat(alone).extracting(RunFacts::runId).containsExactly("beta-1", "alpha-1", "alpha-2", ODD_ID,
                "alpha-1");
        assertThatThrownBy(() -> new JdbiComparisonFacts(jdbi, 4).facts(List.of(found("alpha-1"), found("alpha-2"),
                new RunRef(-1, "gone"), found("beta-1")))).isInstanceOf(DatabaseException.class)
                .hasMessage("run `gone` is no longer stored");
    }

    @Test
    void readsFactsAgainWithThePathTextsAnEarlierCallRead() {
        // The second and third calls take the texts of the first run of the first call as their
        // reference: beta-1 shares few paths with it (probed), alpha-2 lacks some and adds others.
        JdbiComparisonFacts reused = new JdbiComparisonFacts(jdbi, 2);
        for (List<String> ids : List.of(List.of("alpha-1"), List.of("beta-1", "alpha-2"), List.of(ODD_ID, "alpha-1"))) {
            List<RunFacts> facts = reused.facts(ids.stream().map(this::found).toList());
            assertThat(facts).extracting(RunFacts::runId).containsExactlyElementsOf(ids);
            for (RunFacts fact : facts) {
                assertThat(fact.paths()).isEqualTo(facts(stored.get(fact.runId())).paths());
            }
        }
        assertThat(reused.pathStats(found("beta-1"))).isEqualTo(facts(stored.get("beta-1")).paths());
        assertThat(reused.pathStats(new RunRef(-1, "gone"))).isEmpty();
    }

    @Test
    void readsGradientsInTraceOrder() {
        assertThat(graphs.gradients(found("alpha-2"))).isEqualTo(stored.get("alpha-2").graph().gradients());
        assertThat(graphs.gradients(found("beta-1"))).isEmpty();
    }

    @Test
    void comparesGradientStatesInSql() {
        List<Map<String, Object>> rows = jdbi.withHandle(h -> h.createQuery("SELECT * FROM compare_gradients("
                + "(SELECT run_key FROM runs WHERE run_id = 'alpha-1'), "
                + "(SELECT run_key FROM runs WHERE run_id = 'alpha-2')) ORDER BY key")
                .mapToMap().list());
        assertThat(rows).extracting(r -> r.get("key"), r -> r.get("status"), r -> r.get("base_state"),
                r -> r.get("cand_state"), r -> r.get("changed"), r -> r.get("regressed"))
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("w1", "both", "present", "zero", true, true),
                        org.assertj.core.groups.Tuple.tuple("w2", "both", "present", "present", false, false),
                        org.assertj.core.groups.Tuple.tuple("w3", "added", null, "missing", true, false));
        // The same changes as the domain's comparison (which also lists added gradients).
        RunComparison comparison = RunComparison.compare(facts(stored.get("alpha-1")), facts(stored.get("alpha-2")));
        assertThat(comparison.gradientChanges()).extracting(GradientChange::key, GradientChange::regression)
                .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("w1", true),
                        org.assertj.core.groups.Tuple.tuple("w3", false));
    }

    // ---- history -------------------------------------------------------------------------------

    @Test
    void followsAPathAcrossRunsOldestFirst() {
        List<PathHistoryPoint> history = pathHistory.history(LAYER_MATMUL, null);
        assertThat(history).extracting(PathHistoryPoint::runId)
                .containsExactly("alpha-1", "gamma-1", "alpha-2", "alpha-10");
        for (PathHistoryPoint point : history) {
            PathStats expected = PathStats.ofGraph(stored.get(point.runId()).graph().spans()).stream()
                    .filter(p -> p.path().equals(LAYER_MATMUL)).findFirst().orElseThrow();
            assertThat(point.stats()).isEqualTo(expected);
            assertThat(point.entrypoint()).isEqualTo(TRAIN);
        }
        assertThat(history.get(0).stats().selfTimeNs()).isEqualTo(250);
        assertThat(history.get(2).stats().selfTimeNs()).isEqualTo(400);
        assertThat(history.get(0).capturedAt()).isEqualTo(Instant.parse("2026-08-01T10:00:00Z"));
        assertThat(pathHistory.history(LAYER_MATMUL, INFER)).isEmpty();
        assertThat(pathHistory.history(LAYER_MATMUL, TRAIN)).hasSize(4);
        assertThat(pathHistory.history("step/loss", TRAIN)).extracting(PathHistoryPoint::runId)
                .containsExactly("alpha-1", "gamma-1");
        assertThat(pathHistory.history("step/nothing", null)).isEmpty();
    }

    @Test
    void findsAPathWhoseNamesContainSlashes() {
        List<PathHistoryPoint> history = pathHistory.history(INFER_PATH, null);
        assertThat(history).singleElement().satisfies(point -> {
            assertThat(point.runId()).isEqualTo("beta-1");
            assertThat(point.stats().path()).isEqualTo(INFER_PATH);
            assertThat(point.capturedAt()).isNull();
            assertThat(point.stats().count()).isEqualTo(1);
        });
    }

    // ---- read-only SQL -------------------------------------------------------------------------

    @ParameterizedTest
    @ValueSource(strings = {
        "DELETE FROM runs",
        "delete from nodes where true",
        "DROP TABLE runs",
        "  drop table runs cascade",
        "UPDATE runs SET run_id = 'x'",
        "INSERT INTO runs (run_id) VALUES ('x')",
        "TRUNCATE runs",
        "COPY runs TO PROGRAM 'touch /tmp/tracegraph-pwned'",
        "copy (SELECT 1) to program 'sh -c true'",
        "COPY runs FROM PROGRAM 'true'",
        "DO $$ BEGIN DELETE FROM runs; END $$",
        "CALL delete_run(1)",
        "SET default_transaction_read_only = off",
        "RESET ALL",
        "BEGIN",
        "COMMIT",
        "ROLLBACK",
        "START TRANSACTION READ WRITE",
        "LISTEN anything",
        "VACUUM",
        "ANALYZE runs",
        "ALTER SYSTEM SET fsync = off",
        "CREATE TABLE x (a int)",
        "GRANT ALL ON runs TO PUBLIC",
        "PREPARE p AS DELETE FROM runs",
        "/* a comment first */ DELETE FROM runs",
        "-- a comment first\nDELETE FROM runs",
        "(DELETE FROM runs)",
        "SELECT 1; DELETE FROM runs",
        "SELECT 1;DELETE FROM runs;",
        "select 1 ; drop table runs --",
        "SELECT 1; COMMIT; DELETE FROM runs",
        "SELECT 1; -- fine so far\nDELETE FROM runs",
        "SELECT 'a'';' ; DELETE FROM runs",
        "SELECT E'\\';' ; DELETE FROM runs",
        "SELECT $$;$$; DELETE FROM runs",
        "SELECT $a$ $$ ; $a$; DELETE FROM runs",
        "SELECT \"a;\" FROM (SELECT 1 AS \"a;\") t; DELETE FROM runs",
        "SELECT 1 /* ; */; /* */ DELETE FROM runs",
        "SELECT 1 /* /* nested */ ; */; DELETE FROM runs",
        "SELECT 1 /* unterminated",
        "SELECT 'unterminated",
        "SELECT $x$ unterminated",
        "",
        "   ",
        "-- nothing but a comment",
        ";",
        "SELECT 1;;",
    })
    void refusesAnythingButOneQuery(String sql) {
        SqlOutcome outcome = adHocSql.sql(ReadOnlySql.of(sql));
        assertThat(outcome).isInstanceOf(SqlOutcome.Refused.class);
        assertThat(counts()).isEqualTo(counts);
    }

    @Test
    void saysWhyAStatementIsRefused() {
        assertThat(refusal("DELETE FROM runs"))
                .isEqualTo("only SELECT, WITH, VALUES, TABLE and EXPLAIN statements can be run, not DELETE");
        assertThat(refusal("SELECT 1; DELETE FROM runs"))
                .isEqualTo("only one statement can be run: found more after the `;` at character 9");
        assertThat(refusal("  ")).isEqualTo("no SQL statement given");
        assertThat(refusal("SELECT 'a")).isEqualTo("unterminated string constant");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "WITH gone AS (DELETE FROM runs RETURNING 1) SELECT count(*) FROM gone",
        "WITH x AS (UPDATE runs SET run_id = 'x' RETURNING 1) SELECT * FROM x",
        "WITH x AS (INSERT INTO import_log (import_id, source_name, outcome) VALUES (gen_random_uuid(), 'x', "
            + "'accepted') RETURNING 1) SELECT * FROM x",
        "SELECT delete_run(run_key) FROM runs",
        "SELECT * INTO runs_copy FROM runs",
        "SELECT * FROM runs FOR UPDATE",
        "SELECT nextval('runs_run_key_seq')",
        "SELECT lo_from_bytea(0, 'x')",
        "EXPLAIN ANALYZE DELETE FROM runs",
        "EXPLAIN (ANALYZE) UPDATE runs SET run_id = 'x'",
    })
    void runsQueriesThatTryToWriteInAReadOnlyTransaction(String sql) {
        assertThatThrownBy(() -> adHocSql.sql(ReadOnlySql.of(sql))).isInstanceOf(DatabaseException.class)
                .hasMessageContaining("read-only transaction");
        assertThat(counts()).isEqualTo(counts);
    }

    @Test
    void cannotWriteThroughAQueryRunByAFunction() {
        assertThatThrownBy(() -> adHocSql.sql(ReadOnlySql.of("SELECT query_to_xml('DELETE FROM runs', true, true, '')")))
                .isInstanceOf(DatabaseException.class).hasMessageContaining("DELETE is not allowed");
        assertThat(counts()).isEqualTo(counts);
    }

    @Test
    void cannotSwitchTheTransactionToReadWrite() {
        assertThatThrownBy(() -> adHocSql.sql(ReadOnlySql.of("SELECT set_config('transaction_read_only', 'off', true)")))
                .isInstanceOf(DatabaseException.class).hasMessageContaining("read-write mode must be set before");
        assertThat(counts()).isEqualTo(counts);
    }

    @Test
    void answersQueries() {
        SqlOutcome.Rows rows = rows("SELECT run_id, total_ms FROM runs WHERE entrypoint = 'tinygpt::train' "
                + "ORDER BY run_id;  -- a comment after the statement\n");
        assertThat(rows.columns()).containsExactly("run_id", "total_ms");
        assertThat(rows.types()).containsExactly("text", "float8");
        assertThat(rows.rows()).extracting(r -> r.get(0))
                .containsExactly("alpha-1", "alpha-10", "alpha-2", "gamma-1");
        assertThat(rows.truncated()).isFalse();
        // '?' is a jsonb operator here, not a parameter; ';' inside quotes does not end the statement.
        assertThat(rows("SELECT run_id, ';' AS semi, $$;$$ AS dollar, E'\\';' AS escaped, \"a;\".x FROM runs, "
                + "(SELECT 1 AS x) \"a;\" WHERE tags ? 'host'").rows())
                .containsExactly(List.of("alpha-1", ";", ";", "';", 1));
        assertThat(rows("TABLE graph_summaries").rows()).hasSize(6);
        assertThat(rows("VALUES (1), (2)").rows()).hasSize(2);
        assertThat(rows("(SELECT 1) UNION ALL (SELECT 2)").rows()).hasSize(2);
        assertThat(rows("EXPLAIN SELECT * FROM runs").columns()).containsExactly("QUERY PLAN");
        assertThat(rows("EXPLAIN ANALYZE SELECT * FROM runs").rows()).isNotEmpty();
        assertThat(rows("SELECT * FROM runs WHERE run_id = '" + INJECTION.replace("'", "''") + "'").rows()).isEmpty();
    }

    @Test
    void returnsPlainJavaValues() {
        SqlOutcome.Rows rows = rows("SELECT 1 AS i, 2::bigint AS l, 1.5::numeric AS n, 'ü'::text AS t, NULL AS z, "
                + "true AS b, ARRAY[1, 2] AS a, ARRAY[['x', 'y']] AS m, '{\"k\": 1}'::jsonb AS j, "
                + "timestamptz '2026-01-01T00:00:00Z' AS ts, date '2026-01-02' AS d, interval '1 day' AS iv, "
                + "'\\x0102'::bytea AS by, gen_random_uuid() IS NOT NULL AS u, "
                + "ARRAY['\\x0aff'::bytea, NULL] AS bs");
        List<Object> row = rows.rows().get(0);
        assertThat(row.get(0)).isEqualTo(1);
        assertThat(row.get(1)).isEqualTo(2L);
        assertThat(row.get(2)).isEqualTo(new java.math.BigDecimal("1.5"));
        assertThat(row.get(3)).isEqualTo("ü");
        assertThat(row.get(4)).isNull();
        assertThat(row.get(5)).isEqualTo(true);
        assertThat(row.get(6)).isEqualTo(List.of(1, 2));
        assertThat(row.get(7)).isEqualTo(List.of(List.of("x", "y")));
        assertThat(row.get(8)).isEqualTo("{\"k\": 1}");
        assertThat(row.get(9)).isEqualTo(OffsetDateTime.parse("2026-01-01T00:00:00Z"));
        assertThat(row.get(10)).isEqualTo(java.time.LocalDate.parse("2026-01-02"));
        assertThat(row.get(11)).isEqualTo("1 day");
        // bytea as PostgreSQL writes it, never a Java object's identity ([B@1b2c3d).
        assertThat(row.get(12)).isEqualTo("\\x0102");
        assertThat(row.get(14)).isEqualTo(java.util.Arrays.asList("\\x0aff", null));
        for (Object value : row) {
            assertThat(value == null || !value.getClass().getName().startsWith("org.postgresql")).isTrue();
        }
    }

    @Test
    void limitsRowsAndTime() {
        SqlOutcome.Rows rows = (SqlOutcome.Rows) adHocSql.sql(new ReadOnlySql("SELECT generate_series(1, 10)",
                ReadOnlySql.DEFAULT_TIMEOUT, 3));
        assertThat(rows.rows()).hasSize(3);
        assertThat(rows.truncated()).isTrue();
        assertThat(((SqlOutcome.Rows) adHocSql.sql(new ReadOnlySql("SELECT generate_series(1, 3)",
                ReadOnlySql.DEFAULT_TIMEOUT, 3))).truncated()).isFalse();
        assertThatThrownBy(() -> adHocSql.sql(new ReadOnlySql("SELECT pg_sleep(10)", Duration.ofMillis(200), 10)))
                .isInstanceOf(DatabaseException.class).hasMessageContaining("statement timeout");
    }

    @Test
    void leavesNoReadOnlySessionBehind() {
        adHocSql.sql(ReadOnlySql.of("SELECT 1"));
        String readOnly = jdbi.withHandle(h -> h.createQuery("SHOW transaction_read_only").mapTo(String.class).one());
        assertThat(readOnly).isEqualTo("off");
    }

    // ---- the recipes of docs/sql.md ------------------------------------------------------------

    @Test
    void runsEveryRecipeOfTheSqlGuide() throws IOException {
        Map<String, String> recipes = recipes();
        assertThat(recipes).hasSizeGreaterThanOrEqualTo(8);
        Map<String, SqlOutcome.Rows> results = new LinkedHashMap<>();
        recipes.forEach((title, sql) -> {
            SqlOutcome outcome = adHocSql.sql(ReadOnlySql.of(sql));
            assertThat(outcome).as(title).isInstanceOf(SqlOutcome.Rows.class);
            results.put(title, (SqlOutcome.Rows) outcome);
        });
        assertThat(column(results.get("Slowest paths over the last N runs"), "path"))
                .startsWith(LAYER_MATMUL);
        assertThat(column(results.get("Runs whose peak memory grew"), "run_id"))
                .containsExactly("alpha-2");
        assertThat(column(results.get("Gradient states that changed between two runs"), "key"))
                .containsExactly("w1", "w3");
        assertThat(column(results.get("A span path's history"), "run_id"))
                .containsExactly("alpha-1", "gamma-1", "alpha-2", "alpha-10");
        assertThat(column(results.get("The import log of the last import"), "source_name"))
                .containsExactly("new.jsonl", "bad.jsonl");
        assertThat(column(results.get("Compare two runs path by path"), "path")).contains(LAYER_MATMUL);
        assertThat(counts()).isEqualTo(counts);
    }

    private static Map<String, String> recipes() throws IOException {
        Path guide = Path.of("..", "docs", "sql.md");
        String text = Files.readString(guide, StandardCharsets.UTF_8);
        Map<String, String> recipes = new LinkedHashMap<>();
        Matcher m = Pattern.compile("(?m)^### ([^\\n]+)$|^```sql\\n(.*?)^```", Pattern.DOTALL).matcher(text);
        String title = null;
        while (m.find()) {
            if (m.group(1) != null) {
                title = m.group(1).strip();
            } else if (title != null && !recipes.containsKey(title)) {
                recipes.put(title, m.group(2));
            }
        }
        return recipes;
    }

    private static List<Object> column(SqlOutcome.Rows rows, String name) {
        assertThat(rows).as(name).isNotNull();
        int index = rows.columns().indexOf(name);
        assertThat(index).as(name).isNotNegative();
        return rows.rows().stream().map(r -> r.get(index)).toList();
    }

    // ---- helpers -------------------------------------------------------------------------------

    private RunRef found(String reference) {
        RunResolution resolution = catalog.resolve(reference);
        assertThat(resolution).as(reference).isInstanceOf(RunResolution.Found.class);
        return ((RunResolution.Found) resolution).run();
    }

    private SqlOutcome.Rows rows(String sql) {
        SqlOutcome outcome = adHocSql.sql(ReadOnlySql.of(sql));
        assertThat(outcome).as(sql).isInstanceOf(SqlOutcome.Rows.class);
        return (SqlOutcome.Rows) outcome;
    }

    private String refusal(String sql) {
        SqlOutcome outcome = adHocSql.sql(ReadOnlySql.of(sql));
        assertThat(outcome).as(sql).isInstanceOf(SqlOutcome.Refused.class);
        return ((SqlOutcome.Refused) outcome).reason();
    }

    private static List<String> ids(List<RunListing> runs) {
        return runs.stream().map(RunListing::runId).toList();
    }

    private Map<String, Long> counts() {
        return jdbi.withHandle(h -> {
            Map<String, Long> counts = new TreeMap<>();
            for (String table : TABLES) {
                counts.put(table, h.createQuery("SELECT count(*) FROM " + table).mapTo(Long.class).one());
            }
            return counts;
        });
    }

    /** The per-path aggregates of a run, written by hand over the stored nodes. */
    private List<PathStats> handWritten(long runKey) {
        return jdbi.withHandle(h -> h.createQuery("SELECT n.path, n.path_hash, "
                + "(SELECT f.kind FROM nodes f WHERE f.run_key = n.run_key AND f.path_hash = n.path_hash "
                + "ORDER BY f.node_idx LIMIT 1) AS kind, count(*) AS count, sum(n.self_time_ns) AS self_time_ns, "
                + "sum(n.total_time_ns) AS total_time_ns, sum(n.bytes) AS bytes, max(n.peak_bytes) AS peak_bytes "
                + "FROM nodes n WHERE n.run_key = :key GROUP BY n.run_key, n.path_hash, n.path")
                .bind("key", runKey)
                .map((rs, ctx) -> new PathStats(rs.getString("path"), rs.getLong("path_hash"), rs.getString("kind"),
                        rs.getLong("count"), rs.getLong("self_time_ns"), rs.getLong("total_time_ns"),
                        rs.getLong("bytes"), rs.getLong("peak_bytes")))
                .list());
    }

    private static Map<Long, PathStats> byHash(List<PathStats> stats) {
        Map<Long, PathStats> byHash = stats.stream().collect(Collectors.toMap(PathStats::pathHash, p -> p));
        assertThat(byHash).hasSameSizeAs(stats);
        return byHash;
    }

    private static void checkMetric(Map<String, Object> row, String metric, String ratio, Long base, Long cand) {
        assertThat(row.get("base_" + metric)).as(metric).isEqualTo(base);
        assertThat(row.get("cand_" + metric)).as(metric).isEqualTo(cand);
        long delta = (cand == null ? 0 : cand) - (base == null ? 0 : base);
        assertThat(row.get("delta_" + metric)).as(metric).isEqualTo(delta);
        if (base == null || cand == null || base == 0) {
            assertThat(row.get(ratio)).as(ratio).isNull();
        } else {
            assertThat((Double) row.get(ratio)).as(ratio).isCloseTo((double) cand / base, within(1e-12));
        }
    }

    /** What the domain's comparison takes of a run, from its in-memory graph. */
    private static RunFacts facts(RunToStore run) {
        ExecutionGraph graph = run.graph();
        return new RunFacts(run.meta().runId(), graph.summary().totalMs(), graph.memory().summary().peakBytes(),
                PathStats.ofGraph(graph.spans()), graph.gradients().stream().map(GradientFact::of).toList());
    }

    // ---- the runs ------------------------------------------------------------------------------

    /**
     * A training step: root {@code step} with two calls of {@code Layer::forward} (each with a
     * {@code matmul} op) and, in the "before" shape, a {@code loss} span; "after" makes the second
     * matmul slower, drops {@code loss}, adds {@code extra}, grows memory and breaks gradient w1.
     */
    private static RunToStore train(String runId, String timestamp, Map<String, String> tags, boolean after) {
        TraceBuilder t = new TraceBuilder(runId, TRAIN, ExecutionPhase.TRAIN, timestamp, tags);
        t.span("s0", null, "step", 0, 1_000, null).measured("s0");
        t.span("s1", "s0", "Layer::forward", 100, 300, ExecutionStep.FORWARD);
        t.span("s2", "s0", "Layer::forward", 400, 300, ExecutionStep.FORWARD);
        t.op("s1", "matmul", 100, 150, 64);
        t.op("s2", "matmul", after ? 300 : 150, 450, after ? 128 : 64);
        if (after) {
            t.span("s3", "s0", "extra", 700, 100, ExecutionStep.BACKWARD);
            t.op("s3", "add", 40, 720, 16);
        } else {
            t.span("s3", "s0", "loss", 700, 200, ExecutionStep.BACKWARD);
            t.op("s3", "mean", 50, 750, 4);
        }
        for (int i = 0; i < 12; i++) {
            // Paths every training run has: most of a comparison's paths are common to both runs.
            t.span("b" + (10 + i), "s0", "Block" + i + "::forward", 10 * i, 10, null);
        }
        t.alloc("w", "s0", 64, 10, MemoryCategory.PARAMETER, "cpu");
        t.alloc("h1", "s1", 64, 150, MemoryCategory.ACTIVATION, "cuda:0");
        t.alloc("h2", "s2", after ? 128 : 64, 450, MemoryCategory.ACTIVATION, "cuda:0");
        t.alloc("p", "s2", 64, 460, MemoryCategory.PARAMETER, "cuda:0");
        t.free("h1", "s2", 64, 500, MemoryCategory.ACTIVATION, "cuda:0");
        t.gradient("w1", after ? GradientState.ZERO : GradientState.PRESENT, after ? 0.0 : 0.5);
        t.gradient("w2", GradientState.PRESENT, 0.25);
        if (after) {
            t.gradient("w3", GradientState.MISSING, null);
        }
        t.edge("s1", "s2", 10);
        return t.toStore();
    }

    /** An inference run whose timestamp is not ISO-8601 and whose names hold '/' and non-ASCII text. */
    private static RunToStore infer() {
        String[] names = INFER_PATH.split("/");
        TraceBuilder t = new TraceBuilder("beta-1", INFER, ExecutionPhase.INFER, "yesterday, more or less",
                Map.of("commit", "abc"));
        t.span("r", null, names[0], 0, 500, null).measured("r");
        t.span("a", "r", names[1] + "/" + names[2], 10, 400, null);
        t.op("a", names[3], 200, 20, 32);
        t.alloc("x", "a", 32, 20, MemoryCategory.ACTIVATION, "cpu");
        return t.toStore();
    }

    /** A run whose run_id, entrypoint, tags and names are SQL and Unicode traps. */
    private static RunToStore odd() {
        TraceBuilder t = new TraceBuilder(ODD_ID, ODD_ENTRYPOINT, ExecutionPhase.INFER, "2026-07-01T00:00:00Z",
                Map.of("q", ODD_TAG, INJECTION, "\u00fc"));
        t.span("o", null, "odd", 0, 100, null).measured("o");
        t.span("i", "o", INJECTION, 0, 50, null);
        // A span and an op with the same path: the first occurrence (spans come first) gives the kind.
        t.span("d", "o", "dup", 60, 10, null);
        t.op("o", "dup", 5, 70, 8);
        return t.toStore();
    }

    /** Builds a trace document record by record and turns it into a run to store. */
    private static final class TraceBuilder {
        private final RunMeta meta;
        private final List<SpanRecord> spans = new ArrayList<>();
        private final List<OpEvent> ops = new ArrayList<>();
        private final List<MemoryEvent> memory = new ArrayList<>();
        private final List<GradientEvent> gradients = new ArrayList<>();
        private final List<EdgeEvent> edges = new ArrayList<>();
        private String measured;

        TraceBuilder(String runId, String entrypoint, ExecutionPhase phase, String timestamp,
                Map<String, String> tags) {
            this.meta = new RunMeta(runId, "corr-" + runId, entrypoint, phase, timestamp, 3, 1, "cuda:0",
                    TimingMode.DEVICE_SYNCHRONIZED, tags, null);
        }

        TraceBuilder span(String id, String parent, String name, long start, long duration, ExecutionStep step) {
            spans.add(new SpanRecord(id, parent, name, SpanKind.FUNCTION, false, start, true, duration, step));
            return this;
        }

        TraceBuilder measured(String id) {
            this.measured = id;
            return this;
        }

        void op(String span, String name, long duration, long at, long storage) {
            ops.add(new OpEvent(span, name, List.of(), "t-" + span + "-" + name, Shape.of(storage / 4), "f32", "cpu",
                    duration, at, storage, 0));
        }

        void alloc(String tensor, String span, long bytes, long at, MemoryCategory category, String device) {
            memory.add(new MemoryEvent(at, tensor, span, null, device, bytes, MemoryAction.ALLOC, Shape.of(bytes / 4),
                    "f32", category));
        }

        void free(String tensor, String span, long bytes, long at, MemoryCategory category, String device) {
            memory.add(new MemoryEvent(at, tensor, span, null, device, bytes, MemoryAction.FREE, Shape.of(bytes / 4),
                    "f32", category));
        }

        void gradient(String key, GradientState state, Double norm) {
            gradients.add(new GradientEvent("g-" + key, "vb", key, state, norm));
        }

        void edge(String from, String to, long duration) {
            edges.add(new EdgeEvent(from, to, duration));
        }

        RunToStore toStore() {
            List<SpanRecord> withMeasured = spans.stream()
                    .map(s -> s.id().equals(measured) ? new SpanRecord(s.id(), s.parentId(), s.name(), s.kind(), true,
                            s.startNs(), s.closed(), s.durationNs(), s.step()) : s)
                    .toList();
            TraceDocument doc = new TraceDocument(TraceDocument.SCHEMA, meta, withMeasured, ops, List.of(), memory,
                    List.of(), gradients, edges);
            GraphOutcome outcome = GraphBuilder.build(doc);
            assertThat(outcome).as(outcome.health().toString()).isInstanceOf(GraphOutcome.Built.class);
            ExecutionGraph graph = ((GraphOutcome.Built) outcome).graph();
            return new RunToStore(meta.runId() + ".jsonl", sha256(meta.runId()), 1_000 + spans.size(),
                    TraceDocument.SCHEMA, meta, outcome.health(), graph);
        }

        private static String sha256(String text) {
            try {
                return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                        .digest(text.getBytes(StandardCharsets.UTF_8)));
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
