package io.tracegraph.json.pytorch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

/**
 * Grows a real PyTorch profiler trace to a given size for benchmarks, by repeating its events with
 * shifted times and ids: repetition {@code r} moves every timestamp by {@code r} times the trace's
 * span (plus a 10 µs gap), adds {@code r} times (largest id + 1) to every {@code External id},
 * {@code correlation}, {@code Python id}, {@code Python parent id}, {@code Ev Idx} and flow id, and
 * renumbers {@code ProfilerStep#N} to {@code N + r}. Metadata events, the profiler's own
 * {@code Trace} span and global instant events are written once. Events are written in the layout
 * Kineto writes (one member line per group, {@code args} on lines of their own), so the size per
 * event is that of a trace straight from {@code torch.profiler}.
 *
 * <p>Usage: {@code PyTorchTraceGrower SEED.json[.gz] OUT.json MEGABYTES}. A seed whose memory
 * events do not return to where they started keeps its {@code Total Allocated} values unchanged,
 * so only seeds that free what they allocate (such as the TraceLens BERT traces) grow into traces
 * whose counters stay consistent.
 */
public final class PyTorchTraceGrower {
    private static final Set<String> ID_MEMBERS = Set.of("External id", "external id", "correlation", "Python id",
            "Python parent id", "Ev Idx");
    private static final Pattern STEP = Pattern.compile("ProfilerStep#(\\d+)");
    private static final long GAP_NS = 10_000;

