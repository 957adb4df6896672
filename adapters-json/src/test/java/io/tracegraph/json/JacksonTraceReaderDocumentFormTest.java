package io.tracegraph.json;

import static io.tracegraph.json.JacksonTraceReaderCorpusTest.bytes;
import static io.tracegraph.json.JacksonTraceReaderCorpusTest.gzip;
import static io.tracegraph.json.JacksonTraceReaderCorpusTest.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.tracegraph.domain.trace.MalformedTraceException;
import io.tracegraph.domain.trace.SpanRecord;
import io.tracegraph.domain.trace.TraceDocument;
import io.tracegraph.domain.trace.TraceProblem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The whole-document JSON form of spec 2.2, read for sources named {@code *.json} or {@code *.json.gz}. */
class JacksonTraceReaderDocumentFormTest {
    private static final String RUN = "\"run\":{\"run_id\":\"r\",\"correlation_id\":\"c\",\"entrypoint\":\"e\","
            + "\"phase\":\"train\",\"timestamp\":\"t\",\"capture_step\":1,\"warmup_steps\":0,\"device\":\"cpu\","
            + "\"timing_mode\":\"host\",\"tags\":{}}";

    private final JacksonTraceReader reader = new JacksonTraceReader();

    @Test
    void roundTripsADocumentReadFromJsonl() throws IOException {
        TraceDocument doc = read(reader, "base.jsonl", bytes("good-traces", "base.jsonl"));
        byte[] json = TraceDocumentJson.write(doc);

        assertThat(read(reader, "base.json", json)).isEqualTo(doc);
        assertThat(read(reader, "base.json.gz", gzip(json))).isEqualTo(doc);
        assertThat(read(reader, "BASE.JSON", json)).isEqualTo(doc);
    }

    @Test
    void roundTripsCandleVersionAndLeavesSpansInTheirGivenOrder() throws IOException {
        TraceDocument doc = read(reader, "base.jsonl", bytes("good-traces", "base.jsonl"));
        List<SpanRecord> reversed = new ArrayList<>(doc.spans());
        Collections.reverse(reversed);
        var run = doc.run();
        TraceDocument changed = new TraceDocument(doc.schema(), new io.tracegraph.domain.trace.RunMeta(run.runId(),
                run.correlationId(), run.entrypoint(), run.phase(), run.timestamp(), run.captureStep(), run.warmupSteps(),
                run.device(), run.timingMode(), run.tags(), "0.9.1"), reversed, doc.ops(), doc.tensors(), doc.memory(),
                doc.deviceMemory(), doc.gradients(), doc.edges());

        assertThat(read(reader, "changed.json", TraceDocumentJson.write(changed))).isEqualTo(changed);
    }

    @Test
    void defaultsEveryRecordListToEmpty() {
        String json = "{\"schema\":\"candle-graph/trace/6\"," + RUN + ",\"unknown\":[1,2,{\"x\":null}]}";

        TraceDocument doc = read(reader, "min.json", json.getBytes(StandardCharsets.UTF_8));

        assertThat(doc.spans()).isEmpty();
        assertThat(doc.ops()).isEmpty();
        assertThat(doc.edges()).isEmpty();
        assertThat(doc.run().runId()).isEqualTo("r");
    }

    @Test
    void resolvesStorageBytesOfRecordsWithout() {
        String json = "{\"schema\":\"candle-graph/trace/6\"," + RUN + ",\"ops\":[{\"span_id\":\"s\",\"op_name\":\"o\","
                + "\"shape\":[2,3],\"dtype\":\"F64 \",\"device\":\"cpu\",\"duration_ns\":1}]}";

        TraceDocument doc = read(reader, "ops.json", json.getBytes(StandardCharsets.UTF_8));

        assertThat(doc.ops().get(0).storageBytes()).isEqualTo(48L);
    }

    @Test
    void rejectsAWrongSchemaAtItsLine() {
        String json = "{\n  \"schema\": \"candle-graph/trace/5\",\n  " + RUN + "\n}\n";

        MalformedTraceException e = catchThrowableOfType(MalformedTraceException.class,
                () -> read(reader, "old.json", json.getBytes(StandardCharsets.UTF_8)));

        assertThat(e.problem()).isEqualTo(new TraceProblem("old.json", 2, "schema",
                "unsupported trace schema \"candle-graph/trace/5\"; expected \"candle-graph/trace/6\""));
    }

    @Test
    void rejectsARecordWithABadMemberNamingItsLine() {
        String json = "{\"schema\":\"candle-graph/trace/6\",\n" + RUN + ",\n\"edges\":[\n{\"from_span\":\"a\",\"to_span\":\"b\","
                + "\"duration_ns\":-1}]}";

        MalformedTraceException e = catchThrowableOfType(MalformedTraceException.class,
                () -> read(reader, "bad.json", json.getBytes(StandardCharsets.UTF_8)));

        assertThat(e).hasMessage("bad.json:4: member `duration_ns`: integer -1 is out of range (0..9223372036854775807)");
        assertThat(e.problem().member()).isEqualTo("duration_ns");
    }

    @Test
    void rejectsADocumentWithoutRun() {
        MalformedTraceException e = catchThrowableOfType(MalformedTraceException.class,
                () -> read(reader, "norun.json", "{\"schema\":\"candle-graph/trace/6\"}".getBytes(StandardCharsets.UTF_8)));

        assertThat(e).hasMessage("norun.json:1: document is missing required member `run`");
    }

    @Test
    void rejectsJsonlGivenAsADocument() throws IOException {
        MalformedTraceException e = catchThrowableOfType(MalformedTraceException.class,
                () -> read(reader, "trace.json", bytes("good-traces", "base.jsonl")));

        assertThat(e.problem().source()).isEqualTo("trace.json");
        assertThat(e.problem().line()).isPositive();
    }
}
