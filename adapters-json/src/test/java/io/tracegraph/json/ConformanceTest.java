package io.tracegraph.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tracegraph.domain.graph.GraphBuilder;
import io.tracegraph.domain.graph.GraphOutcome;
import io.tracegraph.domain.health.HealthAnalyzer;
import io.tracegraph.domain.trace.MalformedTraceException;
import io.tracegraph.domain.trace.TraceDocument;
import io.tracegraph.domain.trace.TraceProblem;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The shared conformance samples (a copy of {@code shared/samples} under test resources): trusted
 * traces build to exactly the expected graph and health (floats compared numerically, everything
 * else exactly, orders included), untrusted ones are refused with the expected message, malformed
 * ones are rejected naming the file, the physical line and the member.
 */
class ConformanceTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path SAMPLES = samplesDir();

    private static Path samplesDir() {
        try {
            return Paths.get(ConformanceTest.class.getResource("/conformance/manifest.json").toURI()).getParent();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static Stream<JsonNode> samples() throws IOException {
        List<JsonNode> entries = new ArrayList<>();
        JSON.readTree(SAMPLES.resolve("manifest.json").toFile()).forEach(entries::add);
        assertThat(entries).hasSizeGreaterThanOrEqualTo(13);
        return entries.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void sampleGivesTheExpectedOutcome(JsonNode sample) throws IOException {
        String file = sample.get("file").asText();
        String name = file.substring(0, file.length() - ".jsonl".length());
        switch (sample.get("expect").asText()) {
            case "graph":
                expectGraph(file, name, sample);
                break;
            case "untrusted":
                expectUntrusted(file, name, sample);
                break;
            case "error":
                expectError(file, sample);
                break;
            default:
                fail("unknown expectation in manifest: " + sample);
        }
    }

    private void expectGraph(String file, String name, JsonNode sample) throws IOException {
        TraceDocument doc = read(file);
        GraphOutcome outcome = GraphBuilder.build(doc);
        assertThat(outcome).isInstanceOf(GraphOutcome.Built.class);
        GraphOutcome.Built built = (GraphOutcome.Built) outcome;
        JsonNode actual = render(out -> GraphJsonWriter.writeGraph(built.graph(), out));
        assertSameJson(actual, JSON.readTree(SAMPLES.resolve(name + ".graph.json").toFile()), "$");
        assertThat(built.graph().spans()).hasSize(sample.get("nodes").asInt());
        assertThat(built.graph().edges()).hasSize(sample.get("edges").asInt());
        assertThat(built.graph().summary().totalMs()).isEqualTo(sample.get("total_ms").asDouble());
        assertThat(built.graph().summary().memory().peakBytes()).isEqualTo(sample.get("peak_bytes").asLong());
        JsonNode health = render(out -> GraphJsonWriter.writeHealth(built.health(), out));
        assertSameJson(health, JSON.readTree(SAMPLES.resolve(name + ".health.json").toFile()), "$");
    }

    private void expectUntrusted(String file, String name, JsonNode sample) throws IOException {
        TraceDocument doc = read(file);
        GraphOutcome outcome = GraphBuilder.build(doc);
        assertThat(outcome).isInstanceOf(GraphOutcome.Untrusted.class);
        List<String> lines = Files.readAllLines(SAMPLES.resolve(name + ".error.txt"));
        assertThat(lines.get(0)).isEqualTo("exit: 3");
        assertThat("error: " + ((GraphOutcome.Untrusted) outcome).message()).isEqualTo(lines.get(1));
        JsonNode health = render(out -> GraphJsonWriter.writeHealth(HealthAnalyzer.analyze(doc), out));
        assertSameJson(health, JSON.readTree(SAMPLES.resolve(name + ".health.json").toFile()), "$");
        List<String> codes = new ArrayList<>();
        outcome.health().errors().forEach(issue -> codes.add(issue.code()));
        List<String> expected = new ArrayList<>();
        sample.get("health_codes").forEach(code -> expected.add(code.asText()));
        assertThat(codes).isEqualTo(expected);
    }

    private void expectError(String file, JsonNode sample) {
        assertThatThrownBy(() -> read(file))
                .isInstanceOfSatisfying(MalformedTraceException.class, e -> {
                    TraceProblem problem = e.problem();
                    assertThat(problem.source()).isEqualTo(file);
                    assertThat(problem.line()).isEqualTo(sample.get("line").asLong());
                    assertThat(problem.render()).startsWith(file + ":" + sample.get("line").asLong() + ": ");
                    JsonNode member = sample.get("member");
                    if (member != null && !member.isNull()) {
                        assertThat(problem.member()).isEqualTo(member.asText());
                        assertThat(problem.message()).contains("`" + member.asText() + "`");
                    }
                });
    }

    private static TraceDocument read(String file) throws IOException {
        try (InputStream in = Files.newInputStream(SAMPLES.resolve(file))) {
            return new JacksonTraceReader().read(file, in);
        }
    }

    private interface Writing {
        void to(ByteArrayOutputStream out);
    }

    private static JsonNode render(Writing writing) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        writing.to(out);
        try {
            return JSON.readTree(out.toString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Objects: same members in the same order; arrays: same length and order; floats numerically. */
    static void assertSameJson(JsonNode actual, JsonNode expected, String path) {
        if (expected.isObject()) {
            assertThat(actual.isObject()).as(path + " is an object").isTrue();
            List<String> actualNames = new ArrayList<>();
            actual.fieldNames().forEachRemaining(actualNames::add);
            List<String> expectedNames = new ArrayList<>();
            expected.fieldNames().forEachRemaining(expectedNames::add);
            assertThat(actualNames).as(path + " members").isEqualTo(expectedNames);
            Iterator<Map.Entry<String, JsonNode>> fields = expected.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                assertSameJson(actual.get(field.getKey()), field.getValue(), path + "." + field.getKey());
            }
        } else if (expected.isArray()) {
            assertThat(actual.isArray()).as(path + " is an array").isTrue();
            assertThat(actual.size()).as(path + " length").isEqualTo(expected.size());
            for (int i = 0; i < expected.size(); i++) {
                assertSameJson(actual.get(i), expected.get(i), path + "[" + i + "]");
            }
        } else if (expected.isNumber() && (expected.isFloatingPointNumber() || actual.isFloatingPointNumber())) {
            assertThat(actual.isNumber()).as(path + " is a number").isTrue();
            assertThat(actual.doubleValue()).as(path).isEqualTo(expected.doubleValue());
        } else if (expected.isNumber()) {
            assertThat(actual.isIntegralNumber()).as(path + " is an integer").isTrue();
            assertThat(actual.bigIntegerValue()).as(path).isEqualTo(expected.bigIntegerValue());
        } else {
            assertThat(actual).as(path).isEqualTo(expected);
        }
    }
}
