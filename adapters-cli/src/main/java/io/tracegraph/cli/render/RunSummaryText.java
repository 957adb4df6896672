package io.tracegraph.cli.render;

import io.tracegraph.cli.render.FittedTable.Column;
import io.tracegraph.domain.graph.GraphSummary;
import io.tracegraph.domain.graph.HeavySpan;
import io.tracegraph.domain.graph.SlowSpan;
import io.tracegraph.domain.health.HealthIssue;
import io.tracegraph.domain.health.TraceHealth;
import io.tracegraph.domain.graph.DeviceSpanCost;
import io.tracegraph.domain.graph.DeviceTime;
import io.tracegraph.domain.graph.DeviceTimeSummary;
import io.tracegraph.domain.memory.DeviceMemory;
import io.tracegraph.domain.memory.MemorySummary;
import io.tracegraph.domain.run.RunSummary;
import io.tracegraph.domain.run.StoredRun;
import io.tracegraph.domain.trace.MemoryCategory;
import io.tracegraph.domain.trace.RunMeta;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A stored run as a person would sum it up: a few labelled lines (what ran, when, how long, the
 * memory peak, health, tags), then the few spans that took the time and the memory. The JSON and
 * CSV of {@code show} keep every field.
 */
public final class RunSummaryText {
    private static final int TOP = 5;

    private RunSummaryText() {
    }

    public static String render(RunSummary s, Screen screen) {
        return render(s, DeviceTimeSummary.NONE, screen);
    }

    /**
     * The summary with the run's device time beside its host time when it has some: a line
     * {@code Device time} (each device's) after {@code Took}, and the nodes with the most device self
     * time after the slowest spans. Without device time it is {@link #render(RunSummary, Screen)}.
     */
    public static String render(RunSummary s, DeviceTimeSummary device, Screen screen) {
        StoredRun stored = s.run();
        RunMeta m = stored.meta();
        GraphSummary g = s.summary();
        MemorySummary mem = g.memory();
        int width = screen.width();
        LabelledLines lines = new LabelledLines()
                .add("Run", one(m.runId()))
                .add("Ran", one(m.entrypoint()) + " (" + word(m.phase()) + ") on " + one(m.device()))
                .add("Captured", one(m.timestamp()) + ", step " + m.captureStep() + ", " + word(m.timingMode())
                        + " timing")
                .add("Took", HumanUnits.durationMs(g.totalMs()) + " measured")
                .add("Device time", device.isEmpty() ? null : deviceTime(device))
                .add("Memory peak", memory(mem))
                .add("Health", health(s.health()), s.health().issues().isEmpty() ? Style.GOOD : Style.PLAIN)
                .add("Tags", m.tags().isEmpty() ? null : tags(m.tags()))
                .add("Stored", stored.nodeCount() + " nodes, " + stored.edgeCount() + " edges from "
                        + one(stored.sourceName()) + ", imported " + stored.importedAt());
        StringBuilder out = new StringBuilder();
        for (String line : lines.lines(width, screen.color())) {
            out.append(line).append('\n');
        }
        for (HealthIssue issue : s.health().issues()) {
            for (String line : TextWidth.wrap("  " + one(issue.code()) + ": " + one(issue.message()), width, "    ")) {
                out.append(line).append('\n');
            }
        }
        if (!g.slowestSpans().isEmpty()) {
            out.append('\n').append("Slowest spans (self time)\n");
            FittedTable t = new FittedTable(Column.number("self time"), Column.shrinking("span", 12),
                    Column.shrinking("id", 8).optional(1));
            for (SlowSpan span : g.slowestSpans().subList(0, Math.min(TOP, g.slowestSpans().size()))) {
                t.row(HumanUnits.duration(span.selfTimeNs()), one(span.name()), one(span.id()));
            }
            body(out, t, screen);
        }
        if (!device.slowest().isEmpty()) {
            out.append('\n').append("Slowest on device (device self time)\n");
            FittedTable t = new FittedTable(Column.number("device self"), Column.shrinking("span or op", 12),
                    Column.shrinking("device", 8), Column.shrinking("id", 8).optional(1));
            for (DeviceSpanCost cost : device.slowest().subList(0, Math.min(TOP, device.slowest().size()))) {
                t.row(HumanUnits.duration(cost.selfTimeNs()), one(cost.name()), one(cost.device()), one(cost.id()));
            }
            body(out, t, screen);
        }
        if (!g.heaviestSpans().isEmpty()) {
            out.append('\n').append("Heaviest spans (bytes)\n");
            FittedTable t = new FittedTable(Column.number("bytes"), Column.number("peak"), Column.shrinking("span", 12),
                    Column.shrinking("id", 8).optional(1));
            for (HeavySpan span : g.heaviestSpans().subList(0, Math.min(TOP, g.heaviestSpans().size()))) {
                t.row(HumanUnits.bytes(span.bytes()), HumanUnits.bytes(span.peakBytes()), one(span.name()),
                        one(span.id()));
            }
            body(out, t, screen);
        }
        if (s.devices().size() > 1) {
            out.append('\n').append("Devices\n");
            FittedTable t = new FittedTable(Column.shrinking("device", 8), Column.number("peak"),
                    Column.number("capacity"), Column.number("allocations").optional(1));
            for (DeviceMemory d : s.devices()) {
                t.row(one(d.device()), HumanUnits.bytes(d.peakBytes()), HumanUnits.bytes(d.capacityBytes()),
                        HumanUnits.count(d.allocCount()));
            }
            body(out, t, screen);
        }
        return out.toString();
    }

