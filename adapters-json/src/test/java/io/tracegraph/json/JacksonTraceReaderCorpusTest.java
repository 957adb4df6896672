package io.tracegraph.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.tracegraph.domain.trace.MalformedTraceException;
import io.tracegraph.domain.trace.TraceDocument;
import io.tracegraph.domain.trace.TraceProblem;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Runs the trace corpora under {@code src/test/resources}.
 *
 * <p>{@code bad-traces/NAME.*} is one malformed trace per case; {@code NAME.expected} holds the
 * expected one-line error: the exact {@code FILE:LINE: message} text, or a prefix of it ending in
 * {@code ...}; then optional lines {@code member: NAME} ({@code none} when no member is at fault),
 * {@code exception: UncheckedIOException} for read failures, and {@code max-line-bytes: N} to read
 * with that line limit.
 *
 * <p>{@code good-traces/NAME.jsonl} are valid variants (framing, member order, nulls, defaults,
 * unknown members, escapes) of {@code base.jsonl}: each must read as the same document.
 */
class JacksonTraceReaderCorpusTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("badTraces")
    @Timeout(10)
    void rejectsBadTrace(String name) throws IOException {
        Path file = corpus("bad-traces").resolve(name);
        Expectation expected = Expectation.parse(sidecar(file));
        JacksonTraceReader reader = expected.maxLineBytes > 0
                ? new JacksonTraceReader(2, expected.maxLineBytes)
                : new JacksonTraceReader();

        Throwable thrown = catchThrowable(() -> reader.read(name, new ByteArrayInputStream(Files.readAllBytes(file))));

        if (expected.exception.equals("UncheckedIOException")) {
            assertThat(thrown).isInstanceOf(UncheckedIOException.class);
            assertMessage(thrown.getMessage(), expected.message);
            return;
        }
        assertThat(thrown).isInstanceOf(MalformedTraceException.class);
        TraceProblem problem = ((MalformedTraceException) thrown).problem();
        assertThat(thrown.getMessage()).isEqualTo(problem.render()).doesNotContain("\n");
        assertThat(problem.source()).isEqualTo(name);
        assertMessage(problem.render(), expected.message);
        if (expected.member != null) {
            assertThat(problem.member()).as("member at fault")
                    .isEqualTo(expected.member.equals("none") ? null : expected.member);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("goodTraces")
    void readsValidVariantAsTheBaseDocument(String name) throws IOException {
        byte[] bytes = Files.readAllBytes(corpus("good-traces").resolve(name));
        TraceDocument base = read(new JacksonTraceReader(), "base.jsonl", bytes("good-traces", "base.jsonl"));

        assertThat(read(new JacksonTraceReader(), name, bytes)).isEqualTo(base);
        assertThat(read(new JacksonTraceReader(1, 4096), name, bytes)).isEqualTo(base);
        assertThat(read(new JacksonTraceReader(), name + ".gz", gzip(bytes))).as("gzip-compressed").isEqualTo(base);
    }

    @Test
    void everyBadTraceHasAnExpectation() throws IOException {
        List<String> names = badTraces().collect(Collectors.toList());
        assertThat(names).hasSizeGreaterThanOrEqualTo(60);
        for (String name : names) {
            assertThat(Expectation.parse(sidecar(corpus("bad-traces").resolve(name))).message).isNotBlank();
        }
        try (Stream<Path> files = Files.list(corpus("bad-traces"))) {
            assertThat(files.filter(f -> f.toString().endsWith(".expected"))).hasSameSizeAs(names);
        }
    }

    static Stream<String> badTraces() throws IOException {
        return list("bad-traces").filter(n -> !n.endsWith(".expected"));
    }

    static Stream<String> goodTraces() throws IOException {
        return list("good-traces").filter(n -> !n.equals("base.jsonl"));
    }

    private static Stream<String> list(String dir) throws IOException {
        try (Stream<Path> files = Files.list(corpus(dir))) {
            return files.map(f -> f.getFileName().toString()).sorted().collect(Collectors.toList()).stream();
        }
    }

    static Path corpus(String dir) {
        try {
            return Path.of(JacksonTraceReaderCorpusTest.class.getResource("/" + dir).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static byte[] bytes(String dir, String name) throws IOException {
        return Files.readAllBytes(corpus(dir).resolve(name));
    }

    static TraceDocument read(JacksonTraceReader reader, String source, byte[] bytes) {
        return reader.read(source, new ByteArrayInputStream(bytes));
    }

    static byte[] gzip(byte[] bytes) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(bytes);
        }
        return out.toByteArray();
    }

    private static List<String> sidecar(Path file) throws IOException {
        String name = file.getFileName().toString();
        String stem = name.endsWith(".jsonl.gz") ? name.substring(0, name.length() - ".jsonl.gz".length())
                : name.substring(0, name.lastIndexOf('.'));
        return Files.readAllLines(file.resolveSibling(stem + ".expected"), StandardCharsets.UTF_8);
    }

    private static void assertMessage(String actual, String expected) {
        if (expected.endsWith("...")) {
            assertThat(actual).startsWith(expected.substring(0, expected.length() - 3));
        } else {
            assertThat(actual).isEqualTo(expected);
        }
    }

    /** The parsed {@code NAME.expected} sidecar. */
    private static final class Expectation {
        String message;
        String member;
        String exception = "MalformedTraceException";
        int maxLineBytes;

        static Expectation parse(List<String> lines) {
            Expectation e = new Expectation();
            e.message = lines.get(0);
            for (String line : lines.subList(1, lines.size())) {
                if (line.startsWith("member: ")) {
                    e.member = line.substring("member: ".length());
                } else if (line.startsWith("exception: ")) {
                    e.exception = line.substring("exception: ".length());
                } else if (line.startsWith("max-line-bytes: ")) {
                    e.maxLineBytes = Integer.parseInt(line.substring("max-line-bytes: ".length()));
                } else if (!line.isBlank()) {
                    throw new IllegalArgumentException("unknown sidecar line: " + line);
                }
            }
            return e;
        }
    }
}
