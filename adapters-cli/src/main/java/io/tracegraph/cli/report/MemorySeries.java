package io.tracegraph.cli.report;

import com.fasterxml.jackson.core.JsonGenerator;
import io.tracegraph.domain.memory.CategoryBytes;
import io.tracegraph.domain.memory.TimelinePoint;
import io.tracegraph.domain.trace.MemoryCategory;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The memory timeline of one device as a chart draws it: live bytes and live bytes by category
 * over time, cut down to a bounded number of points. When a device has more records than that, they
 * are split into buckets of consecutive records and each bucket keeps its first, lowest, highest and
 * last point, so every spike, the peak among them, survives; the note says so.
 */
record MemorySeries(String device, int records, int[] kept, List<TimelinePoint> timeline, long peakBytes,
        long peakTimestampNs) {

    /** The timeline by device, in order of first appearance; at most {@code maxPoints} points each. */
    static List<MemorySeries> of(List<TimelinePoint> timeline, int maxPoints) {
        Map<String, List<Integer>> byDevice = new LinkedHashMap<>();
        for (int i = 0; i < timeline.size(); i++) {
            byDevice.computeIfAbsent(timeline.get(i).device(), d -> new ArrayList<>()).add(i);
        }
        List<MemorySeries> series = new ArrayList<>();
        byDevice.forEach((device, indices) -> series.add(sample(device, indices, timeline, maxPoints)));
        return series;
    }

    private static MemorySeries sample(String device, List<Integer> indices, List<TimelinePoint> timeline,
            int maxPoints) {
        int m = indices.size();
        long[] live = new long[m];
        long peak = -1;
        long peakTs = 0;
        for (int k = 0; k < m; k++) {
            TimelinePoint p = timeline.get(indices.get(k));
            live[k] = p.liveBytes();
            if (live[k] > peak) {
                peak = live[k];
                peakTs = p.timestampNs();
            }
        }
        List<Integer> kept = new ArrayList<>();
        if (m <= maxPoints) {
            kept.addAll(indices);
        } else {
            int buckets = Math.max(1, maxPoints / 4);
            for (int b = 0; b < buckets; b++) {
                int from = (int) ((long) m * b / buckets);
                int to = (int) ((long) m * (b + 1) / buckets);
                if (from >= to) {
                    continue;
                }
                int low = from;
                int high = from;
                for (int k = from; k < to; k++) {
                    if (live[k] < live[low]) {
                        low = k;
                    }
                    if (live[k] > live[high]) {
                        high = k;
                    }
                }
                int[] four = {from, Math.min(low, high), Math.max(low, high), to - 1};
                int last = -1;
                for (int k : four) {
                    if (k != last) {
                        kept.add(indices.get(k));
                        last = k;
                    }
                }
            }
        }
        return new MemorySeries(device, m, kept.stream().mapToInt(Integer::intValue).toArray(), timeline,
                Math.max(peak, 0), peakTs);
    }

    boolean reduced() {
        return kept.length < records;
    }

    /**
     * {@code {"device", "records", "t": [ns - origin], "live": [...], "categories": {name: [bytes or
     * null]}, "peak_bytes", "peak_t"}}; times relative to {@code originNs}.
     */
    void write(JsonGenerator g, long originNs) throws IOException {
        g.writeStartObject();
        g.writeStringField("device", device);
        g.writeNumberField("records", records);
        g.writeNumberField("points", kept.length);
        g.writeArrayFieldStart("t");
        for (int i : kept) {
            g.writeNumber(timeline.get(i).timestampNs() - originNs);
        }
        g.writeEndArray();
        g.writeArrayFieldStart("live");
        for (int i : kept) {
            g.writeNumber(timeline.get(i).liveBytes());
        }
        g.writeEndArray();
        g.writeObjectFieldStart("categories");
        for (MemoryCategory c : MemoryCategory.ordered()) {
            boolean any = false;
            for (int i : kept) {
                if (timeline.get(i).byCategory().has(c)) {
                    any = true;
                    break;
                }
            }
            if (!any) {
                continue;
            }
            g.writeArrayFieldStart(c.name().toLowerCase(Locale.ROOT));
            for (int i : kept) {
                CategoryBytes bytes = timeline.get(i).byCategory();
                if (bytes.has(c)) {
                    g.writeNumber(bytes.get(c));
                } else {
                    g.writeNull();
                }
            }
            g.writeEndArray();
        }
        g.writeEndObject();
        g.writeNumberField("peak_bytes", peakBytes);
        g.writeNumberField("peak_t", peakTimestampNs - originNs);
        g.writeEndObject();
    }

    /** The earliest timestamp of a timeline (0 when empty): charts count time from there. */
    static long origin(List<TimelinePoint> timeline) {
        long min = Long.MAX_VALUE;
        for (TimelinePoint p : timeline) {
            min = Math.min(min, p.timestampNs());
        }
        return timeline.isEmpty() ? 0 : min;
    }
}
