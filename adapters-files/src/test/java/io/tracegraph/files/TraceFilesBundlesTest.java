package io.tracegraph.files;

import static io.tracegraph.files.Bundles.gzip;
import static io.tracegraph.files.Bundles.merged;
import static io.tracegraph.files.Bundles.oneByteChanged;
import static io.tracegraph.files.Bundles.sha256;
import static io.tracegraph.files.Bundles.tar;
import static io.tracegraph.files.Bundles.zip;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.tracegraph.domain.run.BundleIdentity;
import io.tracegraph.files.Bundles.Bundle;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * candle-graph bundles and campaigns met by the walk: on disk, in tar, tar.gz and zip archives, nested,
 * with {@code bundle.json} before or after the trace; every listed file verified before the trace is
 * handed on, the first fault rejecting the bundle in one line that names the file.
 */
class TraceFilesBundlesTest {
    private static final String TRACE = "{\"kind\":\"meta\",\"schema\":\"candle-graph/trace/6\",\"run_id\":\"r1\"}\n"
            + "{\"kind\":\"span_start\",\"id\":\"s1\"}\n";

    @TempDir
    Path dir;

    @Test
    void handsOnTheVerifiedTraceOfABundleDirectoryWithItsIdentityAndReadsNoOtherFileOfIt() throws IOException {
        Bundle bundle = Bundle.of("r1", TRACE);
        Path root = bundle.writeTo(dir.resolve("runs/b1"));
        Files.writeString(dir.resolve("runs/plain.jsonl"), "plain");

        Recorder recorder = walk(dir.resolve("runs"));

        assertThat(recorder.traces).containsExactly(Map.entry(root.resolve("trace.jsonl").toString(), TRACE),
                Map.entry(dir.resolve("runs/plain.jsonl").toString(), "plain"));
        assertThat(recorder.unreadable).isEmpty();
        BundleIdentity identity = recorder.bundles.get(root.resolve("trace.jsonl").toString());
        assertThat(identity.source()).isEqualTo(root.toString());
        assertThat(identity.runId()).isEqualTo("r1");
        assertThat(identity.tracePath()).isEqualTo("trace.jsonl");
        assertThat(identity.manifestSha256()).isEqualTo(sha256(bundle.manifest()));
        assertThat(identity.fileHashes()).containsExactly(
                Map.entry("evidence.json", sha256(bundle.files.get("evidence.json"))),
                Map.entry("nsight/capture-manifest.json", sha256(bundle.files.get("nsight/capture-manifest.json"))),
                Map.entry("nsight/capture.nsys-rep", sha256(bundle.files.get("nsight/capture.nsys-rep"))),
                Map.entry("report.md", sha256(bundle.files.get("report.md"))),
                Map.entry("trace.jsonl", sha256(TRACE.getBytes(UTF_8))),
                Map.entry("viewer.html", sha256(bundle.files.get("viewer.html"))));
        assertThat(identity.campaign()).isNull();
        assertThat(recorder.summary).isEqualTo(new TraceFiles.Summary(8, 2, 0, 6, 0, 1, 0));
    }

    @Test
    void rejectsABundleWhoseTraceHasOneByteChangedNamingTheFileAndHandsOnNothingOfIt() throws IOException {
        Bundle bundle = Bundle.of("r1", TRACE);
        byte[] listed = bundle.manifest();
        Path root = bundle.with("trace.jsonl", oneByteChanged(TRACE.getBytes(UTF_8), 10)).manifest(new String(listed,
                UTF_8)).writeTo(dir.resolve("b1"));

        Recorder recorder = walk(root);

        assertThat(recorder.traces).isEmpty();
        assertThat(recorder.unreadable).containsExactly(root.resolve("trace.jsonl") + ": sha256 mismatch (bundle.json "
                + "says " + sha256(TRACE.getBytes(UTF_8)) + ", the file has "
                + sha256(oneByteChanged(TRACE.getBytes(UTF_8), 10)) + ")");
        assertThat(recorder.summary.unreadable()).isEqualTo(1);
    }

