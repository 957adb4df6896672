package io.tracegraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hostile traces given to {@code build}, {@code check}, {@code query} and {@code compare}: every
 * malformed trace of the corpus, every health error of spec section 3, a 100 MB single line (also
 * gzip-compressed), binary files. Each is refused with exactly one line on stderr and exit status
 * 1: no stack trace, no output, no hang, no out-of-memory error. ({@code HostileImportIT} sends the
 * same corpora through {@code import}.)
 */
class HostileTracesTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String META = "{\"kind\":\"meta\",\"schema\":\"candle-graph/trace/6\",\"run_id\":\"big\","
            + "\"correlation_id\":\"c\",\"entrypoint\":\"demo\",\"phase\":\"infer\",\"timestamp\":\"t\","
            + "\"capture_step\":0,\"warmup_steps\":0,\"device\":\"cpu\",\"timing_mode\":\"host\",\"tags\":{}}\n";

    @TempDir
    static Path dir;

    static Stream<HostileCorpus.Case> malformed() {
        List<HostileCorpus.Case> cases = HostileCorpus.malformed(dir.resolve("bad-traces"));
        assertThat(cases).hasSizeGreaterThanOrEqualTo(80);
        return cases.stream();
    }

    static Stream<HostileCorpus.Case> untrusted() {
        List<HostileCorpus.Case> cases = HostileCorpus.untrusted(dir.resolve("untrusted-traces"));
        assertThat(cases).hasSizeGreaterThanOrEqualTo(17);
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    @Timeout(30)
    void everyCommandRejectsAMalformedTraceInOneLine(HostileCorpus.Case bad) throws IOException {
        String file = bad.file().toString();
        for (String[] args : commands(file)) {
            CliRun run = CliRun.of(args);

            assertOneLineRejection(run, args);
            assertThat(bad.matches(run.err().substring("error: ".length()).stripTrailing()))
                    .as("%s: %s", String.join(" ", args), run.err()).isTrue();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("untrusted")
    @Timeout(30)
    void buildAndQueryRejectAnUntrustedTraceWithItsHealthErrors(HostileCorpus.Case untrusted) throws IOException {
        String file = untrusted.file().toString();
        for (String[] args : new String[][] {{"build", file}, {"query", file, "--kind", "slowest", "--format", "json"}}) {
            CliRun run = CliRun.of(args);

            assertOneLineRejection(run, args);
            assertThat(run.err()).isEqualTo("error: " + untrusted.message() + "\n");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("untrusted")
    @Timeout(30)
    void checkReportsEveryHealthErrorAndExitsWithOne(HostileCorpus.Case untrusted) throws IOException {
        CliRun run = CliRun.of("check", untrusted.file().toString());

        assertThat(run.status()).as(run.err()).isEqualTo(ExitCode.REJECTED);
        assertThat(run.err()).isEqualTo("error: " + untrusted.message() + "\n");
        JsonNode health = JSON.readTree(run.out());
        assertThat(health.get("trusted").asBoolean()).isFalse();
        List<String> codes = new ArrayList<>();
        health.get("issues").forEach(issue -> {
            if (issue.get("severity").asText().equals("error") && !codes.contains(issue.get("code").asText())) {
                codes.add(issue.get("code").asText());
            }
        });
        assertThat(codes).isEqualTo(untrusted.codes());
    }

    @Test
    @Timeout(120)
    void aHundredMegabyteLineIsRefusedAtItsLineWithoutReadingItWhole() throws IOException {
        Path plain = dir.resolve("long-line.jsonl");
        Path gzipped = dir.resolve("long-line.jsonl.gz");
        try (OutputStream a = new BufferedOutputStream(Files.newOutputStream(plain), 1 << 20);
                OutputStream b = new GZIPOutputStream(Files.newOutputStream(gzipped), 1 << 16)) {
            writeLongLineTrace(a);
            writeLongLineTrace(b);
        }
        assertThat(Files.size(plain)).isGreaterThan(100L << 20);
        assertThat(Files.size(gzipped)).isLessThan(1L << 20);

        for (Path trace : List.of(plain, gzipped)) {
            for (String command : List.of("build", "check")) {
                CliRun run = CliRun.of(command, trace.toString());

                assertOneLineRejection(run, command, trace.toString());
                assertThat(run.err()).isEqualTo("error: " + trace + ":2: line is longer than 67108864 bytes\n");
            }
        }
    }

    @Test
    @Timeout(60)
    void binaryFilesAreRejectedInOneLine() throws IOException {
        SplittableRandom random = new SplittableRandom(42);
        byte[] noise = new byte[4 << 20];
        random.nextBytes(noise);
        byte[] fakeGzip = noise.clone();
        fakeGzip[0] = 0x1f;
        fakeGzip[1] = (byte) 0x8b;
        byte[] zeros = new byte[1 << 20];
        Path elf = dir.resolve("java-binary.jsonl");
        try (InputStream in = Files.newInputStream(Path.of(System.getProperty("java.home"), "bin", "java"))) {
            Files.copy(in, elf, StandardCopyOption.REPLACE_EXISTING);
        }
        List<Path> files = new ArrayList<>(List.of(elf));
        for (Object[] binary : new Object[][] {{"noise.jsonl", noise}, {"noise.jsonl.gz", noise},
            {"fake-gzip.jsonl", fakeGzip}, {"zeros.jsonl", zeros}, {"noise.json", noise}}) {
            Path file = dir.resolve((String) binary[0]);
            Files.write(file, (byte[]) binary[1]);
            files.add(file);
        }

        for (Path file : files) {
            for (String[] args : commands(file.toString())) {
                CliRun run = CliRun.of(args);

                assertOneLineRejection(run, args);
                assertThat(run.err()).startsWith("error: " + file + ":");
            }
        }
    }

    @Test
    void lineBreaksAndEscapeSequencesInIdsAndFileNamesAreShownNotObeyed() throws IOException {
        String root = "{\"kind\":\"span_start\",\"id\":\"root\",\"name\":\"n\",\"start_ns\":0,"
                + "\"span_kind\":\"function\",\"measured\":true}\n";
        String rootEnd = "{\"kind\":\"span_end\",\"id\":\"root\",\"duration_ns\":9}\n";
        Map<String, String> traces = new LinkedHashMap<>();
        traces.put("forged-line.jsonl", META + root + "{\"kind\":\"span_start\",\"id\":\"a\\nerror: forged\","
                + "\"parent_id\":\"root\",\"name\":\"n\",\"start_ns\":0,\"span_kind\":\"function\"}\n" + rootEnd);
        traces.put("terminal-escape.jsonl", META + "{\"kind\":\"span_end\",\"id\":\"x\\u001b[2J\\u202eevil\"}\n");
        traces.put("kind-with-newline.jsonl", META + "{\"kind\":\"span\\nstart\",\"id\":\"r\"}\n");
        traces.put("file\nname\u001b[31m.jsonl", "{}\n");
        for (Map.Entry<String, String> trace : traces.entrySet()) {
            Path file = Files.writeString(dir.resolve(trace.getKey()), trace.getValue());
            for (String command : List.of("build", "check")) {
                CliRun run = CliRun.of(command, file.toString());

                assertThat(run.status()).as(run.err()).isEqualTo(ExitCode.REJECTED);
                assertThat(run.err().lines()).as(trace.getKey()).hasSize(1);
                assertThat(run.err()).as(trace.getKey()).startsWith("error: ").doesNotContain("\u001b", "\u202e")
                        .containsAnyOf("\\n", "\\u001b");
            }
        }
    }

    /** The commands that read a trace file, each given {@code file}. */
    private static String[][] commands(String file) throws IOException {
        return new String[][] {
            {"build", file},
            {"check", file},
            {"query", file, "--kind", "memory", "--format", "json"},
            {"compare", file, goodTrace().toString(), "--format", "json"},
        };
    }

    private static synchronized Path goodTrace() throws IOException {
        Path good = dir.resolve("good.jsonl");
        if (!Files.exists(good)) {
            try (InputStream in = HostileTracesTest.class.getResourceAsStream("/conformance/synthetic.jsonl")) {
                Files.copy(in, good);
            }
        }
        return good;
    }

    /** Exit 1, nothing on stdout (check may print a report only for untrusted traces), one line on stderr. */
    private static void assertOneLineRejection(CliRun run, String... args) {
        String command = String.join(" ", args);
        assertThat(run.status()).as("%s: %s", command, run.err()).isEqualTo(ExitCode.REJECTED);
        assertThat(run.err()).as(command).startsWith("error: ").endsWith("\n").doesNotContain("Exception", "\tat ");
        assertThat(run.err().lines()).as(command).hasSize(1);
        assertThat(run.out()).as(command).isEmpty();
    }

    /** A meta line, then one record padded to 100 MiB on line 2, then a line that is never reached. */
    static void writeLongLineTrace(OutputStream out) throws IOException {
        out.write(META.getBytes(StandardCharsets.UTF_8));
        out.write("{\"kind\":\"op\",\"pad\":\"".getBytes(StandardCharsets.UTF_8));
        byte[] pad = new byte[1 << 20];
        java.util.Arrays.fill(pad, (byte) 'x');
        for (int i = 0; i < 100; i++) {
            out.write(pad);
        }
        out.write("\"}\n{\"kind\":\"span_end\",\"id\":\"never\"}\n".getBytes(StandardCharsets.UTF_8));
    }
}
