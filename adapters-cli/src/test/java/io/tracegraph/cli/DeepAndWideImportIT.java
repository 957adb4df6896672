package io.tracegraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tracegraph.json.SyntheticTrace;
import io.tracegraph.postgres.DatabaseConfig;
import io.tracegraph.postgres.PostgresExtension;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The extreme tree shapes through read, build, store and read-back: a chain of 100,000 nested
 * spans and a span with 1,000,000 children (traces generated at test time). No stack overflow, no
 * quadratic step (the timeouts), every node stored.
 */
@ExtendWith(PostgresExtension.class)
class DeepAndWideImportIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final StoreProbe store;

    @TempDir
    Path dir;

    DeepAndWideImportIT(DatabaseConfig db) {
        this.store = new StoreProbe(db);
    }

    @BeforeEach
    void emptyStore() throws SQLException {
        store.empty();
    }

    @Test
    @Timeout(120)
    void aHundredThousandDeepChainIsStoredAndReadBack() throws Exception {
        Path trace = dir.resolve("deep.jsonl");
        SyntheticTrace.deepChain(100_000).runId("deep").writeTo(trace);

        CliRun run = CliRun.with(store.env(), dir, "import", trace.toString(), "--format", "json");

        assertThat(run.status()).as(run.err()).isEqualTo(ExitCode.OK);
        assertThat(JSON.readTree(run.out()).get("imported").asLong()).isEqualTo(1);
        assertThat(store.row("SELECT node_count, (SELECT count(*) FROM nodes), (SELECT max(depth) FROM nodes), "
                + "(SELECT max(length(path)) FROM nodes) FROM runs WHERE run_id = 'deep'"))
                .satisfies(row -> {
                    assertThat(((Number) row.get(0)).longValue()).isEqualTo(((Number) row.get(1)).longValue())
                            .isGreaterThan(100_000);
                    assertThat(((Number) row.get(2)).longValue()).isGreaterThanOrEqualTo(100_000);
                    assertThat(((Number) row.get(3)).longValue()).as("abbreviated deep paths").isLessThan(1_100);
                });
        CliRun slowest = CliRun.with(store.env(), dir, "query", "deep", "--kind", "slowest", "--format", "json");
        assertThat(slowest.status()).as(slowest.err()).isEqualTo(ExitCode.OK);
        assertThat(JSON.readTree(slowest.out()).toString()).contains("slowest_spans");
    }

    @Test
    @Timeout(300)
    void aSpanWithAMillionChildrenIsStoredAndSummarised() throws Exception {
        Path trace = dir.resolve("wide.jsonl");
        writeWide(trace, 1_000_000);

        CliRun run = CliRun.with(store.env(), dir, "import", trace.toString(), "--format", "json");

        assertThat(run.status()).as(run.err()).isEqualTo(ExitCode.OK);
        JsonNode summary = JSON.readTree(run.out());
        assertThat(summary.get("imported").asLong()).isEqualTo(1);
        assertThat(summary.get("nodes_stored").asLong()).isEqualTo(1_000_001);
        assertThat(store.row("SELECT node_count, edge_count, (SELECT count(*) FROM nodes), "
                + "(SELECT count(*) FROM edges) FROM runs WHERE run_id = 'wide'"))
                .containsExactly(1_000_001L, 1_000_000L, 1_000_001L, 1_000_000L);
        CliRun show = CliRun.with(store.env(), dir, "show", "wide", "--format", "json");
        assertThat(show.status()).as(show.err()).isEqualTo(ExitCode.OK);
        assertThat(show.out()).contains("wide::run");
    }

    /** A measured root of {@code 2 * children} ns with {@code children} closed 1 ns child spans. */
    private static void writeWide(Path file, int children) throws IOException {
        try (Writer out = new BufferedWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8), 1 << 20)) {
            out.write("{\"kind\":\"meta\",\"schema\":\"candle-graph/trace/6\",\"run_id\":\"wide\",\"correlation_id\":\"c\","
                    + "\"entrypoint\":\"wide::run\",\"phase\":\"infer\",\"timestamp\":\"2026-08-04T18:00:00Z\","
                    + "\"capture_step\":0,\"warmup_steps\":0,\"device\":\"cpu\",\"timing_mode\":\"host\",\"tags\":{}}\n");
            out.write("{\"kind\":\"span_start\",\"id\":\"root\",\"name\":\"wide::run\",\"start_ns\":0,"
                    + "\"span_kind\":\"function\",\"measured\":true}\n");
            for (int i = 0; i < children; i++) {
                String id = "c" + (10_000_000 + i);
                out.write("{\"kind\":\"span_start\",\"id\":\"" + id + "\",\"parent_id\":\"root\",\"name\":\"child\","
                        + "\"start_ns\":" + (2L * i) + ",\"span_kind\":\"function\"}\n");
                out.write("{\"kind\":\"span_end\",\"id\":\"" + id + "\",\"duration_ns\":1}\n");
            }
            out.write("{\"kind\":\"span_end\",\"id\":\"root\",\"duration_ns\":" + (2L * children) + "}\n");
        }
    }
}
