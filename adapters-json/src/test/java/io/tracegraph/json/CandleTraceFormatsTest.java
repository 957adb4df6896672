package io.tracegraph.json;

import static io.tracegraph.json.JacksonTraceReaderCorpusTest.bytes;
import static io.tracegraph.json.JacksonTraceReaderCorpusTest.corpus;
import static io.tracegraph.json.JacksonTraceReaderCorpusTest.read;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.tracegraph.domain.port.TraceFormat;
import io.tracegraph.domain.trace.TraceDocument;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** candle-graph's JSONL and whole-document forms, told apart by their first bytes. */
class CandleTraceFormatsTest {
    private static final TraceFormat JSONL = CandleTraceFormats.jsonl();
    private static final TraceFormat DOCUMENT = CandleTraceFormats.document();
    private static final String RUN = "\"run\":{\"run_id\":\"r\",\"correlation_id\":\"c\",\"entrypoint\":\"e\","
            + "\"phase\":\"train\",\"timestamp\":\"t\",\"capture_step\":1,\"warmup_steps\":0,\"device\":\"cpu\","
            + "\"timing_mode\":\"host\",\"tags\":{}}";

    @Test
    void recognisesEveryGoodAndConformanceTraceAsJsonl() throws IOException {
        List<Path> traces = Stream.concat(jsonl("good-traces"), jsonl("conformance")).toList();
        assertThat(traces).hasSizeGreaterThan(15);
        for (Path trace : traces) {
            byte[] head = head(Files.readAllBytes(trace));

            assertThat(JSONL.recognises(head)).as(trace.toString()).isTrue();
            assertThat(DOCUMENT.recognises(head)).as(trace.toString()).isFalse();
        }
    }

    @Test
    void recognisesJsonlFromAHeadCutAnywhere() throws IOException {
        byte[] trace = bytes("good-traces", "base.jsonl");
        int firstLine = new String(trace, UTF_8).indexOf('\n');

        assertThat(JSONL.recognises(Arrays.copyOf(trace, firstLine - 3))).isTrue();
        assertThat(JSONL.recognises(Arrays.copyOf(trace, 5))).isFalse();
    }

    @Test
    void recognisesTheDocumentFormByItsRunOrItsRecordLists() throws IOException {
        byte[] written = TraceDocumentJson.write(read(new JacksonTraceReader(), "base.jsonl",
                bytes("good-traces", "base.jsonl")));
        String spansFirst = "{\"spans\":[" + "{\"id\":\"s\",\"name\":\"n\"},".repeat(10_000);

        for (String document : List.of(new String(written, UTF_8),
                "{\"schema\":\"candle-graph/trace/6\"," + RUN + "}",
                "\ufeff\n  {\n  \"schema\" : \"candle-graph/trace/6\",\n  " + RUN + "\n}\n",
                spansFirst)) {
            byte[] head = head(document.getBytes(UTF_8));

            assertThat(DOCUMENT.recognises(head)).as(document).isTrue();
            assertThat(JSONL.recognises(head)).as(document).isFalse();
        }
    }

    @Test
    void recognisesNeitherWhereTheContentCannotTell() {
        for (String content : List.of("", "   ", "\u0000\u0001binary", "[{\"kind\":\"meta\"}]", "{}", "42",
                "{\"schema\":\"candle-graph/trace/6\"}", "{\"kind\":7}", "{\"run\":\"not an object\"}", "{\"kind\"",
                "not json")) {
            byte[] head = content.getBytes(UTF_8);

            assertThat(JSONL.recognises(head)).as(content).isFalse();
            assertThat(DOCUMENT.recognises(head)).as(content).isFalse();
        }
    }

    @Test
    void claimsNamesAsTheReaderAlwaysChoseByThem() {
        for (String name : List.of("x.json", "x.json.gz", "X.JSON", "dir.jsonl/x.JSON.GZ")) {
            assertThat(DOCUMENT.claimsName(name)).as(name).isTrue();
            assertThat(JSONL.claimsName(name)).as(name).isFalse();
        }
        for (String name : List.of("x.jsonl", "x.jsonl.gz", "x", "x.txt", "x.json.bak")) {
            assertThat(JSONL.claimsName(name)).as(name).isTrue();
            assertThat(DOCUMENT.claimsName(name)).as(name).isFalse();
        }
    }

    @Test
    void readsEachFormWhateverTheName() throws IOException {
        byte[] jsonl = bytes("good-traces", "base.jsonl");
        TraceDocument expected = read(new JacksonTraceReader(), "base.jsonl", jsonl);
        byte[] document = TraceDocumentJson.write(expected);

        assertThat(JSONL.reader().read("base.json", new ByteArrayInputStream(jsonl))).isEqualTo(expected);
        assertThat(DOCUMENT.reader().read("base.jsonl", new ByteArrayInputStream(document))).isEqualTo(expected);
        assertThat(CandleTraceFormats.all()).extracting(TraceFormat::name)
                .containsExactly("candle-graph JSONL", "candle-graph JSON document");
    }

    private static Stream<Path> jsonl(String dir) {
        try (Stream<Path> files = Files.list(corpus(dir))) {
            return files.filter(p -> p.getFileName().toString().endsWith(".jsonl")).sorted().toList().stream();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static byte[] head(byte[] bytes) {
        return bytes.length <= TraceFormat.HEAD_BYTES ? bytes : Arrays.copyOf(bytes, TraceFormat.HEAD_BYTES);
    }
}
