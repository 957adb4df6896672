package io.tracegraph.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SyntheticTraceTest {

    private static String text(SyntheticTrace trace) {
        StringWriter out = new StringWriter();
        try {
            trace.writeTo(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    private static Summary check(String text) {
        try {
            return TraceCheck.check(new StringReader(text));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One 20,000-op training trace shared by the tests that only read it. */
    private static String bigTrain;
    private static Summary bigSummary;

    @BeforeAll
    static void generateSharedTrace() {
        bigTrain = text(SyntheticTrace.training().ops(20_000).seed(3));
        bigSummary = check(bigTrain);
    }

    private static long opLines(String text) {
        return text.lines().filter(l -> l.startsWith("{\"kind\":\"op\",")).count();
    }

    @Test
    void sameSeedWritesIdenticalBytes() {
        assertThat(text(SyntheticTrace.training().ops(5_000).seed(42)))
                .isEqualTo(text(SyntheticTrace.training().ops(5_000).seed(42)));
        assertThat(text(SyntheticTrace.inference().ops(3_000).seed(42).device("cpu")))
                .isEqualTo(text(SyntheticTrace.inference().ops(3_000).seed(42).device("cpu")));
        assertThat(text(SyntheticTrace.deepChain(500).seed(3))).isEqualTo(text(SyntheticTrace.deepChain(500).seed(3)));
    }

    @Test
    void sameBuilderWritesIdenticalBytesTwice() {
        SyntheticTrace trace = SyntheticTrace.training().ops(2_000).seed(9);
        assertThat(text(trace)).isEqualTo(text(trace));
    }

    @Test
    void differentSeedsWriteDifferentTraces() {
        assertThat(text(SyntheticTrace.training().ops(2_000).seed(1)))
                .isNotEqualTo(text(SyntheticTrace.training().ops(2_000).seed(2)));
        assertThat(text(SyntheticTrace.inference().ops(2_000).seed(1)))
                .isNotEqualTo(text(SyntheticTrace.inference().ops(2_000).seed(2)));
    }

    /** Runs of one model: the same records but for their times, so the same paths and gradients. */
    @Test
    void timingSeedsVaryOnlyTheTimesOfOneModel() {
        String first = text(SyntheticTrace.training().ops(2_000).seed(9).timingSeed(1));
        String second = text(SyntheticTrace.training().ops(2_000).seed(9).timingSeed(2));

        assertThat(first).isNotEqualTo(second);
        assertThat(withoutTimes(first)).isEqualTo(withoutTimes(second));
    }

    @Test
    void slowingAndGrowingASpanKeepTheTraceTrusted() {
        SyntheticTrace base = SyntheticTrace.training().ops(2_000).seed(9).timingSeed(1);
        String plain = text(base);
        String changed = text(base.slowSpan("cross_entropy", 3).growMemory("cross_entropy", 2));

        Summary summary = check(changed);
        assertThat(summary.ops).isEqualTo(2_000);
        assertThat(summary.allocs).isEqualTo(check(plain).allocs + 2);
        assertThat(summary.frees).isEqualTo(check(plain).frees + 2);
        assertThat(spanDuration(changed, "cross_entropy")).isGreaterThanOrEqualTo(3 * spanDuration(plain,
                "cross_entropy") - 1);
    }

    private static String withoutTimes(String text) {
        return text.replaceAll("\"(start_ns|duration_ns|timestamp_ns)\":\\d+", "\"$1\":0");
    }

    /** The duration of the first span named {@code name}. */
    private static long spanDuration(String text, String name) {
        String id = text.lines().filter(l -> l.startsWith("{\"kind\":\"span_start\"") && l.contains(
                "\"name\":\"" + name + "\"")).findFirst().orElseThrow().replaceAll(".*\"id\":\"([^\"]+)\".*", "$1");
        String end = text.lines().filter(l -> l.startsWith("{\"kind\":\"span_end\",\"id\":\"" + id + "\""))
                .findFirst().orElseThrow();
        return Long.parseLong(end.replaceAll(".*\"duration_ns\":(\\d+).*", "$1"));
    }

    @Test
    void fileWriterAndGzipOutputsAreTheSameText(@TempDir Path dir) throws IOException {
        SyntheticTrace trace = SyntheticTrace.training().ops(3_000).seed(5).tag("note", "ünïcödé ✓");
        Path plain = dir.resolve("nested/t.jsonl");
        Path gz = dir.resolve("t.jsonl.gz");
        trace.writeTo(plain);
        trace.writeTo(gz);
        byte[] fromWriter = text(trace).getBytes(StandardCharsets.UTF_8);
        assertThat(Files.readAllBytes(plain)).isEqualTo(fromWriter);
        try (InputStream in = new GZIPInputStream(Files.newInputStream(gz))) {
            assertThat(in.readAllBytes()).isEqualTo(fromWriter);
        }
        assertThat(Files.size(gz)).isLessThan(Files.size(plain) / 4);
    }

    @ParameterizedTest
    @ValueSource(longs = {0, 1, 10, 57, 148, 149, 150, 251, 252, 300, 1_000, 4_321})
    void trainingWritesExactlyTheRequestedOpsAndStaysTrusted(long n) {
        String text = text(SyntheticTrace.training().ops(n).seed(n));
        assertThat(opLines(text)).isEqualTo(n);
        Summary s = check(text);
        assertThat(s.ops).isEqualTo(n);
        assertThat(s.steps).contains("forward", "backward", "optimizer");
        assertThat(s.retained).isPositive();
    }

    @ParameterizedTest
    @ValueSource(longs = {0, 1, 10, 19, 62, 63, 64, 150, 1_000, 7_777})
    void inferenceWritesExactlyTheRequestedOpsAndStaysTrusted(long n) {
        String text = text(SyntheticTrace.inference().ops(n).seed(n + 100));
        assertThat(opLines(text)).isEqualTo(n);
        Summary s = check(text);
        assertThat(s.ops).isEqualTo(n);
        assertThat(s.phase).isEqualTo("infer");
        assertThat(s.steps).containsExactly("forward");
        assertThat(s.gradients).isZero();
    }

    @Test
    void everyLineIsACompactRecordStartingWithKind() {
        String text = bigTrain;
        assertThat(text).startsWith("{\"kind\":\"meta\",").endsWith("}\n")
                .doesNotContain("\r").doesNotContain("\n\n").doesNotContain("\": ").doesNotContain(", \"")
                .doesNotContain(":null");
        List<String> bad = text.lines()
                .filter(l -> !l.startsWith("{\"kind\":\"") || !l.endsWith("}"))
                .limit(3)
                .collect(Collectors.toList());
        assertThat(bad).isEmpty();
    }

    @Test
    void trainingTraceCoversEveryKindOfEvidence() {
        Summary s = bigSummary;
        assertThat(s.ops).isEqualTo(20_000);
        assertThat(s.phase).isEqualTo("train");
        assertThat(s.spans).isBetween(20_000L / 12, 20_000L / 7);
        assertThat(s.byKind.keySet()).containsExactlyInAnyOrder(
                "meta", "span_start", "span_end", "op", "tensor", "memory", "device_memory", "gradient", "edge");
        assertThat(s.gradientStates).containsKeys("present", "missing", "zero");
        assertThat(s.gradientStates.get("present")).isGreaterThan(s.gradients * 9 / 10);
        assertThat(s.allocsByCategory).containsKeys("parameter", "activation", "gradient", "optimizer", "other");
        assertThat(s.frees).isGreaterThan(s.ops * 8 / 10);
        assertThat(s.byKind.get("edge")).isBetween(2L, 8L);
        assertThat(s.byKind.get("device_memory")).isGreaterThanOrEqualTo(4L);
        assertThat(s.measuredName).isEqualTo("update");
        // one gradient per parameter, and every parameter is still live at the end
        assertThat(s.allocsByCategory.get("parameter")).isEqualTo(s.gradients);
        assertThat(s.retained).isEqualTo(s.allocsByCategory.get("parameter") + s.allocsByCategory.get("optimizer"));
    }

    @Test
    void opLinesHaveRealisticSize() {
        String text = bigTrain;
        double avg = text.lines().filter(l -> l.startsWith("{\"kind\":\"op\","))
                .mapToInt(String::length).average().orElse(0);
        assertThat(avg).isBetween(190.0, 280.0);
        double perOp = (double) text.getBytes(StandardCharsets.UTF_8).length / 20_000;
        assertThat(perOp).isBetween(500.0, 750.0);
    }

    @Test
    void deepChainOf100000SpansIsWellFormed() {
        Summary s = check(text(SyntheticTrace.deepChain(100_000).seed(4)));
        assertThat(s.spans).isEqualTo(100_002);
        assertThat(s.maxDepth).isEqualTo(100_002);
        assertThat(s.ops).isEqualTo(1);
    }

    @Test
    void wideTraceIsWellFormed() {
        Summary s = check(text(SyntheticTrace.wide(10_000).seed(4)));
        assertThat(s.spans).isEqualTo(10_002);
        assertThat(s.maxDepth).isEqualTo(3);
        assertThat(s.ops).isEqualTo(10_000);
        assertThat(s.byKind.get("edge")).isEqualTo(3);
        assertThat(check(text(SyntheticTrace.wide(0))).spans).isEqualTo(2);
        assertThat(check(text(SyntheticTrace.deepChain(0))).ops).isEqualTo(1);
    }

    @Test
    void metaCarriesRunIdDeviceAndEscapedTags() {
        String text = text(SyntheticTrace.inference().ops(100).seed(6).device("cuda:1").runId("bench \"1\"")
                .tag("owner", "a\\b").tag("model", "othergpt"));
        String meta = text.lines().findFirst().orElseThrow();
        assertThat(meta)
                .startsWith("{\"kind\":\"meta\",\"schema\":\"candle-graph/trace/6\",\"run_id\":\"bench \\\"1\\\"\",")
                .contains("\"device\":\"cuda:1\",\"timing_mode\":\"device_synchronized\"")
                .contains("\"tags\":{\"model\":\"othergpt\",\"commit\":\"")
                .contains("\"owner\":\"a\\\\b\"}");
        assertThat(text.lines().skip(1)).allMatch(l -> !l.contains("\"device\":") || l.contains("\"device\":\"cuda:1\""));
        assertThat(text(SyntheticTrace.training().ops(100).seed(6).device("cpu")))
                .contains("\"run_id\":\"train-s6\"").contains("\"timing_mode\":\"host\"");
    }

    @Test
    void rejectsMeaninglessSizes() {
        assertThatThrownBy(() -> SyntheticTrace.deepChain(10).ops(5)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> SyntheticTrace.wide(10).ops(5)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> SyntheticTrace.training().ops(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SyntheticTrace.deepChain(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    // ---------------------------------------------------------------------------------------
    // A streaming, string-search check of the health rules of spec section 3 (plus the stricter
    // ordering the generator promises). No JSON library: the generator's output is known to be
    // compact, with no escapes outside the meta line.

    static final class Summary {
        String phase;
        String measuredName;
        long lines;
        long ops;
        long spans;
        long maxDepth;
        long allocs;
        long frees;
        long retained;
        long gradients;
        final Map<String, Long> byKind = new TreeMap<>();
        final Map<String, Long> allocsByCategory = new TreeMap<>();
        final Map<String, Long> gradientStates = new TreeMap<>();
        final Set<String> steps = new HashSet<>();
    }

    static final class TraceCheck {
        private static final class Span {
            final String id;
            final long start;
            long childSum;
            long childMaxEnd;
            long opMaxEnd;

            Span(String id, long start) {
                this.id = id;
                this.start = start;
            }
        }

        private TraceCheck() {
        }

        /** Reads a whole trace; throws AssertionError naming the line at the first violation. */
        static Summary check(Reader reader) throws IOException {
            BufferedReader in = new BufferedReader(reader, 1 << 16);
            Summary s = new Summary();
            Set<String> spanIds = new HashSet<>();
            Deque<Span> open = new ArrayDeque<>();
            Set<String> produced = new HashSet<>();
            Set<String> live = new HashSet<>();
            List<String[]> edges = new ArrayList<>();
            long roots = 0;
            long measured = 0;
            long lastMemoryTs = -1;
            String line;
            long n = 0;
            while ((line = in.readLine()) != null) {
                n++;
                final long lineNo = n;
                final String current = line;
                Fail fail = msg -> new AssertionError("line " + lineNo + ": " + msg + "\n  " + abbreviate(current));
                if (!line.startsWith("{\"kind\":\"") || !line.endsWith("}")) {
                    throw fail.at("not a compact record starting with kind");
                }
                String kind = str(line, "kind");
                s.byKind.merge(kind, 1L, Long::sum);
                if (n == 1 != kind.equals("meta")) {
                    throw fail.at("the meta record must be the first line and only there");
                }
                switch (kind) {
                    case "meta": {
                        if (!"candle-graph/trace/6".equals(str(line, "schema"))) {
                            throw fail.at("wrong schema");
                        }
                        s.phase = str(line, "phase");
                        break;
                    }
                    case "span_start": {
                        String id = str(line, "id");
                        String parent = str(line, "parent_id");
                        long start = num(line, "start_ns");
                        if (!spanIds.add(id)) {
                            throw fail.at("duplicate span id " + id);
                        }
                        if (!id.equals("s" + spanIds.size())) {
                            throw fail.at("span ids must be s1, s2, ... in creation order");
                        }
                        if (parent == null) {
                            roots++;
                        } else if (open.isEmpty() || !open.peek().id.equals(parent)) {
                            throw fail.at("parent " + parent + " is not the innermost open span");
                        } else if (start < open.peek().start) {
                            throw fail.at("child starts before its parent");
                        }
                        if (line.contains("\"measured\":true")) {
                            measured++;
                            s.measuredName = str(line, "name");
                        } else if (!line.contains("\"measured\":false")) {
                            throw fail.at("measured not written");
                        }
                        String step = str(line, "step");
                        if (step != null) {
                            s.steps.add(step);
                        }
                        open.push(new Span(id, start));
                        s.spans++;
                        s.maxDepth = Math.max(s.maxDepth, open.size());
                        break;
                    }
                    case "span_end": {
                        String id = str(line, "id");
                        long duration = num(line, "duration_ns");
                        if (open.isEmpty() || !open.peek().id.equals(id)) {
                            throw fail.at("span_end for " + id + " is not the innermost open span");
                        }
                        if (duration < 0) {
                            throw fail.at("span_end without duration_ns");
                        }
                        Span span = open.pop();
                        long end = span.start + duration;
                        if (span.childSum > duration) {
                            throw fail.at("children total " + span.childSum + " > duration " + duration);
                        }
                        if (span.childMaxEnd > end || span.opMaxEnd > end) {
                            throw fail.at("a child span or op ends after its span");
                        }
                        Span parent = open.peek();
                        if (parent != null) {
                            parent.childSum += duration;
                            parent.childMaxEnd = Math.max(parent.childMaxEnd, end);
                        }
                        break;
                    }
                    case "op": {
                        Span span = innermost(open, str(line, "span_id"), fail);
                        long ts = num(line, "timestamp_ns");
                        long duration = num(line, "duration_ns");
                        if (ts < span.start || duration < 0 || num(line, "storage_bytes") < 0) {
                            throw fail.at("op before its span, or without duration/storage_bytes");
                        }
                        span.opMaxEnd = Math.max(span.opMaxEnd, ts + duration);
                        List<String> inputs = inputs(line);
                        for (String t : inputs) {
                            if (!produced.contains(t)) {
                                throw fail.at("input " + t + " was never produced");
                            }
                        }
                        String output = str(line, "output");
                        if (output == null || !produced.add(output) && !inputs.contains(output)) {
                            throw fail.at("output must be a new tensor or updated in place");
                        }
                        s.ops++;
                        break;
                    }
                    case "memory": {
                        innermost(open, str(line, "span_id"), fail);
                        long ts = num(line, "timestamp_ns");
                        if (ts < lastMemoryTs) {
                            throw fail.at("memory timestamps go backwards");
                        }
                        lastMemoryTs = ts;
                        String tensor = str(line, "tensor_id");
                        String key = str(line, "device") + "\u0000" + tensor;
                        String action = str(line, "action");
                        if ("alloc".equals(action)) {
                            if (!live.add(key)) {
                                throw fail.at("duplicate_allocation of " + tensor);
                            }
                            produced.add(tensor);
                            s.allocs++;
                            s.allocsByCategory.merge(str(line, "category"), 1L, Long::sum);
                        } else if ("free".equals(action)) {
                            if (!live.remove(key)) {
                                throw fail.at("unpaired_free of " + tensor);
                            }
                            s.frees++;
                        } else {
                            throw fail.at("bad action");
                        }
                        break;
                    }
                    case "tensor": {
                        innermost(open, str(line, "span_id"), fail);
                        if (!produced.contains(str(line, "tensor_id"))) {
                            throw fail.at("tensor checkpoint of a tensor never produced");
                        }
                        break;
                    }
                    case "device_memory": {
                        if (num(line, "used_bytes") < 0 || num(line, "free_bytes") < 0) {
                            throw fail.at("device_memory without used/free bytes");
                        }
                        break;
                    }
                    case "gradient": {
                        String state = str(line, "state");
                        if (!Set.of("present", "missing", "zero", "non_finite").contains(state)) {
                            throw fail.at("bad gradient state");
                        }
                        s.gradientStates.merge(state, 1L, Long::sum);
                        s.gradients++;
                        break;
                    }
                    case "edge": {
                        edges.add(new String[] {str(line, "from_span"), str(line, "to_span")});
                        if (num(line, "duration_ns") < 0) {
                            throw fail.at("edge without duration");
                        }
                        break;
                    }
                    default:
                        throw fail.at("unknown kind " + kind);
                }
            }
            s.lines = n;
            if (!open.isEmpty()) {
                throw new AssertionError("open_span: " + open.peek().id + " was not closed");
            }
            if (roots != 1 || measured != 1) {
                throw new AssertionError("expected one root and one measured span, found " + roots + " and " + measured);
            }
            for (String[] e : edges) {
                if (!spanIds.contains(e[0]) || !spanIds.contains(e[1])) {
                    throw new AssertionError("unknown_edge_span: " + e[0] + " -> " + e[1]);
                }
            }
            s.retained = live.size();
            return s;
        }

        private interface Fail {
            AssertionError at(String message);
        }

        private static Span innermost(Deque<Span> open, String spanId, Fail fail) {
            if (spanId == null || open.isEmpty() || !open.peek().id.equals(spanId)) {
                throw fail.at("evidence for span " + spanId + " outside that span");
            }
            return open.peek();
        }

        private static String abbreviate(String line) {
            return line.length() <= 300 ? line : line.substring(0, 300) + "...";
        }

        /** The string member {@code key}, or null when absent. */
        static String str(String line, String key) {
            String k = "\"" + key + "\":\"";
            int i = line.indexOf(k);
            if (i < 0) {
                return null;
            }
            int from = i + k.length();
            return line.substring(from, line.indexOf('"', from));
        }

        /** The unsigned integer member {@code key}, or -1 when absent. */
        static long num(String line, String key) {
            String k = "\"" + key + "\":";
            int i = line.indexOf(k);
            if (i < 0) {
                return -1;
            }
            int p = i + k.length();
            long v = 0;
            int digits = 0;
            while (p < line.length() && Character.isDigit(line.charAt(p))) {
                v = v * 10 + (line.charAt(p++) - '0');
                digits++;
            }
            return digits == 0 ? -1 : v;
        }

        static List<String> inputs(String line) {
            String k = "\"inputs\":[";
            int from = line.indexOf(k) + k.length();
            int to = line.indexOf(']', from);
            List<String> out = new ArrayList<>();
            if (to > from) {
                for (String t : line.substring(from, to).split(",")) {
                    out.add(t.substring(1, t.length() - 1));
                }
            }
            return out;
        }
    }

    /** Checks trace files given on the command line (for the big bench inputs). */
    public static void main(String[] args) throws IOException {
        for (String a : args) {
            Path p = Path.of(a);
            long t0 = System.nanoTime();
            Summary s;
            try (InputStream raw = Files.newInputStream(p);
                 InputStream in = a.endsWith(".gz") ? new GZIPInputStream(raw, 1 << 16) : raw) {
                s = TraceCheck.check(new InputStreamReader(in, StandardCharsets.UTF_8));
            }
            System.out.printf("%s: ok in %d ms; lines=%d ops=%d spans=%d depth=%d allocs=%d frees=%d retained=%d"
                            + " gradients=%d kinds=%s alloc categories=%s gradient states=%s%n",
                    a, (System.nanoTime() - t0) / 1_000_000, s.lines, s.ops, s.spans, s.maxDepth, s.allocs,
                    s.frees, s.retained, s.gradients, s.byKind, s.allocsByCategory, s.gradientStates);
        }
    }
}
