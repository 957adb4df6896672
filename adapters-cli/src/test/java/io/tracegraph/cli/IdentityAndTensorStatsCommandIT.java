package io.tracegraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tracegraph.json.SyntheticTrace;
import io.tracegraph.postgres.DatabaseConfig;
import io.tracegraph.postgres.PostgresExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Comparison identities and tensor statistics (candle-graph trace/7..10) through the CLI: set
 * comparisons ({@code compare} and {@code report --compare}) refuse runs whose identities differ
 * (naming the member and a run on each side) unless {@code --allow-mixed-identity}; runs are selected by identity members ({@code runs --identity},
 * {@code identity:MEMBER=VALUE} sets); {@code query --kind tensor-stats} answers in every format, and
 * {@code compare} flags tensor labels whose non_finite count grew in every format.
 */
@ExtendWith(PostgresExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class IdentityAndTensorStatsCommandIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final DatabaseConfig db;
    private final Map<String, String> env;

    @TempDir
    static Path dir;

    IdentityAndTensorStatsCommandIT(DatabaseConfig db) {
        this.db = db;
        this.env = Map.of("TRACEGRAPH_DB_URL", db.jdbcUrl(), "TRACEGRAPH_DB_USER", db.user(),
                "TRACEGRAPH_DB_PASSWORD", db.password());
    }

    @BeforeAll
    void importRuns() throws Exception {
        new StoreProbe(db).empty();
        Path traces = Files.createDirectories(dir.resolve("traces"));
        for (int i = 0; i < 3; i++) {
            write(traces, "base-" + i, SyntheticTrace.training().ops(200).seed(7).schema(10).timingSeed(100 + i)
                    .runId("base-" + i).tag("commit", "base"));
            // The same workload, with NaNs in its tensors.
            write(traces, "cand-" + i, SyntheticTrace.training().ops(200).seed(7).schema(10).timingSeed(200 + i)
                    .runId("cand-" + i).tag("commit", "cand").nonFinite(3));
        }
        for (int i = 0; i < 2; i++) {
            // Another seed: another model and data, so another comparison identity.
            write(traces, "other-" + i, SyntheticTrace.training().ops(200).seed(8).schema(10).timingSeed(300 + i)
                    .runId("other-" + i).tag("commit", "other"));
        }
        CliRun imported = cli("import", traces.toString());
        assertThat(imported.status()).as(imported.err()).isEqualTo(ExitCode.OK);
    }

    @Test
    void setComparisonsRefuseMixedIdentitiesUnlessAllowed() throws Exception {
        CliRun refused = cli("compare", "--baseline", "tag:commit=base", "--candidate", "tag:commit=other");
        assertThat(refused.status()).as(refused.out()).isEqualTo(ExitCode.REJECTED);
        assertThat(refused.err().strip()).doesNotContain("\n")
                // Another seed gives another model size: the first condition that differs is named.
                .containsPattern("comparison identity differs in model_id: baseline run base-\\d and candidate run "
                        + "other-\\d \\(`tinygpt-[^`]+` vs `tinygpt-[^`]+`\\)")
                .contains("--allow-mixed-identity");
        // Within one side too.
        CliRun mixedBaseline = cli("compare", "--baseline", "base-0,other-0", "--candidate", "tag:commit=cand");
        assertThat(mixedBaseline.status()).isEqualTo(ExitCode.REJECTED);
        assertThat(mixedBaseline.err()).contains("baseline runs base-0 and other-0");

        CliRun allowed = cli("compare", "--baseline", "tag:commit=base", "--candidate", "tag:commit=other",
                "--allow-mixed-identity", "--format", "json");
        assertThat(allowed.status()).as(allowed.err()).isEqualTo(ExitCode.OK);
        assertThat(JSON.readTree(allowed.out()).get("candidate_runs").asLong()).isEqualTo(2);
        // Same identity (implementation and seeds of timing aside): compared.
        assertThat(cli("compare", "--baseline", "tag:commit=base", "--candidate", "tag:commit=cand").status())
                .isEqualTo(ExitCode.OK);
    }

    @Test
    void reportsOfSetsRefuseMixedIdentitiesUnlessAllowed() throws Exception {
        Path html = dir.resolve("mixed.html");
        CliRun refused = cli("report", "--compare", "tag:commit=base", "tag:commit=other", "-o", html.toString());
        assertThat(refused.status()).as(refused.out()).isEqualTo(ExitCode.REJECTED);
        assertThat(refused.err().strip()).doesNotContain("\n")
                .containsPattern("comparison identity differs in model_id: baseline run base-\\d and candidate run "
                        + "other-\\d \\(`tinygpt-[^`]+` vs `tinygpt-[^`]+`\\)")
                .contains("--allow-mixed-identity");
        assertThat(html).doesNotExist();
        CliRun mixedBaseline = cli("report", "--compare", "base-0,other-0", "tag:commit=cand", "-o", html.toString());
        assertThat(mixedBaseline.status()).isEqualTo(ExitCode.REJECTED);
        assertThat(mixedBaseline.err()).contains("baseline runs base-0 and other-0");

        CliRun allowed = cli("report", "--compare", "tag:commit=base", "tag:commit=other", "--allow-mixed-identity",
                "-o", html.toString());
        assertThat(allowed.status()).as(allowed.err()).isEqualTo(ExitCode.OK);
        assertThat(html).exists();
        CliRun same = cli("report", "--compare", "tag:commit=base", "tag:commit=cand", "-o",
                dir.resolve("same.html").toString());
        assertThat(same.status()).as(same.err()).isEqualTo(ExitCode.OK);
    }

    @Test
    void runsAreSelectedByIdentityMembers() throws Exception {
        assertThat(runIds(cli("runs", "--identity", "data_id=synthetic-s8", "--format", "json")))
                .containsExactlyInAnyOrder("other-0", "other-1");
        assertThat(runIds(cli("runs", "--identity", "data=synthetic-s7", "--identity", "seed_policy=fixed",
                "--format", "json"))).hasSize(6);
        assertThat(runIds(cli("runs", "--identity", "data=nothing", "--format", "json"))).isEmpty();
        CliRun unknown = cli("runs", "--identity", "colour=blue");
        assertThat(unknown.status()).isEqualTo(ExitCode.USAGE);
        assertThat(unknown.err()).contains("`colour` is not a comparison identity member");

        CliRun set = cli("compare", "--baseline", "identity:data_id=synthetic-s8", "--candidate",
                "identity:data=synthetic-s8", "--format", "json");
        assertThat(set.status()).as(set.err()).isEqualTo(ExitCode.OK);
        assertThat(JSON.readTree(set.out()).get("baseline_runs").asLong()).isEqualTo(2);
        CliRun none = cli("compare", "--baseline", "identity:model_id=llama", "--candidate", "tag:commit=base");
        assertThat(none.status()).isEqualTo(ExitCode.REJECTED);
        assertThat(none.err()).contains("no stored run has comparison identity model_id=llama");
        assertThat(cli("compare", "--baseline", "identity:colour=blue", "--candidate", "tag:commit=base").status())
                .isEqualTo(ExitCode.USAGE);
    }

    @Test
    void queryAnswersTensorStatsInEveryFormat() throws Exception {
        JsonNode stats = JSON.readTree(cli("query", "cand-0", "--kind", "tensor-stats", "--format", "json").out());
        assertThat(stats.get("kind").asText()).isEqualTo("tensor-stats");
        assertThat(stats.get("tensor_stats").size()).isPositive();
        for (JsonNode s : stats.get("tensor_stats")) {
            assertThat(s.get("non_finite").asLong()).isBetween(1L, 3L);
            assertThat(s.get("label").asText()).isNotEmpty();
        }
        String label = stats.get("tensor_stats").get(0).get("label").asText();
        JsonNode file = JSON.readTree(CliRun.of("query", dir.resolve("traces/cand-0.jsonl").toString(), "--kind",
                "tensor-stats", "--format", "json").out());
        assertThat(file).isEqualTo(stats);
        for (String format : List.of("table", "csv", "markdown")) {
            CliRun run = cli("query", "cand-0", "--kind", "tensor-stats", "--format", format);
            assertThat(run.status()).as(format + ": " + run.err()).isEqualTo(ExitCode.OK);
            assertThat(run.out()).as(format).contains(label).containsAnyOf("non_finite", "non finite");
        }
        assertThat(cli("query", "cand-0", "--kind", "tensor_stats", "--format", "json").status())
                .isEqualTo(ExitCode.OK);
    }

    @Test
    void compareFlagsTensorLabelsWhoseNonFiniteCountGrew() throws Exception {
        String label = JSON.readTree(cli("query", "cand-0", "--kind", "tensor-stats", "--format", "json").out())
                .get("tensor_stats").get(0).get("label").asText();
        for (List<String> command : List.of(List.of("compare", "base-0", "cand-0"),
                List.of("compare", "--baseline", "tag:commit=base", "--candidate", "tag:commit=cand"))) {
            JsonNode json = JSON.readTree(cli(with(command, "--format", "json")).out());
            assertThat(json.get("non_finite_growth")).as(command.toString()).isNotNull();
            assertThat(json.get("non_finite_growth").get(0).get("base_non_finite").asLong()).isZero();
            assertThat(json.get("non_finite_growth").get(0).get("candidate_non_finite").asLong()).isPositive();
            assertThat(cli(with(command, "--format", "csv")).out()).contains("candidate_non_finite").contains(label);
            assertThat(cli(with(command, "--format", "table")).out()).contains("non_finite_growth").contains(label);
            assertThat(cli(with(command, "--format", "markdown")).out()).contains("### Non-finite values grew")
                    .contains("| " + label + " | 0 |");
            CliRun terminal = CliRun.onTerminal(Map.of("COLUMNS", "120", "NO_COLOR", "1",
                    "TRACEGRAPH_DB_URL", db.jdbcUrl(), "TRACEGRAPH_DB_USER", db.user(),
                    "TRACEGRAPH_DB_PASSWORD", db.password()), dir, command.toArray(new String[0]));
            assertThat(terminal.status()).as(terminal.err()).isEqualTo(ExitCode.OK);
            assertThat(terminal.out()).contains("non-finite values grew").contains(label + ": 0 -> ");
            // The other way round nothing grew: nothing said.
            JsonNode back = JSON.readTree(cli(with(reversed(command), "--format", "json")).out());
            assertThat(back.has("non_finite_growth")).as(command.toString()).isFalse();
        }
    }

    private static List<String> reversed(List<String> command) {
        return command.size() == 3 ? List.of("compare", command.get(2), command.get(1))
                : List.of("compare", "--baseline", command.get(4), "--candidate", command.get(2));
    }

    private static String[] with(List<String> command, String... more) {
        List<String> all = new ArrayList<>(command);
        all.addAll(List.of(more));
        return all.toArray(new String[0]);
    }

    private static List<String> runIds(CliRun run) throws Exception {
        assertThat(run.status()).as(run.err()).isEqualTo(ExitCode.OK);
        List<String> ids = new ArrayList<>();
        JSON.readTree(run.out()).get("runs").forEach(r -> ids.add(r.get("run_id").asText()));
        return ids;
    }

    private static void write(Path dir, String name, SyntheticTrace trace) throws Exception {
        trace.writeTo(dir.resolve(name + ".jsonl"));
    }

    private CliRun cli(String... args) {
        return CliRun.with(env, dir, args);
    }
}
