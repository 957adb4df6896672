package io.tracegraph.application;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.tracegraph.domain.port.RunStore;
import io.tracegraph.domain.port.TraceReader;
import io.tracegraph.domain.run.BundleFile;
import io.tracegraph.domain.run.BundleIdentity;
import io.tracegraph.domain.run.CampaignCapture;
import io.tracegraph.domain.run.ImportLogEntry;
import io.tracegraph.domain.run.KnownContent;
import io.tracegraph.domain.run.RunToStore;
import io.tracegraph.domain.run.StoreResult;
import io.tracegraph.domain.trace.TraceDocument;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link ImportTraces} of traces that came in candle-graph bundles: the bundle's identity travels
 * with the run to the store, with tags naming the bundle and the campaign; a trace that is not the
 * run its bundle or campaign names is rejected; the same bundle twice is stored once.
 */
class ImportTracesTest {
    private static final String CONTENT = "trace r1 at step 1";

    private final MemoryStore store = new MemoryStore();
    private final Map<String, TraceDocument> traces = new HashMap<>(Map.of(CONTENT, Traces.trace("r1", 100, 40)));
    private final TraceReader reader = (source, in) -> {
        try {
            return traces.get(new String(in.readAllBytes(), UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    };

    @ParameterizedTest(name = "jobs={0}")
    @ValueSource(ints = {1, 2})
    void storesTheBundlesIdentityWithTheRunAndTagsItWithTheBundleAndTheCampaign(int jobs) {
        BundleIdentity bundle = bundle("r1", new CampaignCapture("c/campaign.json", "demo", Traces.ENTRYPOINT, 1,
                "b1"));

        ImportReport report = importBundled(jobs, Map.of("commit", "abc", "campaign", "override"), bundle);

        assertThat(report.imported()).isEqualTo(1);
        RunToStore stored = store.stored.get(0);
        assertThat(stored.bundle()).isEqualTo(bundle);
        assertThat(stored.contentSha256()).isEqualTo(bundle.trace().sha256());
        assertThat(stored.meta().tags()).containsExactlyInAnyOrderEntriesOf(Map.of("bundle", bundle.manifestSha256(),
                "campaign", "override", "campaign.step", "1", "commit", "abc"));
    }

    @ParameterizedTest(name = "jobs={0}")
    @ValueSource(ints = {1, 2})
    void rejectsATraceThatIsNotTheRunItsBundleNames(int jobs) {
        ImportReport report = importBundled(jobs, Map.of(), bundle("other", null));

        assertThat(report.imported()).isZero();
        assertThat(report.rejections()).containsExactly(new ImportReport.Rejection("b1/trace.jsonl",
                "bundle.json names run_id `other` but the trace is of run_id `r1`"));
        assertThat(store.stored).isEmpty();
        assertThat(store.log).singleElement().satisfies(e -> assertThat(e.contentFault()).isFalse());
    }

    @ParameterizedTest(name = "jobs={0}")
    @ValueSource(ints = {1, 2})
    void rejectsATraceOfAnotherStepOrEntrypointThanItsCampaignPlans(int jobs) {
        ImportReport step = importBundled(jobs, Map.of(), bundle("r1", new CampaignCapture("campaign.json", "demo",
                Traces.ENTRYPOINT, 300, "b300")));
        ImportReport entrypoint = importBundled(jobs, Map.of(), bundle("r1", new CampaignCapture("campaign.json",
                "demo", "other::train", 1, "b1")));

        assertThat(step.rejections()).extracting(ImportReport.Rejection::reason).containsExactly("campaign `demo` "
                + "(campaign.json) plans capture_step 300 for bundle b300 but the trace is of capture_step 1");
        assertThat(entrypoint.rejections()).extracting(ImportReport.Rejection::reason).containsExactly("campaign "
                + "`demo` (campaign.json) plans entrypoint `other::train` but the trace is of entrypoint `"
                + Traces.ENTRYPOINT + "`");
        assertThat(store.stored).isEmpty();
    }

    @ParameterizedTest(name = "jobs={0}")
    @ValueSource(ints = {1, 2})
    void storesTheSameBundleTwiceOnce(int jobs) {
        BundleIdentity bundle = bundle("r1", null);

        importBundled(jobs, Map.of(), bundle);
        ImportReport again = importBundled(jobs, Map.of(), bundle);

        assertThat(again.imported()).isZero();
        assertThat(again.duplicates()).isEqualTo(1);
        assertThat(store.stored).hasSize(1);
    }

    private ImportReport importBundled(int jobs, Map<String, String> tags, BundleIdentity bundle) {
        TraceBatch batch = sink -> sink.trace("b1/trace.jsonl", new ByteArrayInputStream(CONTENT.getBytes(UTF_8)),
                bundle);
        return new ImportTraces(reader, store).run(new ImportTraces.Command(batch, jobs, false, ImportProgress.NONE,
                tags));
    }

    private static BundleIdentity bundle(String runId, CampaignCapture campaign) {
        return new BundleIdentity("b1", runId, "0f".repeat(32), "trace.jsonl", List.of(
                new BundleFile("evidence.json", 2, "ee".repeat(32)),
                new BundleFile("trace.jsonl", CONTENT.length(), sha256(CONTENT))), campaign);
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Keeps what it is given; content is known by its hash, a run_id once. */
    private static final class MemoryStore implements RunStore {
        final List<RunToStore> stored = new ArrayList<>();
        final List<ImportLogEntry> log = new ArrayList<>();

        @Override
        public synchronized Optional<KnownContent> knownContent(String contentSha256) {
            return stored.stream().filter(r -> r.contentSha256().equals(contentSha256)).findFirst()
                    .map(r -> new KnownContent.StoredRun(r.meta().runId()));
        }

        @Override
        public synchronized StoreResult store(RunToStore run, boolean replace) {
            Optional<KnownContent> known = knownContent(run.contentSha256());
            if (known.isPresent()) {
                return new StoreResult.Duplicate(run.meta().runId());
            }
            stored.add(run);
            return new StoreResult.Stored(run.meta().runId(), false);
        }

        @Override
        public synchronized void log(ImportLogEntry entry) {
            log.add(entry);
        }
    }
}
