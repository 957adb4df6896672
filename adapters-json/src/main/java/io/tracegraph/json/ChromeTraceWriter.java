package io.tracegraph.json;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.util.MinimalPrettyPrinter;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import io.tracegraph.domain.graph.ExecutionGraph;
import io.tracegraph.domain.graph.GraphNode;
import io.tracegraph.domain.graph.TimeBasis;
import io.tracegraph.domain.memory.CategoryBytes;
import io.tracegraph.domain.memory.TimelinePoint;
import io.tracegraph.domain.trace.CodePointOrder;
import io.tracegraph.domain.trace.MemoryCategory;
import io.tracegraph.domain.trace.Saturating;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes an execution graph as Chrome trace-event JSON ({@code {"traceEvents": [...]}}), the format
 * that Perfetto UI and {@code chrome://tracing} open.
 *
 * <p>Every span and op node is a complete event ({@code "ph": "X"}) with {@code ts} and {@code dur}
 * in microseconds, written exactly (three decimals: nanosecond precision, never rounded through a
 * double). Spans go on the track {@code spans}, ops on one track per device ({@code ops cuda:0}).
 * Trace viewers need the events of one track (thread) properly nested, which a trace need not be
 * (op timestamps are never validated against their span, siblings may overlap): each track is
 * therefore split into as few lanes as keep every lane properly nested, the first lane holding all
 * it can. Each lane is a thread ({@code tid}) named after its track ({@code spans},
 * {@code spans (2)}, ...). The memory timeline becomes two counter tracks per device
 * ({@code "ph": "C"}): live bytes, and live bytes by category. Node ids, parent ids, self and total
 * times and bytes go into each event's {@code args}, so the span tree survives the round trip.
 *
 * <p>On device time ({@link #write(ExecutionGraph, String, TimeBasis, OutputStream)}) the same host
 * tracks come first, then one track per device beside them ({@link ChromeDeviceTracks}), and every
 * event of a node with device time also has its device self and total time in its {@code args}
 * (summed over devices). The export on host time stays as it was, byte for byte.
 */
public final class ChromeTraceWriter {
    /** The process every track belongs to. */
    static final int PID = 1;
    static final String SPAN_TRACK = "spans";
    /** Lanes of a track tried in order before an event opens a new one (besides its parent's and the newest). */
    static final int LANE_SCAN = 64;

    private static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8)
            .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
            .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
            .build();

    private ChromeTraceWriter() {
    }

    /**
     * Writes {@code graph} to {@code out} (not closed) as one JSON object, one event per line.
     *
     * @param processName the name shown for the process, e.g. the run id or the trace file
     */
    public static void write(ExecutionGraph graph, String processName, OutputStream out) {
        write(graph, processName, TimeBasis.HOST, out);
    }

    /**
     * Writes {@code graph} on {@code time}: on host time as {@link #write(ExecutionGraph, String,
     * OutputStream)} does; on device time the host tracks and, beside them, one track per device whose
     * events last their device time ({@link ChromeDeviceTracks}).
     */
    public static void write(ExecutionGraph graph, String processName, TimeBasis time, OutputStream out) {
        try (JsonGenerator g = FACTORY.createGenerator(out, JsonEncoding.UTF8)) {
            g.setPrettyPrinter(new EventPerLine());
            new ChromeTraceWriter().write(g, graph, processName, time == TimeBasis.DEVICE);
            g.writeRaw('\n');
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void write(JsonGenerator g, ExecutionGraph graph, String processName, boolean device)
            throws IOException {
        List<GraphNode> nodes = graph.spans();
        List<Track> tracks = tracks(nodes);
        ChromeDeviceTracks deviceTracks = device ? new ChromeDeviceTracks(nodes) : null;
        g.writeStartObject();
        g.writeFieldName("traceEvents");
        g.writeStartArray();
        metadata(g, "process_name", -1, processName);
        int tid = 1;
        for (Track track : tracks) {
            track.firstTid = tid;
            for (int lane = 0; lane < track.lanes; lane++) {
                String name = lane == 0 ? track.name : track.name + " (" + (lane + 1) + ")";
                thread(g, tid + lane, name);
            }
            tid += track.lanes;
        }
        if (deviceTracks != null) {
            deviceTracks.names(g, tid);
        }
        for (Track track : tracks) {
            for (int k = 0; k < track.order.length; k++) {
                GraphNode node = nodes.get(track.order[k]);
                complete(g, node, node.startNs(), node.totalTimeNs(), track.firstTid + track.lane[k], device);
            }
        }
        if (deviceTracks != null) {
            deviceTracks.events(g);
        }
        counters(g, graph.memory().timeline());
        g.writeEndArray();
        g.writeStringField("displayTimeUnit", "ms");
        g.writeObjectFieldStart("otherData");
        g.writeStringField("generator", "tracegraph");
        g.writeStringField("graph_schema", graph.schema());
        g.writeStringField("entrypoint", graph.summary().entrypoint());
        g.writeNumberField("total_ms", graph.summary().totalMs());
        if (deviceTracks != null) {
            g.writeStringField("time", TimeBasis.DEVICE.wire());
            g.writeStringField("device_tracks", ChromeDeviceTracks.LAYOUT);
        }
        g.writeEndObject();
        g.writeEndObject();
    }

    /** Spans on one track, ops on one track per device (code point order); each split into lanes. */
    static List<Track> tracks(List<GraphNode> nodes) {
        List<Integer> spans = new ArrayList<>();
        Map<String, List<Integer>> opsByDevice = new TreeMap<>(CodePointOrder.COMPARATOR);
        for (int i = 0; i < nodes.size(); i++) {
            String device = nodes.get(i).device();
            if (device == null) {
                spans.add(i);
            } else {
                opsByDevice.computeIfAbsent(device, d -> new ArrayList<>()).add(i);
            }
        }
        List<Track> tracks = new ArrayList<>();
        if (!spans.isEmpty()) {
            tracks.add(new Track(SPAN_TRACK, spans, nodes));
        }
        opsByDevice.forEach((device, ops) -> tracks.add(new Track("ops " + device, ops, nodes)));
        return tracks;
    }

    /** The events of one track, in (start, longest first) order, each with its lane. */
    static final class Track {
        final String name;
        /** Node indices in event order. */
        final int[] order;
        /** The lane of {@code order[k]}. */
        final int[] lane;
        final int lanes;
        int firstTid;

        Track(String name, List<Integer> members, List<GraphNode> nodes) {
            this.name = name;
            int n = members.size();
            long[] start = new long[n];
            long[] end = new long[n];
            for (int k = 0; k < n; k++) {
                GraphNode node = nodes.get(members.get(k));
                start[k] = node.startNs();
                end[k] = Saturating.add(node.startNs(), node.totalTimeNs());
            }
            Integer[] sorted = new Integer[n];
            for (int k = 0; k < n; k++) {
                sorted[k] = k;
            }
            Arrays.sort(sorted, Comparator.<Integer>comparingLong(k -> start[k])
                    .thenComparing(Comparator.<Integer>comparingLong(k -> end[k]).reversed())
                    .thenComparingInt(k -> k));
            Map<String, Integer> position = new HashMap<>(n * 2);
            for (int k = 0; k < n; k++) {
                position.putIfAbsent(nodes.get(members.get(k)).id(), k);
            }
            int[] laneOf = new int[n];
            Arrays.fill(laneOf, -1);
            this.order = new int[n];
            this.lane = new int[n];
            // Each lane keeps the ends of its open events, innermost on top. An event goes to its parent's
            // lane when it fits there (so that the viewer shows it under its parent), else to the first
            // lane where, once the events that ended by its start are closed, it fits inside the top.
            List<long[]> stacks = new ArrayList<>();
            int[] depth = new int[0];
            for (int k = 0; k < n; k++) {
                int i = sorted[k];
                order[k] = members.get(i);
                String parentId = nodes.get(order[k]).parentId();
                Integer parent = parentId == null ? null : position.get(parentId);
                int preferred = parent == null ? -1 : laneOf[parent];
                int chosen = -1;
                // The parent's lane, then the first LANE_SCAN lanes and the newest one: linear time even for
                // events that all overlap (a trace of asynchronous ops), at worst with more lanes than needed.
                int lanes = stacks.size();
                for (int t = -1; t <= Math.min(lanes, LANE_SCAN) && chosen < 0; t++) {
                    int l = t < 0 ? preferred : t < Math.min(lanes, LANE_SCAN) ? t : lanes - 1;
                    if (l < 0 || (t >= 0 && l == preferred)) {
                        continue;
                    }
                    long[] stack = stacks.get(l);
                    while (depth[l] > 0 && stack[depth[l] - 1] <= start[i]) {
                        depth[l]--;
                    }
                    if (depth[l] == 0 || end[i] <= stack[depth[l] - 1]) {
                        chosen = l;
                    }
                }
                if (chosen < 0) {
                    chosen = stacks.size();
                    stacks.add(new long[8]);
                    if (depth.length == chosen) {
                        // Doubled, not grown by one: events that all overlap open a lane each.
                        depth = Arrays.copyOf(depth, Math.max(8, 2 * chosen));
                    }
                }
                long[] stack = stacks.get(chosen);
                if (depth[chosen] == stack.length) {
                    stack = Arrays.copyOf(stack, stack.length * 2);
                    stacks.set(chosen, stack);
                }
                stack[depth[chosen]++] = end[i];
                lane[k] = chosen;
                laneOf[i] = chosen;
            }
            this.lanes = Math.max(1, stacks.size());
        }
    }

    /**
     * A node's complete event from {@code startNs}, lasting {@code durationNs}, on thread {@code tid};
     * with {@code device}, its device self and total time in its args when it has device time.
     */
    static void complete(JsonGenerator g, GraphNode node, long startNs, long durationNs, int tid, boolean device)
            throws IOException {
        g.writeStartObject();
        g.writeStringField("name", node.name());
        g.writeStringField("cat", node.device() == null ? "span" : "op");
        g.writeStringField("ph", "X");
        g.writeFieldName("ts");
        g.writeNumber(micros(startNs));
        g.writeFieldName("dur");
        g.writeNumber(micros(durationNs));
        g.writeNumberField("pid", PID);
        g.writeNumberField("tid", tid);
        g.writeObjectFieldStart("args");
        g.writeStringField("id", node.id());
        if (node.parentId() != null) {
            g.writeStringField("parent_id", node.parentId());
        }
        g.writeStringField("kind", GraphJsonWriter.wire(node.kind()));
        g.writeNumberField("self_time_ns", node.selfTimeNs());
        g.writeNumberField("total_time_ns", node.totalTimeNs());
        g.writeNumberField("bytes", node.bytes());
        g.writeNumberField("peak_bytes", node.peakBytes());
        g.writeNumberField("residual_bytes", node.residualBytes());
        if (node.device() != null) {
            g.writeStringField("device", node.device());
        }
        if (node.dtype() != null) {
            g.writeStringField("dtype", node.dtype());
        }
        if (node.shape() != null) {
            g.writeStringField("shape", node.shape().toString());
        }
        if (node.storageBytes() != null) {
            g.writeNumberField("storage_bytes", node.storageBytes());
        }
        if (device && node.hasDeviceTime()) {
            g.writeNumberField("device_self_time_ns", node.deviceSelfTimeNs());
            g.writeNumberField("device_total_time_ns", node.deviceTotalTimeNs());
        }
        g.writeEndObject();
        g.writeEndObject();
    }

    /** Live bytes, and live bytes by category, per device: one counter event of each per timeline point. */
    private static void counters(JsonGenerator g, List<TimelinePoint> timeline) throws IOException {
        for (TimelinePoint p : timeline) {
            BigDecimal ts = micros(p.timestampNs());
            startCounter(g, "memory " + p.device(), ts);
            g.writeNumberField("live_bytes", p.liveBytes());
            g.writeEndObject();
            g.writeEndObject();
            CategoryBytes categories = p.byCategory();
            startCounter(g, "memory by category " + p.device(), ts);
            for (MemoryCategory c : MemoryCategory.ordered()) {
                if (categories.has(c)) {
                    g.writeNumberField(GraphJsonWriter.wire(c), categories.get(c));
                }
            }
            g.writeEndObject();
            g.writeEndObject();
        }
    }

    /** Opens a memory counter event named {@code name} at {@code ts}, up to its {@code args} object. */
    private static void startCounter(JsonGenerator g, String name, BigDecimal ts) throws IOException {
        g.writeStartObject();
        g.writeStringField("name", name);
        g.writeStringField("cat", "memory");
        g.writeStringField("ph", "C");
        g.writeFieldName("ts");
        g.writeNumber(ts);
        g.writeNumberField("pid", PID);
        g.writeObjectFieldStart("args");
    }

    /** A thread's name and its sort index (its tid, so that the tracks keep their order in a viewer). */
    static void thread(JsonGenerator g, int tid, String name) throws IOException {
        metadata(g, "thread_name", tid, name);
        g.writeStartObject();
        g.writeStringField("name", "thread_sort_index");
        g.writeStringField("ph", "M");
        g.writeNumberField("pid", PID);
        g.writeNumberField("tid", tid);
        g.writeObjectFieldStart("args");
        g.writeNumberField("sort_index", tid);
        g.writeEndObject();
        g.writeEndObject();
    }

    static void metadata(JsonGenerator g, String name, int tid, String value) throws IOException {
        g.writeStartObject();
        g.writeStringField("name", name);
        g.writeStringField("ph", "M");
        g.writeNumberField("pid", PID);
        if (tid >= 0) {
            g.writeNumberField("tid", tid);
        }
        g.writeObjectFieldStart("args");
        g.writeStringField("name", value);
        g.writeEndObject();
        g.writeEndObject();
    }

    /** Nanoseconds as exact microseconds. */
    static BigDecimal micros(long ns) {
        return BigDecimal.valueOf(ns, 3);
    }

    /** Compact JSON with one event per line (the only array is {@code traceEvents}): greppable, small. */
    private static final class EventPerLine extends MinimalPrettyPrinter {
        private static final long serialVersionUID = 1L;

        @Override
        public void beforeArrayValues(JsonGenerator g) throws IOException {
            g.writeRaw('\n');
        }

        @Override
        public void writeArrayValueSeparator(JsonGenerator g) throws IOException {
            g.writeRaw(",\n");
        }

        @Override
        public void writeEndArray(JsonGenerator g, int nrOfValues) throws IOException {
            g.writeRaw("\n]");
        }
    }
}