    @Test
    void rejectsABundleWhoseEvidenceChangedOrGrewOrIsMissingOrWhichHoldsAnUnlistedFile() throws IOException {
        Bundle changed = Bundle.of("r1", TRACE);
        String listed = new String(changed.manifest(), UTF_8);
        Path a = changed.with("evidence.json", "{\"tampered\":true}".getBytes(UTF_8)).manifest(listed)
                .writeTo(dir.resolve("a"));
        Bundle grown = Bundle.of("r1", TRACE);
        Path b = grown.manifest(new String(grown.manifest(), UTF_8)).with("report.md",
                "# candle-graph evidence, and more\n".getBytes(UTF_8)).writeTo(dir.resolve("b"));
        Bundle missing = Bundle.of("r1", TRACE);
        Path c = missing.manifest(new String(missing.manifest(), UTF_8)).without("viewer.html").writeTo(dir.resolve("c"));
        Path d = Bundle.of("r1", TRACE).unlisted("injected.jsonl", "{}").writeTo(dir.resolve("d"));

        Recorder recorder = walk(a, b, c, d);

        assertThat(recorder.traces).isEmpty();
        assertThat(recorder.unreadable).containsExactly(
                a.resolve("evidence.json") + ": size mismatch (bundle.json says "
                        + Bundle.of("r1", TRACE).files.get("evidence.json").length + " bytes, the file has 17)",
                b.resolve("report.md") + ": size mismatch (bundle.json says 24 bytes, the file has more)",
                c.resolve("viewer.html") + ": listed in bundle.json but missing",
                d.resolve("injected.jsonl") + ": not listed in bundle.json");
    }

    @Test
    void rejectsAMalformedOrForeignBundleJsonNamingIt() throws IOException {
        Path truncated = Bundle.of("r1", TRACE).manifest("{\"schema\": \"candle-graph/bundle/1\", \"files\": [")
                .writeTo(dir.resolve("a"));
        Path foreign = Bundle.of("r1", TRACE).manifest("{\"schema\": \"candle-graph/bundle/2\", \"run_id\": \"r1\", "
                + "\"files\": []}").writeTo(dir.resolve("b"));
        Path unsafe = Bundle.of("r1", TRACE).manifest("{\"schema\": \"candle-graph/bundle/1\", \"run_id\": \"r1\", "
                + "\"files\": [{\"path\": \"../trace.jsonl\", \"bytes\": 1, \"sha256\": \"" + "a".repeat(64) + "\"}]}")
                .writeTo(dir.resolve("c"));
        Path noTrace = Bundle.of("r1", TRACE).manifest("{\"schema\": \"candle-graph/bundle/1\", \"run_id\": \"r1\", "
                + "\"files\": []}").writeTo(dir.resolve("d"));

        Recorder recorder = walk(truncated, foreign, unsafe, noTrace);

        assertThat(recorder.traces).isEmpty();
        assertThat(recorder.unreadable).hasSize(4);
        assertThat(recorder.unreadable.get(0)).startsWith(truncated.resolve("bundle.json") + ": not valid JSON: ");
        assertThat(recorder.unreadable.subList(1, 4)).containsExactly(
                foreign.resolve("bundle.json") + ": unsupported bundle schema `candle-graph/bundle/2` (tracegraph reads "
                        + "candle-graph/bundle/1)",
                unsafe.resolve("bundle.json") + ": member `files[0].path`: unsafe or reserved bundle path "
                        + "`../trace.jsonl`",
                noTrace.resolve("bundle.json") + ": lists no trace (trace.jsonl or application.jsonl)");
    }

    @Test
    void rejectsASymbolicLinkInsideABundle() throws IOException {
        Path root = Bundle.of("r1", TRACE).writeTo(dir.resolve("b1"));
        Files.createSymbolicLink(root.resolve("nsight/elsewhere"), dir);

        Recorder recorder = walk(root);

        assertThat(recorder.unreadable).containsExactly(root.resolve("nsight/elsewhere")
                + ": symbolic links are not allowed in bundles");
        assertThat(recorder.traces).isEmpty();
    }

