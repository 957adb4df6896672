package io.tracegraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tracegraph.json.SyntheticTrace;
import io.tracegraph.postgres.DatabaseConfig;
import io.tracegraph.postgres.PostgresExtension;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The listings of stored runs (import's summary, runs, show, query, compare of runs and of sets,
 * history, sql) over the shared samples imported into a real PostgreSQL: on terminals of 80, 120
 * and 200 columns by the rules for people, and in every format, under a German locale, by the
 * number rules ({@link OutputRules}). Their times of import differ from run to run, so they have
 * no golden files; {@link ListingOutputTest} holds those of the listings that need no store.
 */
@ExtendWith(PostgresExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StoredListingsIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Map<String, String> env;
    private final Locale locale = Locale.getDefault();
    private final List<List<String>> commands = new ArrayList<>();

    @TempDir
    static Path dir;

    StoredListingsIT(DatabaseConfig db) {
        this.env = Map.of("TRACEGRAPH_DB_URL", db.jdbcUrl(), "TRACEGRAPH_DB_USER", db.user(),
                "TRACEGRAPH_DB_PASSWORD", db.password());
    }

    @BeforeAll
    void storeTheSamples() throws Exception {
        Path traces = Files.createDirectories(dir.resolve("traces"));
        for (String name : List.of("synthetic.jsonl", "train_tiny.jsonl", "train_quirks.jsonl", "infer_small.jsonl",
                "infer_quirks.jsonl", "bom.jsonl", "crlf.jsonl", "malformed_wrong_type.jsonl", "untrusted_cycle.jsonl")) {
            try (InputStream in = StoredListingsIT.class.getResourceAsStream("/conformance/" + name)) {
                Files.copy(in, traces.resolve(name), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        for (String name : List.of("train_small.jsonl", "infer_small.jsonl", "train_gz.jsonl.gz")) {
            Files.copy(Path.of("../examples", name), traces.resolve("example-" + name));
        }
        for (int i = 0; i < 10; i++) {
            SyntheticTrace.training().ops(300).seed(7).timingSeed(100 + i).runId("base-" + i).tag("side", "base")
                    .writeTo(traces.resolve("base-" + i + ".jsonl"));
            SyntheticTrace.training().ops(300).seed(7).timingSeed(200 + i).runId("cand-" + i).tag("side", "cand")
                    .slowSpan("Mlp::forward", 2.0).growMemory("Mlp::forward", 2).writeTo(traces.resolve("cand-" + i + ".jsonl"));
        }
        CliRun imported = CliRun.with(env, dir, "import", traces.toString(), "--format", "json");
        assertThat(imported.status()).as(imported.err()).isEqualTo(ExitCode.REJECTED);
        String path = JSON.readTree(CliRun.with(env, dir, "compare", "--baseline", "tag:side=base", "--candidate",
                "tag:side=cand", "--format", "json").out()).get("paths").get(0).get("path").asText();
        commands.add(List.of("import", traces.toString()));
        commands.add(List.of("runs"));
        commands.add(List.of("show", "latest"));
        commands.add(List.of("show", "train-s1"));
        commands.add(List.of("query", "train-s1", "--kind", "memory"));
        commands.add(List.of("query", "latest", "--kind", "slowest"));
        commands.add(List.of("compare", "base-0", "cand-0"));
        commands.add(List.of("compare", "--baseline", "tag:side=base", "--candidate", "tag:side=cand"));
        commands.add(List.of("history", path));
        commands.add(List.of("sql", "SELECT run_id, total_ms, node_count, content_bytes, imported_at, 1.0 / 3 AS third, "
                + "2.5::float8 AS f, 208920576::float8 AS whole FROM runs ORDER BY run_id LIMIT 5"));
    }

    @AfterEach
    void restoreLocale() {
        Locale.setDefault(locale);
    }

    @Test
    void onATerminalEveryStoredListingFitsItsWidth() {
        for (List<String> command : commands) {
            for (int width : new int[] {80, 120, 200}) {
                Map<String, String> terminal = new HashMap<>(env);
                terminal.put("COLUMNS", String.valueOf(width));
                CliRun run = CliRun.onTerminal(terminal, dir, command.toArray(String[]::new));
                String label = String.join(" ", command) + " at " + width;
                assertThat(run.status()).as(label + ": " + run.err()).isEqualTo(status(command));
                // A user's SQL columns carry no units we know of.
                OutputRules.fitsTheTerminal(label, run.out(), width, !command.get(0).equals("sql"));
            }
        }
    }

    /** Import exits 1: the samples hold a malformed and an untrusted trace, rejected again. */
    private static int status(List<String> command) {
        return command.get(0).equals("import") ? ExitCode.REJECTED : ExitCode.OK;
    }

    @Test
    void showOnATerminalReadsLikeASummary() {
        Map<String, String> terminal = new HashMap<>(env);
        terminal.put("COLUMNS", "100");
        String out = CliRun.onTerminal(terminal, dir, "show", "train-s1").out();
        assertThat(out).startsWith("Run:          train-s1\nRan:          tinygpt::train::update (train) on cuda:0\n")
                .contains("Took:         1.14 ms measured", "Memory peak:  114 MiB", "Health:", "Slowest spans (self time)")
                .doesNotContain("peak_timestamp_ns", "capture_step");
    }

    @Test
    void everyFormatFollowsTheNumberRulesUnderAGermanLocale() {
        Locale.setDefault(Locale.GERMANY);
        for (List<String> command : commands) {
            for (String format : List.of("json", "csv", "table", "markdown")) {
                List<String> args = new ArrayList<>(command);
                args.addAll(List.of("--format", format));
                CliRun run = CliRun.with(env, dir, args.toArray(String[]::new));
                String label = String.join(" ", command) + " as " + format;
                assertThat(run.status()).as(label + ": " + run.err()).isEqualTo(status(command));
                ListingOutputTest.check(label, format, run.out());
            }
        }
    }

    @Test
    void sqlFloatsLoseTheirArtifactsButKeepTheirColumns() throws Exception {
        CliRun run = CliRun.with(env, dir, "sql", "SELECT 0.1::float8 + 0.2::float8 AS sum, 208920576::float8 AS whole, "
                + "1.891668::float8 * 1 AS ms", "--format", "json");
        assertThat(run.out()).contains("\"sum\": 0.3", "\"whole\": 208920576", "\"ms\": 1.891668");
        assertThat(CliRun.with(env, dir, "sql", "SELECT 208920576::float8 AS whole", "--format", "csv").out())
                .isEqualTo("whole\r\n208920576\r\n");
    }
}
