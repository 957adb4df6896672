package io.tracegraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tracegraph.postgres.DatabaseConfig;
import io.tracegraph.postgres.PostgresExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Names built to break SQL built by concatenation ({@code '; DROP TABLE runs; --}, quotes,
 * {@code $$}, jdbi-style {@code :name} and JDBC {@code ?} placeholders, LIKE wildcards, NUL,
 * characters outside the BMP, bidirectional controls) as run_id, entrypoint, device, tags, span
 * and op names, through import and every command that looks them up: each is stored and found as
 * the value it is (NUL as U+FFFD, the one documented change) and no table is harmed.
 */
@ExtendWith(PostgresExtension.class)
class HostileNamesIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String INJECTION = "'; DROP TABLE runs; --";
    private static final String RUN_ID = INJECTION + " \u03b4 \ud834\udd1e";
    private static final String ENTRYPOINT = "\u00fcn\u00efc\u00f6de\"; DROP TABLE nodes; --";
    private static final String DEVICE = "$$; DELETE FROM runs; $$";
    private static final String TAG_KEY = "k'; --";
    private static final String TAG_VALUE = "v\\' OR '1'='1 :runId ? %_";
    private static final String SPAN_NAME = "Layer'1::forward %_ :name ?";

    private final StoreProbe store;

    @TempDir
    Path dir;

    HostileNamesIT(DatabaseConfig db) {
        this.store = new StoreProbe(db);
    }

    @Test
    @Timeout(180)
    void hostileNamesAreStoredAndFoundAsValuesByEveryCommand() throws Exception {
        store.empty();
        Path trace = dir.resolve("hostile.jsonl");
        Files.writeString(trace, trace(RUN_ID, Map.of(TAG_KEY, TAG_VALUE, ":runId", "?", "nul", "a\u0000b",
                "rtl", "\u202eevil", "astral", "\ud834\udd1e")), StandardCharsets.UTF_8);
        Path other = dir.resolve("other.jsonl");
        Files.writeString(other, trace("other", Map.of(TAG_KEY, TAG_VALUE)), StandardCharsets.UTF_8);

        assertThat(run("import", trace.toString(), other.toString()).get("imported").asLong()).isEqualTo(2);

        JsonNode byEntrypoint = run("runs", "--entrypoint", ENTRYPOINT);
        assertThat(byEntrypoint.findValuesAsText("run_id")).containsExactlyInAnyOrder(RUN_ID, "other");
        assertThat(run("runs", "--tag", TAG_KEY + "=" + TAG_VALUE).findValuesAsText("run_id")).hasSize(2);
        assertThat(run("runs", "--tag", "nul=a\u0000b").findValuesAsText("run_id")).containsExactly(RUN_ID);
        assertThat(run("runs", "--entrypoint", INJECTION).findValuesAsText("run_id")).isEmpty();
        assertThat(run("runs", "--entrypoint", "%").findValuesAsText("run_id")).isEmpty();

        for (String reference : List.of(RUN_ID, INJECTION, "'")) {
            assertThat(run("show", reference).toString()).as(reference).contains(DEVICE.replace("\"", "\\\""));
            assertThat(run("query", reference, "--kind", "slowest").toString()).as(reference).contains("Layer'1");
        }
        CliRun unknown = cli("show", "%");
        assertThat(unknown.status()).as("a LIKE wildcard is no prefix of anything").isEqualTo(ExitCode.REJECTED);
        assertThat(run("compare", RUN_ID, "other").toString()).contains("Layer'1");
        assertThat(run("compare", "--baseline", "tag:" + TAG_KEY + "=" + TAG_VALUE, "--candidate", RUN_ID)).isNotNull();
        assertThat(run("history", ENTRYPOINT + "/" + SPAN_NAME).findValuesAsText("run_id"))
                .containsExactlyInAnyOrder(RUN_ID, "other");
        assertThat(run("sql", "SELECT run_id FROM runs WHERE run_id = '" + RUN_ID.replace("'", "''") + "'")
                .findValuesAsText("run_id")).containsExactly(RUN_ID);

        assertThat(store.rows("SELECT run_id, entrypoint, device, tags->>'" + TAG_KEY.replace("'", "''") + "', "
                + "tags->>'nul', tags->>':runId' FROM runs WHERE run_id <> 'other'")).containsExactly(
                List.of(RUN_ID, ENTRYPOINT, DEVICE, TAG_VALUE, "a\ufffdb", "?"));
        assertThat(store.count("SELECT count(*) FROM nodes WHERE name = '" + SPAN_NAME.replace("'", "''") + "'"))
                .isEqualTo(2);
        // Tables and, since V5, the views of the old tables' names.
        assertThat(store.count("SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public' "
                + "AND table_name IN ('" + String.join("', '", StoreProbe.RUN_TABLES) + "', 'import_log')"))
                .as("every table still there").isEqualTo(StoreProbe.RUN_TABLES.size() + 1);
        assertThat(store.count("SELECT count(*) FROM pg_tables WHERE schemaname = 'public' AND tablename IN ('"
                + String.join("', '", StoreProbe.WRITTEN_TABLES) + "', 'import_log')"))
                .as("every table a run is written to still there").isEqualTo(StoreProbe.WRITTEN_TABLES.size() + 1);
        assertThat(store.count("SELECT count(*) FROM runs")).isEqualTo(2);
    }

    private CliRun cli(String... args) {
        return CliRun.with(store.env(), dir.resolve("no-home"), args);
    }

    private JsonNode run(String... args) throws Exception {
        List<String> withJson = new ArrayList<>(List.of(args));
        withJson.addAll(List.of("--format", "json"));
        CliRun run = cli(withJson.toArray(new String[0]));
        assertThat(run.status()).as(String.join(" ", args) + ": " + run.err()).isEqualTo(ExitCode.OK);
        return JSON.readTree(run.out());
    }

    /** A small trusted trace with the hostile names everywhere a name goes. */
    private static String trace(String runId, Map<String, String> tags) throws Exception {
        List<Map<String, Object>> records = new ArrayList<>();
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("kind", "meta");
        meta.put("schema", "candle-graph/trace/6");
        meta.put("run_id", runId);
        meta.put("correlation_id", INJECTION);
        meta.put("entrypoint", ENTRYPOINT);
        meta.put("phase", "infer");
        meta.put("timestamp", "2026-08-04T18:00:00Z'); DROP TABLE runs; --");
        meta.put("capture_step", 1);
        meta.put("warmup_steps", 0);
        meta.put("device", DEVICE);
        meta.put("timing_mode", "host");
        meta.put("tags", tags);
        records.add(meta);
        records.add(span("root'", null, ENTRYPOINT, 0, true));
        records.add(span("a'\"b", "root'", SPAN_NAME, 10, false));
        records.add(Map.of("kind", "op", "span_id", "a'\"b", "op_name", "mat'mul", "inputs", List.of("x'"),
                "output", "y\"", "shape", List.of(2), "dtype", "f32", "device", DEVICE, "duration_ns", 5,
                "timestamp_ns", 12));
        records.add(Map.of("kind", "memory", "timestamp_ns", 12, "tensor_id", "y\"", "span_id", "a'\"b",
                "device", DEVICE, "bytes", 8, "action", "alloc", "dtype", "f32"));
        records.add(Map.of("kind", "gradient", "event_id", "g'", "root", "vb'", "key", "w'; --", "state", "present"));
        records.add(Map.of("kind", "span_end", "id", "a'\"b", "duration_ns", 50));
        records.add(Map.of("kind", "span_end", "id", "root'", "duration_ns", 100));
        StringBuilder out = new StringBuilder();
        for (Map<String, Object> record : records) {
            out.append(JSON.writeValueAsString(record)).append('\n');
        }
        return out.toString();
    }

    private static Map<String, Object> span(String id, String parent, String name, long start, boolean measured) {
        Map<String, Object> span = new LinkedHashMap<>();
        span.put("kind", "span_start");
        span.put("id", id);
        if (parent != null) {
            span.put("parent_id", parent);
        }
        span.put("name", name);
        span.put("start_ns", start);
        span.put("span_kind", "function");
        span.put("measured", measured);
        return span;
    }
}