    @Test
    void readsApplicationJsonlAsTheTraceAndHashesListedInUpperCase() throws IOException {
        Bundle bundle = new Bundle("r1").with("application.jsonl", TRACE.getBytes(UTF_8));
        bundle.upperCaseHashes = true;
        Path root = bundle.writeTo(dir.resolve("b1"));

        Recorder recorder = walk(root);

        assertThat(recorder.traces).containsOnlyKeys(root.resolve("application.jsonl").toString());
        assertThat(recorder.bundles.values()).singleElement().extracting(BundleIdentity::tracePath)
                .isEqualTo("application.jsonl");
    }

    @Test
    void failsTheReadOfABundlesTraceThatChangesAfterItWasVerified() throws IOException {
        String big = TRACE + "{\"kind\":\"span_end\",\"id\":\"s1\"}\n".repeat(8_000);
        Path root = Bundle.of("r1", big).writeTo(dir.resolve("b1"));
        Path trace = root.resolve("trace.jsonl");
        List<String> seen = new ArrayList<>();

        TraceFiles.Summary summary = TraceFiles.walk(List.of(root), TraceFiles.Limits.defaults(), new TraceFiles.Visitor() {
            @Override
            public void trace(String name, InputStream in) throws IOException {
                Files.write(trace, oneByteChanged(big.getBytes(UTF_8), 200_000)); // past what was buffered
                in.readAllBytes();
                seen.add("read " + name);
            }

            @Override
            public void unreadable(String name, String reason) {
                seen.add(name + ": " + reason);
            }
        });

        assertThat(seen).singleElement().asString().startsWith(trace + ": changed after it was verified: "
                + "sha256 mismatch (bundle.json says " + sha256(big.getBytes(UTF_8)));
        assertThat(summary.unreadable()).isEqualTo(1);
    }

    @Test
    void verifiesABundleInAStreamedTarGzWhoseBundleJsonComesAfterItsTrace() throws IOException {
        Bundle bundle = Bundle.of("r1", TRACE);
        Path tgz = write("runs.tar.gz", gzip(tar(merged(Map.of("first.jsonl", "first".getBytes(UTF_8)),
                bundle.under("day1/b1", false), Map.of("last.jsonl", "last".getBytes(UTF_8))))));

        Recorder recorder = walk(tgz);

        assertThat(recorder.names()).containsExactly(tgz + "!first.jsonl", tgz + "!day1/b1/trace.jsonl",
                tgz + "!last.jsonl");
        assertThat(recorder.unreadable).isEmpty();
        BundleIdentity identity = recorder.bundles.get(tgz + "!day1/b1/trace.jsonl");
        assertThat(identity.source()).isEqualTo(tgz + "!day1/b1");
        assertThat(identity.manifestSha256()).isEqualTo(sha256(bundle.manifest()));
        assertThat(recorder.summary).isEqualTo(new TraceFiles.Summary(10, 3, 1, 6, 0, 1, 0));
    }

    @Test
    void rejectsATamperedBundleInATarGzAndAZipAndStillReadsTheRest() throws IOException {
        Bundle bundle = Bundle.of("r1", TRACE);
        String listed = new String(bundle.manifest(), UTF_8);
        bundle.with("trace.jsonl", oneByteChanged(TRACE.getBytes(UTF_8), 20)).manifest(listed);
        Map<String, byte[]> entries = merged(bundle.under("b1", false), Map.of("other.jsonl", "o".getBytes(UTF_8)));
        Path tgz = write("t.tgz", gzip(tar(entries)));
        Path zipped = write("t.zip", zip(entries));

        Recorder recorder = walk(tgz, zipped);

        assertThat(recorder.names()).containsExactly(tgz + "!other.jsonl", zipped + "!other.jsonl");
        String mismatch = ": sha256 mismatch (bundle.json says " + sha256(TRACE.getBytes(UTF_8)) + ", the file has "
                + sha256(oneByteChanged(TRACE.getBytes(UTF_8), 20)) + ")";
        assertThat(recorder.unreadable).containsExactly(tgz + "!b1/trace.jsonl" + mismatch,
                zipped + "!b1/trace.jsonl" + mismatch);
    }

