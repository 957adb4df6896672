package io.tracegraph.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tracegraph.json.ChromeTraceEvents;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --time host|device} on trace files (no database): compare (runs and sets), query --kind
 * slowest, report (run and --compare) and export; usage errors before any database starts, a run
 * without device time rejected in one line, host output as without the option; on device time the
 * slowest lists leave out what has no device self time.
 */
class DeviceTimeCommandsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    static String h100;
    static String mi300;
    static String candle;
    static String hostOnly;
    static String h100Again;
    static String mi300Again;
    static String hostOnlyAgain;

    private static String copy(String resource) throws IOException {
        Path target = dir.resolve(resource.substring(resource.lastIndexOf('/') + 1));
        try (InputStream in = DeviceTimeCommandsTest.class.getResourceAsStream(resource)) {
            assertThat(in).as(resource).isNotNull();
            Files.copy(in, target);
        }
        return target.toString();
    }

    @BeforeAll
    static void traces() throws IOException {
        h100 = copy("/pytorch/tracelens-h100-bert-small.json.gz");
        mi300 = copy("/pytorch/tracelens-mi300-bert-small.json.gz");
        candle = copy("/candle/trace10_train.jsonl");
        hostOnly = copy("/conformance/synthetic.jsonl");
        h100Again = again(h100);
        mi300Again = again(mi300);
        hostOnlyAgain = again(hostOnly);
    }

    /** A second file of the same trace, so that a set can hold two runs. */
    private static String again(String file) throws IOException {
        Path copy = dir.resolve("again-" + Path.of(file).getFileName());
        Files.copy(Path.of(file), copy);
        return copy.toString();    }

    @Test
    void anUnknownTimeIsAUsageErrorBeforeAnyDatabaseStarts() {
        // CliRun's home does not exist: a command that reached the store would fail with status 3.
        for (List<String> args : List.of(List.of("compare", "latest", "latest~1"),
                List.of("compare", "--baseline", "latest~3..latest~2", "--candidate", "latest~1..latest"),
                List.of("history", "a/b"), List.of("query", "latest", "--kind", "slowest"),
                List.of("report", "latest", "-o", dir.resolve("x.html").toString()),
                List.of("report", "--compare", "latest~1", "latest", "-o", dir.resolve("x.html").toString()),
                List.of("export", "latest"))) {
            String[] line = java.util.stream.Stream.concat(args.stream(), java.util.stream.Stream.of("--time", "gpu"))
                    .toArray(String[]::new);
            CliRun run = CliRun.of(line);
            assertThat(run.status()).as(String.join(" ", args)).isEqualTo(ExitCode.USAGE);
            assertThat(run.err()).as(String.join(" ", args))
                    .startsWith("error: Invalid value for option '--time': unknown time 'gpu' (expected host or device)");
            assertThat(run.out()).isEmpty();
        }
        CliRun memory = CliRun.of("query", h100, "--kind", "memory", "--time", "device");
        assertThat(memory.status()).isEqualTo(ExitCode.USAGE);
        assertThat(memory.err()).startsWith("error: --time device answers --kind slowest only");
    }

    @Test
    void aRunWithoutDeviceTimeIsRejectedInOneLineNamingIt() {
        String expected = "error: `" + hostOnly + "` has no device time: no device intervals or kernels are recorded "
                + "for it (ask with --time host)\n";
        for (String[] args : List.of(new String[] {"compare", hostOnly, h100, "--time", "device"},
                new String[] {"compare", "--baseline", hostOnly + "," + hostOnlyAgain, "--candidate",
                    h100 + "," + h100Again,
                    "--time", "device"},
                new String[] {"query", hostOnly, "--kind", "slowest", "--time", "device"},
                new String[] {"report", hostOnly, "--time", "device", "-o", dir.resolve("no.html").toString()},
                new String[] {"export", hostOnly, "--time", "device"})) {
            CliRun run = CliRun.of(args);
            assertThat(run.status()).as(String.join(" ", args)).isEqualTo(ExitCode.REJECTED);
            assertThat(run.err()).as(String.join(" ", args)).startsWith("error: `" + hostOnly + "` has no device time");
            assertThat(run.err().lines().count()).isEqualTo(1);
            assertThat(run.out()).isEmpty();
        }
        assertThat(CliRun.of("compare", hostOnly, h100, "--time", "device").err()).isEqualTo(expected);
        assertThat(Files.exists(dir.resolve("no.html"))).isFalse();
    }

    @Test
    void hostTimeIsTheOutputWithoutTheOption() {
        for (String format : List.of("json", "csv", "markdown")) {
            CliRun plain = CliRun.of("compare", h100, mi300, "--format", format);
            CliRun host = CliRun.of("compare", h100, mi300, "--format", format, "--time", "host");
            assertThat(host.status()).isEqualTo(ExitCode.OK);
            assertThat(host.out()).isEqualTo(plain.out());
            assertThat(plain.out()).doesNotContain("device");
        }
        assertThat(CliRun.onTerminal("compare", h100, mi300, "--time", "host").out())
                .isEqualTo(CliRun.onTerminal("compare", h100, mi300).out());
        assertThat(CliRun.of("query", candle, "--kind", "slowest", "--time", "host", "--format", "json").out())
                .isEqualTo(CliRun.of("query", candle, "--kind", "slowest", "--format", "json").out());
        assertThat(CliRun.of("export", candle, "--time", "host").out()).isEqualTo(CliRun.of("export", candle).out());
    }

    @Test
    void compareOnDeviceTimeRanksThePathsByTheChangeOfTheirDeviceTimeInEveryFormat() throws IOException {
        CliRun json = CliRun.of("compare", h100, mi300, "--time", "device", "--format", "json", "--limit", "5");
        assertThat(json.status()).as(json.err()).isEqualTo(ExitCode.OK);
        JsonNode c = JSON.readTree(json.out());
        assertThat(c.get("time").asText()).isEqualTo("device");
        assertThat(c.get("paths")).hasSize(5);
        assertThat(c.get("paths").get(0).get("path").asText()).endsWith("/aten::_flash_attention_forward");
        long previous = Long.MAX_VALUE;
        for (JsonNode p : c.get("paths")) {
            assertThat(Math.abs(p.get("self_delta_ns").asLong())).isLessThanOrEqualTo(previous);
            previous = Math.abs(p.get("self_delta_ns").asLong());
        }
        CliRun host = CliRun.of("compare", h100, mi300, "--format", "json");
        assertThat(c.get("total_ms_base").asDouble())
                .isLessThan(JSON.readTree(host.out()).get("total_ms_base").asDouble());

        String csv = CliRun.of("compare", h100, mi300, "--time", "device", "--format", "csv").out();
        assertThat(csv).contains("aten::_flash_attention_forward");
        String markdown = CliRun.of("compare", h100, mi300, "--time", "device", "--format", "markdown").out();
        assertThat(markdown).contains(": device time ").contains("Time: device: the kernels");
        CliRun table = CliRun.onTerminal(Map.of("COLUMNS", "160"), dir, "compare", h100, mi300, "--time", "device");
        assertThat(table.status()).as(table.err()).isEqualTo(ExitCode.OK);
        assertThat(table.out()).contains("Time").contains("Device time").doesNotContain("Total time");
    }

    @Test
    void setsOfTracesCompareOnDeviceTime() throws IOException {
        CliRun run = CliRun.of("compare", "--baseline", h100 + "," + h100Again, "--candidate", mi300 + "," + mi300Again,
                "--time", "device", "--format", "json");
        assertThat(run.status()).as(run.err()).isEqualTo(ExitCode.OK);
        JsonNode c = JSON.readTree(run.out());
        assertThat(c.get("time").asText()).isEqualTo("device");
        CliRun text = CliRun.onTerminal(Map.of("COLUMNS", "160"), dir, "compare", "--baseline", h100 + "," + h100Again,
                "--candidate", mi300 + "," + mi300Again, "--time", "device");
        assertThat(text.out()).contains("device time").contains("2 runs, device time");
    }

    @Test
    void querySlowestOnDeviceTimeOfACandleTraceWithDeviceIntervals() throws IOException {
        CliRun run = CliRun.of("query", candle, "--kind", "slowest", "--time", "device", "--format", "json");
        assertThat(run.status()).as(run.err()).isEqualTo(ExitCode.OK);
        JsonNode q = JSON.readTree(run.out());
        assertThat(q.get("time").asText()).isEqualTo("device");
        assertThat(q.get("total_ms").asDouble()).isEqualTo(3.2);
        assertThat(q.get("slowest_spans").get(0).get("name").asText()).isEqualTo("Encoder::forward");
        assertThat(q.get("devices").get(0).get("device").asText()).isEqualTo("cuda:0");
        assertThat(q.get("devices").get(0).get("device_time_ns").asLong()).isEqualTo(3_200_000);
    }

    @Test
    void slowestListsOnDeviceTimeLeaveOutWhatHasNoDeviceSelfTime() throws IOException {
        // The candle trace's `loss` span has no device interval of its own: not slow on the device.
        JsonNode q = JSON.readTree(CliRun.of("query", candle, "--kind", "slowest", "--time", "device", "--format",
                "json").out());
        assertThat(q.get("slowest_spans")).extracting(s -> s.get("name").asText())
                .containsExactly("Encoder::forward", "Head::forward");
        JsonNode host = JSON.readTree(CliRun.of("query", candle, "--kind", "slowest", "--format", "json").out());
        assertThat(host.get("slowest_spans")).extracting(s -> s.get("name").asText()).contains("loss");
        // The PyTorch trace's device time is all in ops: no span is listed, every op listed has some.
        JsonNode torch = JSON.readTree(CliRun.of("query", h100, "--kind", "slowest", "--time", "device", "--format",
                "json").out());
        assertThat(torch.get("slowest_spans")).isEmpty();
        assertThat(torch.get("slowest_ops")).hasSize(50)
                .allSatisfy(o -> assertThat(o.get("self_time_ns").asLong()).isPositive());
        assertThat(CliRun.of("query", candle, "--kind", "slowest", "--time", "device", "--format", "table").out())
                .contains("slowest_spans (2)");
        // The report's tables likewise.
        Path page = dir.resolve("device-slowest.html");
        assertThat(CliRun.of("report", candle, "--time", "device", "-o", page.toString()).status())
                .isEqualTo(ExitCode.OK);
        String html = Files.readString(page);
        String spans = html.substring(html.indexOf("\"slowest-spans\""), html.indexOf("\"slowest-ops\""));
        assertThat(spans).contains("Encoder::forward").doesNotContain("[\"loss\",");
    }

    @Test
    void reportsAndTheExportOnDeviceTime() throws IOException {
        Path page = dir.resolve("device.html");
        CliRun run = CliRun.of("report", h100, "--time", "device", "-o", page.toString());
        assertThat(run.status()).as(run.err()).isEqualTo(ExitCode.OK);
        assertThat(Files.readString(page)).contains("\"time\":\"device\"");
        Path compared = dir.resolve("compared.html");
        CliRun compare = CliRun.of("report", "--compare", h100, mi300, "--time", "device", "-o", compared.toString());
        assertThat(compare.status()).as(compare.err()).isEqualTo(ExitCode.OK);
        assertThat(Files.readString(compared)).contains("\"time\":\"device\"");
        // On host time, the comparison of two runs with device time draws the device-time section too.
        Path host = dir.resolve("host.html");
        assertThat(CliRun.of("report", "--compare", h100, mi300, "-o", host.toString()).status()).isEqualTo(ExitCode.OK);
        assertThat(Files.readString(host)).contains("\"device_bars\"");

        CliRun export = CliRun.of("export", h100, "--time", "device");
        assertThat(export.status()).as(export.err()).isEqualTo(ExitCode.OK);
        ChromeTraceEvents events = ChromeTraceEvents.parse(export.out().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        events.assertWellFormed();
        assertThat(events.threadNames().values()).contains("spans", "device cuda:0");
    }
}
