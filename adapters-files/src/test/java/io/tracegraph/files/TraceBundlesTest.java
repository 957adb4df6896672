package io.tracegraph.files;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** bundle.json and campaign manifests checked as candle-graph checks them; archive entry names as paths. */
class TraceBundlesTest {
    private static final String SHA = "ab".repeat(32);

    @Test
    void readsAManifestKeepingItsOrderAndLowerCasingItsHashes() {
        TraceBundles.Read<TraceBundles.Manifest> read = TraceBundles.manifest(("{\"schema\":\"candle-graph/bundle/1\","
                + "\"run_id\":\"r\",\"extra\":[1,{\"x\":null}],\"files\":[{\"path\":\"z.md\",\"bytes\":3,\"sha256\":\""
                + SHA.toUpperCase() + "\"},{\"path\":\"trace.jsonl\",\"bytes\":0,\"sha256\":\"" + SHA + "\"}]}")
                .getBytes(UTF_8));

        assertThat(read.problem()).isNull();
        assertThat(read.value().files().keySet()).containsExactly("z.md", "trace.jsonl");
        assertThat(read.value().files().get("z.md").sha256()).isEqualTo(SHA);
        assertThat(read.value().tracePath()).isEqualTo("trace.jsonl");
    }

    @Test
    void refusesManifestsThatCandleGraphRefuses() {
        assertThat(problem("[]")).isEqualTo("not a JSON object");
        assertThat(problem("{\"schema\":\"candle-graph/bundle/1\",\"run_id\":\"r\",\"files\":[], \"files\":[]}"))
                .startsWith("not valid JSON: Duplicate field 'files'");
        assertThat(problem("{\"schema\":\"candle-graph/bundle/1\",\"files\":[]}"))
                .isEqualTo("member `run_id`: expected a string");
        assertThat(problem(files("{\"path\":\"trace.jsonl\",\"bytes\":-1,\"sha256\":\"" + SHA + "\"}")))
                .isEqualTo("member `files[0].bytes`: expected an integer in 0..9223372036854775807");
        assertThat(problem(files("{\"path\":\"trace.jsonl\",\"bytes\":1,\"sha256\":\"abc\"}")))
                .isEqualTo("member `files[0].sha256`: expected 64 hex digits");
        for (String unsafe : new String[] {"", "/abs", "a/../b", "a//b", "./a", "a\\\\b", "bundle.json"}) {
            assertThat(problem(files("{\"path\":\"" + unsafe + "\",\"bytes\":1,\"sha256\":\"" + SHA + "\"}")))
                    .as(unsafe).startsWith("member `files[0].path`: unsafe or reserved bundle path");
        }
        String twice = "{\"path\":\"trace.jsonl\",\"bytes\":1,\"sha256\":\"" + SHA + "\"}";
        assertThat(problem(files(twice + "," + twice))).isEqualTo("declares `trace.jsonl` more than once");
    }

    @Test
    void readsACampaignAndRefusesTheManifestsCandleGraphRefuses() {
        TraceBundles.Read<TraceBundles.Campaign> good = TraceBundles.campaign(Bundles.campaign("c", "demo::train",
                2, "b/2", 1, "b/1"));
        assertThat(good.value().planned()).extracting(TraceBundles.Planned::bundle).containsExactly("b/1", "b/2");

        assertThat(TraceBundles.campaign("{\"schema\":\"candle-graph/trace/6\"}".getBytes(UTF_8))).isNull();
        assertThat(TraceBundles.campaign("not json".getBytes(UTF_8))).isNull();
        assertThat(TraceBundles.campaign(Bundles.campaign("c", "e", 1, "a", 1, "b")).problem())
                .isEqualTo("campaign manifest plans duplicate capture_step 1");
        assertThat(TraceBundles.campaign(Bundles.campaign("c", "e", 1, "a", 2, "a")).problem())
                .isEqualTo("campaign manifest plans duplicate bundle path `a`");
        assertThat(TraceBundles.campaign(Bundles.campaign("c", "e", 1, "../escape")).problem())
                .startsWith("campaign manifest has an unsafe bundle path `../escape`");
        assertThat(TraceBundles.campaign(Bundles.campaign("c", "e")).problem())
                .isEqualTo("campaign manifest requires at least one planned capture");
        assertThat(TraceBundles.campaign("{\"schema\":\"candle-graph/campaign/0\"}".getBytes(UTF_8)).problem())
                .isEqualTo("unsupported campaign schema `candle-graph/campaign/0` (tracegraph reads "
                        + "candle-graph/campaign/1)");
    }

    @Test
    void normalizesArchiveEntryNamesAndLeavesNamesWithParentsOutOfBundles() {
        assertThat(TraceBundles.normalized("./b//x/./trace.jsonl")).isEqualTo("b/x/trace.jsonl");
        assertThat(TraceBundles.normalized("/abs/bundle.json")).isEqualTo("abs/bundle.json");
        assertThat(TraceBundles.normalized("a/../bundle.json")).isNull();
        assertThat(TraceBundles.normalized("./")).isNull();
    }

    private static String files(String files) {
        return "{\"schema\":\"candle-graph/bundle/1\",\"run_id\":\"r\",\"files\":[" + files + "]}";
    }

    private static String problem(String json) {
        return TraceBundles.manifest(json.getBytes(UTF_8)).problem();
    }
}