    @Test
    void verifiesBundlesInAZipAndInANestedZipAndAtTheTopOfAnArchive() throws IOException {
        byte[] inner = zip(Bundle.of("r2", TRACE + "\n").under("", false));
        Path zipped = write("z.zip", zip(merged(Bundle.of("r1", TRACE).under("b1", true),
                Map.of("nested.zip", inner))));
        Path topLevel = write("top.tar", tar(Bundle.of("r3", TRACE + "\n\n").under(".", false)));

        Recorder recorder = walk(zipped, topLevel);

        assertThat(recorder.unreadable).isEmpty();
        assertThat(recorder.names()).containsExactly(zipped + "!b1/trace.jsonl", zipped + "!nested.zip!trace.jsonl",
                topLevel + "!./trace.jsonl");
        assertThat(recorder.bundles.values()).extracting(BundleIdentity::source).containsExactly(zipped + "!b1",
                zipped + "!nested.zip", topLevel.toString());
    }

    @Test
    void spoolsALargeTraceMetBeforeItsBundleJsonToATemporaryFileAndDeletesIt() throws IOException {
        StringBuilder big = new StringBuilder(TRACE);
        while (big.length() < TraceFilesSpool.MEMORY_EACH + (1 << 20)) {
            big.append("{\"kind\":\"span_end\",\"id\":\"s1\",\"duration_ns\":12345678}\n");
        }
        Path tgz = write("big.tgz", gzip(tar(Bundle.of("r1", big.toString()).under("b", false))));
        List<Path> spoolsBefore = spools();
        List<Integer> spoolsWhileRead = new ArrayList<>();

        Recorder recorder = new Recorder();
        recorder.onTrace = () -> spoolsWhileRead.add(spools().size());
        TraceFiles.walk(List.of(tgz), TraceFiles.Limits.defaults(), recorder);

        assertThat(recorder.unreadable).isEmpty();
        assertThat(recorder.traces.get(tgz + "!b/trace.jsonl")).isEqualTo(big.toString());
        assertThat(spoolsWhileRead).containsExactly(spoolsBefore.size() + 1);
        assertThat(spools()).isEqualTo(spoolsBefore);
    }

    @Test
    void rejectsAnArchivedBundleWithAMissingOrUnlistedFile() throws IOException {
        Bundle missing = Bundle.of("r1", TRACE);
        missing.manifest(new String(missing.manifest(), UTF_8)).without("report.md");
        Path tar = write("m.tar", tar(merged(missing.under("a", false),
                Bundle.of("r2", TRACE).unlisted("extra.txt", "x").under("b", true))));

        Recorder recorder = walk(tar);

        assertThat(recorder.traces).isEmpty();
        assertThat(recorder.unreadable).containsExactly(tar + "!a/report.md: listed in bundle.json but missing",
                tar + "!b/extra.txt: not listed in bundle.json");
    }

    @Test
    void importsTheBundlesACampaignPlansOnDiskTaggingEachWithItsCaptureAndReportsWhatIsMissing() throws IOException {
        Path campaignDir = Files.createDirectories(dir.resolve("c"));
        Bundle.of("r100", TRACE).writeTo(campaignDir.resolve("bundles/b100"));
        Bundle.of("r200", TRACE + "\n").writeTo(campaignDir.resolve("bundles/b200"));
        Files.write(campaignDir.resolve("campaign.json"), Bundles.campaign("demo", "demo::train", 200, "bundles/b200",
                100, "bundles/b100", 300, "bundles/b300"));

        Recorder fromDirectory = walk(campaignDir);
        Recorder fromManifest = walk(campaignDir.resolve("campaign.json"));

        for (Recorder recorder : List.of(fromDirectory, fromManifest)) {
            assertThat(recorder.traces).hasSize(2);
            assertThat(recorder.bundles.values()).extracting(b -> b.campaign().campaignId() + "@"
                    + b.campaign().captureStep() + ":" + b.campaign().bundle())
                    .containsExactlyInAnyOrder("demo@100:bundles/b100", "demo@200:bundles/b200");
            assertThat(recorder.bundles.values()).allSatisfy(b -> assertThat(b.campaign().source())
                    .isEqualTo(campaignDir.resolve("campaign.json").toString()));
            assertThat(recorder.unreadable).containsExactly(campaignDir.resolve("bundles/b300")
                    + ": planned by campaign `demo` (" + campaignDir.resolve("campaign.json") + ") for capture_step 300, "
                    + "but it is missing");
            assertThat(recorder.summary.campaigns()).isEqualTo(1);
            assertThat(recorder.summary.bundles()).isEqualTo(2);
        }
        assertThat(fromDirectory.names()).containsExactly(campaignDir.resolve("bundles/b100/trace.jsonl").toString(),
                campaignDir.resolve("bundles/b200/trace.jsonl").toString());
        assertThat(fromManifest.names()).containsExactly(campaignDir.resolve("bundles/b100/trace.jsonl").toString(),
                campaignDir.resolve("bundles/b200/trace.jsonl").toString());
    }

