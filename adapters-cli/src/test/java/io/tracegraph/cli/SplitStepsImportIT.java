package io.tracegraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tracegraph.postgres.DatabaseConfig;
import io.tracegraph.postgres.PostgresExtension;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code import --split-steps}: the six steps of the ResNet-50 trace become six runs tagged
 * {@code step=N} with run ids derived from the trace's, once (importing again stores nothing new),
 * and the steps of the one trace compare as two sets of runs.
 */
@ExtendWith(PostgresExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SplitStepsImportIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TRACE = "kineto-tb-plugin-resnet50-workers0.pt.trace.json.gz";

    private final StoreProbe store;
    private final Map<String, String> env;

    @TempDir
    static Path dir;

    SplitStepsImportIT(DatabaseConfig db) {
        this.store = new StoreProbe(db);
        this.env = store.env();
    }

    @BeforeAll
    void copyTheTrace() throws Exception {
        try (InputStream in = SplitStepsImportIT.class.getResourceAsStream("/pytorch/" + TRACE)) {
            Files.copy(in, dir.resolve(TRACE));
        }
        store.empty();
    }

    private CliRun run(String... args) {
        return CliRun.with(env, dir, args);
    }

    @Test
    void eachStepIsARunOnceAndTheStepsCompareAsSets() throws Exception {
        CliRun first = run("import", dir.resolve(TRACE).toString(), "--split-steps", "--format", "json");
        assertThat(first.status()).as(first.err()).isEqualTo(ExitCode.OK);
        assertThat(JSON.readTree(first.out()).get("imported").asLong()).isEqualTo(6);
        List<List<Object>> runs = store.rows("SELECT run_id, tags->>'step' FROM runs ORDER BY (tags->>'step')::int");
        assertThat(runs).extracting(r -> r.get(1)).containsExactly("5", "6", "7", "8", "9", "10");
        String trace = ((String) runs.get(0).get(0)).replaceAll("-step-5$", "");
        assertThat(runs).extracting(r -> r.get(0)).allMatch(id -> ((String) id).startsWith(trace + "-step-"));

        CliRun again = run("import", dir.resolve(TRACE).toString(), "--split-steps", "--format", "json");
        assertThat(again.status()).as(again.err()).isEqualTo(ExitCode.OK);
        JsonNode summary = JSON.readTree(again.out());
        assertThat(summary.get("imported").asLong()).isZero();
        assertThat(summary.get("duplicates_skipped").asLong()).isEqualTo(6);
        assertThat(store.count("SELECT count(*) FROM runs")).isEqualTo(6);

        String baseline = runs.subList(0, 3).stream().map(r -> (String) r.get(0)).collect(Collectors.joining(","));
        String candidate = runs.subList(3, 6).stream().map(r -> (String) r.get(0)).collect(Collectors.joining(","));
        CliRun compared = run("compare", "--baseline", baseline, "--candidate", candidate, "--format", "json");
        assertThat(compared.status()).as(compared.err()).isEqualTo(ExitCode.OK);
        JsonNode c = JSON.readTree(compared.out());
        assertThat(c.toString()).contains("ProfilerStep");
        CliRun byTag = run("compare", "--baseline", "tag:step=5", "--candidate", "tag:step=10", "--format", "json");
        assertThat(byTag.status()).as(byTag.err()).isEqualTo(ExitCode.OK);
    }
}
