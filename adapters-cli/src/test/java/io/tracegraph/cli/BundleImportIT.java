package io.tracegraph.cli;

import static io.tracegraph.files.Bundles.gzip;
import static io.tracegraph.files.Bundles.merged;
import static io.tracegraph.files.Bundles.oneByteChanged;
import static io.tracegraph.files.Bundles.sha256;
import static io.tracegraph.files.Bundles.tar;
import static io.tracegraph.files.Bundles.zip;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tracegraph.files.Bundles;
import io.tracegraph.files.Bundles.Bundle;
import io.tracegraph.postgres.Database;
import io.tracegraph.postgres.DatabaseConfig;
import io.tracegraph.postgres.PostgresExtension;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tracegraph import} of candle-graph bundles and campaigns against a real PostgreSQL: a
 * bundle is verified whole before anything of it is stored, a tampered one is rejected naming the
 * file, the same bundle (also from another archive) is stored once, a campaign's bundles are tagged.
 * The bundles carry trace/6 conformance traces (candle-graph's own bundles hold trace/9 and /10:
 * the lead adds one once that reader is in).
 */
@ExtendWith(PostgresExtension.class)
class BundleImportIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final DatabaseConfig db;
    private final Map<String, String> env;

    @TempDir
    Path dir;

    BundleImportIT(DatabaseConfig db) {
        this.db = db;
        this.env = Map.of("TRACEGRAPH_DB_URL", db.jdbcUrl(), "TRACEGRAPH_DB_USER", db.user(),
                "TRACEGRAPH_DB_PASSWORD", db.password());
    }

    @BeforeEach
    void emptyStore() throws SQLException {
        Database.open(db).close();
        sql("TRUNCATE " + String.join(", ", StoreProbe.WRITTEN_TABLES) + ", import_log");
    }

    @Test
    void aBundleWithOneByteChangedInItsTraceIsRejectedNamingTheFileTheIntactOneImportsAndAgainStoresNothingNew()
            throws Exception {
        byte[] trace = sample("train_tiny.jsonl");
        Bundle intact = Bundle.of("train-s11", new String(trace, StandardCharsets.UTF_8));
        Path good = intact.writeTo(dir.resolve("good/profile"));
        byte[] changed = oneByteChanged(trace, trace.length / 2);
        Path tampered = Bundle.of("train-s11", new String(trace, StandardCharsets.UTF_8))
                .manifest(new String(intact.manifest(), StandardCharsets.UTF_8)).with("trace.jsonl", changed)
                .writeTo(dir.resolve("tampered/profile"));

        CliRun rejected = importing(tampered.getParent().toString());

        assertThat(rejected.status()).as(rejected.err()).isEqualTo(ExitCode.REJECTED);
        JsonNode summary = JSON.readTree(rejected.out());
        assertThat(summary.get("rejected").asLong()).isEqualTo(1);
        assertThat(summary.get("imported").asLong()).isZero();
        assertThat(rejections(summary)).containsExactly(tampered.resolve("trace.jsonl") + " => sha256 mismatch "
                + "(bundle.json says " + sha256(trace) + ", the file has " + sha256(changed) + ")");
        assertThat(row("SELECT count(*) FROM runs")).containsExactly(0L);

        CliRun imported = importing(good.getParent().toString());

        assertThat(imported.status()).as(imported.out() + imported.err()).isEqualTo(ExitCode.OK);
        assertThat(JSON.readTree(imported.out()).get("imported").asLong()).isEqualTo(1);
        assertThat(row("SELECT run_id, source_name, content_sha256, tags->>'bundle' FROM runs")).containsExactly(
                "train-s11", good.resolve("trace.jsonl").toString(), sha256(trace), sha256(intact.manifest()));
        List<Object> stored = row("SELECT (SELECT count(*) FROM runs), (SELECT count(*) FROM nodes), "
                + "(SELECT count(*) FROM edges)");

        CliRun again = importing(good.getParent().toString());

        assertThat(again.status()).as(again.err()).isEqualTo(ExitCode.OK);
        JsonNode second = JSON.readTree(again.out());
        assertThat(second.get("imported").asLong()).isZero();
        assertThat(second.get("duplicates_skipped").asLong()).isEqualTo(1);
        assertThat(row("SELECT (SELECT count(*) FROM runs), (SELECT count(*) FROM nodes), "
                + "(SELECT count(*) FROM edges)")).isEqualTo(stored);
    }

    @Test
    void theSameBundleInATarGzWithItsBundleJsonLastAndInAZipIsStoredOnceAndATamperedCopyIsRejected()
            throws Exception {
        byte[] trace = sample("infer_small.jsonl");
        Bundle bundle = Bundle.of("infer-s12", new String(trace, StandardCharsets.UTF_8));
        Path tgz = Files.write(dir.resolve("ci-1.tar.gz"), gzip(tar(merged(bundle.under("profile", false),
                Map.of("loose.jsonl", sample("synthetic.jsonl"))))));
        Path zipped = Files.write(dir.resolve("ci-2.zip"), zip(bundle.under("runs/profile", true)));
        byte[] changed = oneByteChanged(trace, 100);
        Bundle tampered = Bundle.of("infer-s12", new String(trace, StandardCharsets.UTF_8));
        tampered.manifest(new String(bundle.manifest(), StandardCharsets.UTF_8)).with("trace.jsonl", changed);
        Path bad = Files.write(dir.resolve("ci-3.tgz"), gzip(tar(tampered.under("profile", false))));

        CliRun first = importing(tgz.toString());
        CliRun second = importing(zipped.toString());
        CliRun third = importing(bad.toString());

        assertThat(first.status()).as(first.out() + first.err()).isEqualTo(ExitCode.OK);
        assertThat(JSON.readTree(first.out()).get("imported").asLong()).isEqualTo(2);
        assertThat(second.status()).as(second.out() + second.err()).isEqualTo(ExitCode.OK);
        assertThat(JSON.readTree(second.out()).get("duplicates_skipped").asLong()).isEqualTo(1);
        assertThat(third.status()).isEqualTo(ExitCode.REJECTED);
        assertThat(rejections(JSON.readTree(third.out()))).containsExactly(bad + "!profile/trace.jsonl => sha256 "
                + "mismatch (bundle.json says " + sha256(trace) + ", the file has " + sha256(changed) + ")");
        assertThat(row("SELECT count(*), count(*) FILTER (WHERE tags->>'bundle' = '" + sha256(bundle.manifest())
                + "') FROM runs")).containsExactly(2L, 1L);
        assertThat(row("SELECT source_name FROM runs WHERE run_id = 'infer-s12'"))
                .containsExactly(tgz + "!profile/trace.jsonl");
    }

    @Test
    void aBundleWithAMissingListedFileOrAMalformedBundleJsonIsRejectedAndNothingOfItIsStored() throws Exception {
        byte[] trace = sample("train_tiny.jsonl");
        Bundle missing = Bundle.of("train-s11", new String(trace, StandardCharsets.UTF_8));
        Path a = missing.manifest(new String(missing.manifest(), StandardCharsets.UTF_8)).without("evidence.json")
                .writeTo(dir.resolve("in/a"));
        Path b = Bundle.of("train-s11", new String(trace, StandardCharsets.UTF_8))
                .manifest("{\"schema\": \"candle-graph/bundle/1\", \"run_id\": 7}").writeTo(dir.resolve("in/b"));

        CliRun run = importing(dir.resolve("in").toString());

        assertThat(run.status()).isEqualTo(ExitCode.REJECTED);
        assertThat(rejections(JSON.readTree(run.out()))).containsExactly(
                a.resolve("evidence.json") + " => listed in bundle.json but missing",
                b.resolve("bundle.json") + " => member `run_id`: expected a string");
        assertThat(row("SELECT count(*) FROM runs")).containsExactly(0L);
        assertThat(row("SELECT count(*), bool_and(NOT content_fault) FROM import_log WHERE outcome = 'rejected'"))
                .containsExactly(2L, true);
    }

    @Test
    void aCampaignOfTwoBundlesImportsBothTaggedWithTheCampaignAndTheirStepsAndFoundByTheTag() throws Exception {
        Path campaign = Files.createDirectories(dir.resolve("campaign"));
        Bundle.of("train-s11", new String(sample("train_tiny.jsonl"), StandardCharsets.UTF_8))
                .writeTo(campaign.resolve("bundles/step-220"));
        Bundle.of("train-s23", new String(sample("train_quirks.jsonl"), StandardCharsets.UTF_8))
                .writeTo(campaign.resolve("bundles/step-321"));
        Files.write(campaign.resolve("campaign.json"), Bundles.campaign("nightly", "tinygpt::train::update",
                321, "bundles/step-321", 220, "bundles/step-220"));
        Files.write(dir.resolve("loose.jsonl"), sample("synthetic.jsonl"));

        CliRun run = importing(campaign.toString(), dir.resolve("loose.jsonl").toString());
        CliRun tagged = CliRun.with(env, dir, "runs", "--tag", "campaign=nightly", "--format", "json");

        assertThat(run.status()).as(run.out() + run.err()).isEqualTo(ExitCode.OK);
        assertThat(JSON.readTree(run.out()).get("imported").asLong()).isEqualTo(3);
        assertThat(row("SELECT string_agg(run_id || ':' || coalesce(tags->>'campaign', '-') || ':' "
                + "|| coalesce(tags->>'campaign.step', '-'), ',' ORDER BY run_id) FROM runs"))
                .containsExactly("run-1:-:-,train-s11:nightly:220,train-s23:nightly:321");
        assertThat(tagged.status()).as(tagged.err()).isEqualTo(ExitCode.OK);
        assertThat(tagged.out()).contains("train-s11", "train-s23").doesNotContain("run-1");
    }

    @Test
    void aCampaignInATarGzRefusesABundleOfAnotherStepThanPlannedAndReportsAMissingOne() throws Exception {
        Path archive = Files.write(dir.resolve("campaign.tgz"), gzip(tar(merged(
                Map.of("c/campaign.json", Bundles.campaign("archived", "tinygpt::train::update", 220, "b220",
                        999, "b999", 400, "b400")),
                Bundle.of("train-s11", new String(sample("train_tiny.jsonl"), StandardCharsets.UTF_8))
                        .under("c/b220", false),
                Bundle.of("train-s23", new String(sample("train_quirks.jsonl"), StandardCharsets.UTF_8))
                        .under("c/b999", true)))));

        CliRun run = importing(archive.toString());

        assertThat(run.status()).isEqualTo(ExitCode.REJECTED);
        assertThat(rejections(JSON.readTree(run.out()))).containsExactly(
                archive + "!c/b400 => planned by campaign `archived` (" + archive + "!c/campaign.json) for capture_step "
                        + "400, but there is no bundle (no bundle.json)",
                archive + "!c/b999/trace.jsonl => campaign `archived` (" + archive + "!c/campaign.json) plans "
                        + "capture_step 999 for bundle b999 but the trace is of capture_step 321");
        assertThat(row("SELECT string_agg(run_id || ':' || (tags->>'campaign') || ':' || (tags->>'campaign.step'), "
                + "',') FROM runs")).containsExactly("train-s11:archived:220");
    }

    private CliRun importing(String... paths) {
        List<String> args = new ArrayList<>(List.of("import", "--format", "json"));
        args.addAll(List.of(paths));
        return CliRun.with(env, dir, args.toArray(String[]::new));
    }

    private static List<String> rejections(JsonNode summary) {
        List<String> reasons = new ArrayList<>();
        summary.get("rejections").forEach(r -> reasons.add(r.get("source").asText() + " => " + r.get("reason").asText()));
        return reasons;
    }

    private static byte[] renamed(byte[] trace, String from, String to) {
        return new String(trace, StandardCharsets.UTF_8).replace("\"run_id\":\"" + from + "\"", "\"run_id\":\"" + to
                + "\"").getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] sample(String name) throws IOException {
        try (InputStream in = BundleImportIT.class.getResourceAsStream("/conformance/" + name)) {
            assertThat(in).as(name).isNotNull();
            return in.readAllBytes();
        }
    }

    private void sql(String statement) throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute(statement);
        }
    }

    private List<Object> row(String query) throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(query)) {
            assertThat(rs.next()).as(query).isTrue();
            List<Object> values = new ArrayList<>();
            for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                values.add(rs.getObject(i));
            }
            return values;
        }
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
    }
}