    private PyTorchTraceGrower() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 3) {
            System.err.println("usage: PyTorchTraceGrower SEED.json[.gz] OUT.json MEGABYTES");
            System.exit(2);
        }
        long bytes = grow(Path.of(args[0]), Path.of(args[1]), Long.parseLong(args[2]) << 20);
        System.out.println(args[1] + ": " + bytes + " bytes");
    }

    /** Writes the grown trace; returns its size in bytes. */
    public static long grow(Path seed, Path out, long targetBytes) throws IOException {
        ObjectMapper mapper = new ObjectMapper();
        JsonNode root;
        try (InputStream raw = Files.newInputStream(seed);
                InputStream in = seed.toString().endsWith(".gz") ? new GZIPInputStream(raw) : raw) {
            root = mapper.readTree(in);
        }
        List<JsonNode> events = new ArrayList<>();
        root.get("traceEvents").forEach(events::add);
        long minNs = Long.MAX_VALUE;
        long maxNs = Long.MIN_VALUE;
        long maxId = 0;
        for (JsonNode e : events) {
            if (!e.has("ts") || "M".equals(e.path("ph").asText())) {
                continue;
            }
            long ts = ns(e.get("ts"));
            minNs = Math.min(minNs, ts);
            maxNs = Math.max(maxNs, ts + (e.has("dur") ? ns(e.get("dur")) : 0));
            if (e.has("id") && e.get("id").canConvertToLong()) {
                maxId = Math.max(maxId, e.get("id").asLong());
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = e.path("args").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> m = it.next();
                if (ID_MEMBERS.contains(m.getKey()) && m.getValue().canConvertToLong()) {
                    maxId = Math.max(maxId, m.getValue().asLong());
                }
            }
        }
        long period = maxNs - minNs + GAP_NS;
        long idStride = maxId + 1;

        List<Template> repeated = new ArrayList<>();
        List<Template> once = new ArrayList<>();
        for (JsonNode e : events) {
            String ph = e.path("ph").asText();
            boolean global = "M".equals(ph) || "Trace".equals(e.path("cat").asText())
                    || ("i".equals(ph) && "g".equals(e.path("s").asText()));
            (global ? once : repeated).add(new Template(mapper, e));
        }
        int repetitions = 0;
        long written;
        try (OutputStream os = new BufferedOutputStream(Files.newOutputStream(out), 1 << 20)) {
            Counting counting = new Counting(os);
            StringBuilder head = new StringBuilder("{\n");
            for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> m = it.next();
                if (!m.getKey().equals("traceEvents")) {
                    head.append("  ").append(mapper.writeValueAsString(m.getKey())).append(": ")
                            .append(mapper.writeValueAsString(m.getValue())).append(",\n");
                }
            }
            head.append("  \"traceEvents\": [\n");
            counting.write(head);
            boolean first = true;
            StringBuilder sb = new StringBuilder(1 << 16);
            for (Template t : once) {
                sb.setLength(0);
                if (!first) {
                    sb.append(",\n");
                }
                first = false;
                t.write(sb, 0, 0, 0);
                counting.write(sb);
            }
            while (counting.count < targetBytes || repetitions == 0) {
                for (Template t : repeated) {
                    sb.setLength(0);
                    if (!first) {
                        sb.append(",\n");
                    }
                    first = false;
                    t.write(sb, (long) repetitions * period, (long) repetitions * idStride, repetitions);
                    counting.write(sb);
                }
                repetitions++;
            }
            counting.write("\n  ]\n}\n");
            written = counting.count;
        }
        return written;
    }

    static long ns(JsonNode ts) {
        return ts.isIntegralNumber() ? ts.asLong() * 1000
                : new BigDecimal(ts.asText()).movePointRight(3).setScale(0, java.math.RoundingMode.HALF_EVEN)
                        .longValueExact();
    }

    private static final class Counting {
        final OutputStream out;
        long count;

        Counting(OutputStream out) {
            this.out = out;
        }

        void write(CharSequence s) throws IOException {
            byte[] b = s.toString().getBytes(StandardCharsets.UTF_8);
            out.write(b);
            count += b.length;
        }
    }

    /** One seed event as fixed text and slots for the values a repetition shifts. */
    private static final class Template {
        private final List<Object> parts = new ArrayList<>();
        private final StringBuilder text = new StringBuilder();

        Template(ObjectMapper mapper, JsonNode e) throws IOException {
            ObjectNode event = (ObjectNode) e;
            text.append("  {\n    ");
            boolean firstMember = true;
            int onLine = 0;
            for (Iterator<Map.Entry<String, JsonNode>> it = event.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> m = it.next();
                String key = m.getKey();
                JsonNode v = m.getValue();
                if (!firstMember) {
                    text.append(key.equals("ts") || key.equals("args") || onLine >= 5 ? ",\n    " : ", ");
                    if (key.equals("ts") || key.equals("args") || onLine >= 5) {
                        onLine = 0;
                    }
                }
                firstMember = false;
                onLine++;
                text.append(mapper.writeValueAsString(key)).append(": ");
                if (key.equals("ts")) {
                    slot(new Slot.Time(ns(v), v.isIntegralNumber()));
                } else if (key.equals("id") && v.canConvertToLong()) {
                    slot(new Slot.Id(v.asLong()));
                } else if (key.equals("name") && v.isTextual() && STEP.matcher(v.asText()).find()) {
                    Matcher step = STEP.matcher(v.asText());
                    step.find();
                    text.append('"').append(v.asText(), 0, step.start()).append("ProfilerStep#");
                    slot(new Slot.Step(Long.parseLong(step.group(1))));
                    text.append(v.asText().substring(step.end())).append('"');
                } else if (key.equals("args") && v.isObject()) {
                    text.append("{\n      ");
                    boolean firstArg = true;
                    for (Iterator<Map.Entry<String, JsonNode>> a = v.fields(); a.hasNext(); ) {
                        Map.Entry<String, JsonNode> arg = a.next();
                        if (!firstArg) {
                            text.append(", ");
                        }
                        firstArg = false;
                        text.append(mapper.writeValueAsString(arg.getKey())).append(": ");
                        if (ID_MEMBERS.contains(arg.getKey()) && arg.getValue().canConvertToLong()) {
                            slot(new Slot.Id(arg.getValue().asLong()));
                        } else {
                            text.append(mapper.writeValueAsString(arg.getValue()));
                        }
                    }
                    text.append("\n    }");
                } else {
                    text.append(mapper.writeValueAsString(v));
                }
            }
            text.append("\n  }");
            parts.add(text.toString());
        }

        private void slot(Slot slot) {
            parts.add(text.toString());
            text.setLength(0);
            parts.add(slot);
        }

        void write(StringBuilder out, long shiftNs, long shiftId, int repetition) {
            for (Object part : parts) {
                if (part instanceof String s) {
                    out.append(s);
                } else if (part instanceof Slot.Time t) {
                    long ns = t.ns + shiftNs;
                    if (t.integral) {
                        out.append(ns / 1000);
                    } else {
                        out.append(ns / 1000).append('.');
                        long frac = Math.floorMod(ns, 1000);
                        out.append(frac < 100 ? (frac < 10 ? "00" : "0") : "").append(frac);
                    }
                } else if (part instanceof Slot.Id id) {
                    out.append(id.value + shiftId);
                } else if (part instanceof Slot.Step step) {
                    out.append(step.number + repetition);
                }
            }
        }
    }

    private sealed interface Slot {
        record Time(long ns, boolean integral) implements Slot {
        }

        record Id(long value) implements Slot {
        }

        record Step(long number) implements Slot {
        }
    }
}