    private static void body(StringBuilder out, FittedTable t, Screen screen) {
        for (String line : t.layout(screen.width(), false, screen.color()).lines()) {
            out.append("  ").append(TextWidth.clipEnd(line, screen.width() - 2)).append('\n');
        }
    }

    private static String memory(MemorySummary mem) {
        StringBuilder s = new StringBuilder(HumanUnits.bytes(mem.peakBytes()));
        if (mem.peakDevice() != null) {
            s.append(" on ").append(one(mem.peakDevice()));
        }
        s.append(" at ").append(HumanUnits.duration(mem.peakTimestampNs()));
        List<String> parts = new ArrayList<>();
        for (Map.Entry<MemoryCategory, Long> e : mem.peakByCategory().asMap().entrySet()) {
            if (e.getValue() > 0) {
                parts.add(word(e.getKey()) + " " + HumanUnits.bytes(e.getValue()));
            }
        }
        if (!parts.isEmpty()) {
            s.append(" (").append(String.join(", ", parts)).append(')');
        }
        if (mem.autogradRetainedBytes() > 0) {
            s.append("; autograd retains ").append(HumanUnits.bytes(mem.autogradRetainedBytes()));
        }
        return s.toString();
    }

    private static String health(TraceHealth health) {
        int n = health.issues().size();
        String trust = health.trusted() ? "trusted" : "untrusted";
        return n == 0 ? trust + ", no warnings" : trust + ", " + n + (n == 1 ? " warning" : " warnings");
    }

    private static String tags(Map<String, String> tags) {
        StringBuilder s = new StringBuilder();
        tags.forEach((k, v) -> s.append(s.length() == 0 ? "" : ", ").append(k).append('=').append(v));
        return one(s.toString());
    }

    private static String word(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }

    private static String one(String text) {
        return text == null ? HumanUnits.NONE : ListingText.oneLine(text);
    }

    /** {@code 1.23 ms on cuda:0, 1.1 ms on cuda:1}: each device's time, kernels summed. */
    private static String deviceTime(DeviceTimeSummary device) {
        StringBuilder line = new StringBuilder();
        for (DeviceTime t : device.devices()) {
            line.append(line.length() == 0 ? "" : ", ").append(HumanUnits.duration(t.totalTimeNs())).append(" on ")
                    .append(one(t.device()));
        }
        return line.toString();
    }
}