    @Test
    void readsACampaignInATarGzThatComesAfterItsBundles() throws IOException {
        Path tgz = write("campaign.tgz", gzip(tar(merged(Bundle.of("r1", TRACE).under("c/b1", false),
                Bundle.of("r2", TRACE + "\n").under("c/b2", true),
                Map.of("c/campaign.json", Bundles.campaign("demo", "demo::train", 1, "b1", 2, "b2", 3, "b3"))))));

        Recorder recorder = walk(tgz);

        assertThat(recorder.names()).containsExactly(tgz + "!c/b1/trace.jsonl", tgz + "!c/b2/trace.jsonl");
        assertThat(recorder.bundles.values()).extracting(b -> b.campaign().captureStep()).containsExactly(1L, 2L);
        assertThat(recorder.bundles.values()).allSatisfy(b -> assertThat(b.campaign().source())
                .isEqualTo(tgz + "!c/campaign.json"));
        assertThat(recorder.unreadable).containsExactly(tgz + "!c/b3: planned by campaign `demo` (" + tgz
                + "!c/campaign.json) for capture_step 3, but there is no bundle (no bundle.json)");
    }

    @Test
    void reportsAMalformedCampaignAndDoesNotReadItAsATrace() throws IOException {
        Path campaignDir = Files.createDirectories(dir.resolve("c"));
        Files.writeString(campaignDir.resolve("plan.json"), "{\"schema\": \"candle-graph/campaign/1\", "
                + "\"campaign_id\": \" \", \"entrypoint\": \"e\", \"planned\": []}");
        Files.writeString(campaignDir.resolve("trace.json"), "{\"run\": {\"tags\": {\"note\": \"candle-graph/campaign/1\"}}}");

        Recorder recorder = walk(campaignDir);

        assertThat(recorder.unreadable).containsExactly(campaignDir.resolve("plan.json")
                + ": campaign manifest requires a non-empty campaign_id");
        assertThat(recorder.names()).containsExactly(campaignDir.resolve("trace.json").toString());
    }

    private Recorder walk(Path... paths) throws IOException {
        Recorder recorder = new Recorder();
        recorder.summary = TraceFiles.walk(List.of(paths), TraceFiles.Limits.defaults(), recorder);
        return recorder;
    }

    private Path write(String name, byte[] data) throws IOException {
        return Files.write(dir.resolve(name), data);
    }

    private static List<Path> spools() throws IOException {
        try (Stream<Path> files = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return files.filter(p -> p.getFileName().toString().startsWith("tracegraph-bundle-")).sorted().toList();
        }
    }

    private interface IoAction {
        void run() throws IOException;
    }

    /** Reads every trace whole; remembers the bundle each came in. */
    private static final class Recorder implements TraceFiles.Visitor {
        final Map<String, String> traces = new LinkedHashMap<>();
        final Map<String, BundleIdentity> bundles = new LinkedHashMap<>();
        final List<String> unreadable = new ArrayList<>();
        TraceFiles.Summary summary;
        IoAction onTrace = () -> { };

        @Override
        public void trace(String name, InputStream in) throws IOException {
            onTrace.run();
            traces.put(name, new String(in.readAllBytes(), UTF_8));
        }

        @Override
        public void trace(String name, InputStream in, BundleIdentity bundle) throws IOException {
            trace(name, in);
            bundles.put(name, bundle);
        }

        @Override
        public void unreadable(String name, String reason) {
            unreadable.add(name + ": " + reason);
        }

        List<String> names() {
            return List.copyOf(traces.keySet());
        }
    }
}
