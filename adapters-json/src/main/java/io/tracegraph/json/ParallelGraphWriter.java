package io.tracegraph.json;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import io.tracegraph.domain.graph.EdgeList;
import io.tracegraph.domain.graph.ExecutionGraph;
import io.tracegraph.domain.graph.GraphEdge;
import io.tracegraph.domain.memory.MemoryTimeline;
import io.tracegraph.domain.memory.TimelinePoint;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Writes a graph's JSON with several threads: the big lists (nodes, edges, tensors, the memory
 * timeline) are cut into chunks that are rendered in parallel, each element by the same element
 * writers and pretty printer as {@link GraphJsonWriter}, and written in order. The bytes are
 * exactly those of the one-threaded writer. At most a few chunks are held in memory.
 */
final class ParallelGraphWriter {
    /**
     * Elements per chunk: a few hundred KB of JSON, under half a G1 region (512 KB in a 2 GiB heap),
     * so that a chunk is no humongous object. Chunks of 8,192 (4 MB) were allocated in the old
     * generation, and with a big graph in a capped heap started concurrent cycles and full collections.
     */
    private static final int CHUNK = 512;
    /** One plain writer per writing thread: its buffer grows once to a chunk's size and stays. */
    private static final ThreadLocal<PlainElementWriter> PLAIN = ThreadLocal.withInitial(PlainElementWriter::new);

    /** Writes one element of a list. */
    @FunctionalInterface
    interface Element<T> {
        void write(JsonGenerator g, T value) throws IOException;
    }

    private final OutputStream out;
    private final ExecutorService pool;
    private final int window;
    private final ArrayDeque<Future<Piece>> pending = new ArrayDeque<>();
    /**
     * The buffers of chunks already written out, for the next chunks: a chunk's bytes are written
     * from the buffer it was rendered into, which then comes back here, instead of being copied
     * into an array of their own (1.5 GB of copies and allocation for a 1M-op graph's 1.5 GB of
     * JSON). At most a window's worth of buffers exist.
     */
    private final ConcurrentLinkedQueue<byte[]> spare = new ConcurrentLinkedQueue<>();

    /** Bytes to write: the first {@code length} of {@code bytes}, which go back to the spares if {@code reuse}. */
    private record Piece(byte[] bytes, int length, boolean reuse) {
        static Piece of(byte[] bytes) {
            return new Piece(bytes, bytes.length, false);
        }
    }

    private ParallelGraphWriter(OutputStream out, ExecutorService pool, int threads) {
        this.out = out;
        this.pool = pool;
        this.window = threads * 8;
    }

    static void write(ExecutionGraph graph, OutputStream out, int threads) {
        ExecutorService pool = Executors.newFixedThreadPool(threads, task -> {
            Thread t = new Thread(task, "graph-writer");
            t.setDaemon(true);
            return t;
        });
        try {
            new ParallelGraphWriter(out, pool, threads).graph(graph);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            pool.shutdownNow();
        }
    }

    private void graph(ExecutionGraph graph) throws IOException {
        raw("{");
        field(1, "schema", true);
        value(1, g -> g.writeString(graph.schema()));
        field(1, "spans", false);
        array(1, graph.spans(), PlainElementWriter::node, GraphJsonWriter::node);
        field(1, "edges", false);
        List<GraphEdge> edges = graph.edges();
        if (edges instanceof EdgeList columns) {
            // Rendered from the edges' columns: no edge made per element.
            indexedArray(1, edges, (w, i, level) -> w.edge(columns, i, level), GraphJsonWriter::edge);
        } else {
            array(1, edges, PlainElementWriter::edge, GraphJsonWriter::edge);
        }
        field(1, "tensors", false);
        array(1, graph.tensors(), PlainElementWriter::tensor, GraphJsonWriter::tensor);
        field(1, "gradients", false);
        array(1, graph.gradients(), PlainElementWriter::gradient, GraphJsonWriter::gradient);
        field(1, "summary", false);
        boolean device = GraphJsonWriter.hasDeviceSummary(graph);
        value(1, g -> GraphJsonWriter.summary(g, graph.summary(), device));
        field(1, "memory", false);
        raw("{");
        field(2, "summary", true);
        value(2, g -> GraphJsonWriter.memorySummary(g, graph.memory().summary()));
        field(2, "timeline", false);
        List<TimelinePoint> timeline = graph.memory().timeline();
        if (timeline instanceof MemoryTimeline columns) {
            // Rendered from the timeline's columns: no point made per element.
            indexedArray(2, timeline, (w, i, level) -> w.timelinePoint(columns, i, level),
                    GraphJsonWriter::timelinePoint);
        } else {
            array(2, timeline, PlainElementWriter::timelinePoint, GraphJsonWriter::timelinePoint);
        }
        field(2, "peak_breakdown", false);
        array(2, graph.memory().peakBreakdown(), PlainElementWriter::allocation, GraphJsonWriter::allocation);
        field(2, "by_device", false);
        value(2, g -> GraphJsonWriter.devices(g, graph.memory().byDevice()));
        raw("\n" + indent(1) + "}");
        if (graph.capture() != null) {
            field(1, "capture", false);
            value(1, g -> GraphJsonWriter.capture(g, graph.capture()));
            field(1, "tensor_stats", false);
            value(1, g -> GraphJsonWriter.tensorStats(g, graph.tensorStats()));
        }
        raw("\n}\n");
        drain(0);
        out.flush();
    }

    /** Writes one element without Jackson if it can (see {@link PlainElementWriter}). */
    @FunctionalInterface
    interface PlainElement<T> {
        boolean write(PlainElementWriter w, T value, int level);
    }

    /** Writes the element at an index of the list without Jackson if it can. */
    @FunctionalInterface
    interface PlainIndexed {
        boolean write(PlainElementWriter w, int index, int level);
    }

    private <T> void array(int nesting, List<T> values, PlainElement<T> plainElement, Element<T> element)
            throws IOException {
        indexedArray(nesting, values, (w, i, level) -> plainElement.write(w, values.get(i), level), element);
    }

    /**
     * A list at the given nesting, rendered in parallel chunks: each element by the plain writer
     * when it can, else by the Jackson element writer.
     */
    private <T> void indexedArray(int nesting, List<T> values, PlainIndexed plainElement, Element<T> element)
            throws IOException {
        if (values.isEmpty()) {
            raw("[]");
            return;
        }
        raw("[");
        for (int from = 0; from < values.size(); from += CHUNK) {
            int start = from;
            int end = Math.min(values.size(), from + CHUNK);
            submit(() -> {
                // Plain elements go to the thread's own writer, whose buffer is kept from chunk to
                // chunk; only a chunk with an element for Jackson is put together from pieces.
                ByteArrayBuilder bytes = null;
                PlainElementWriter plain = PLAIN.get();
                byte[] buffer = spare.poll();
                plain.start(buffer != null ? buffer : new byte[1 << 16]);
                for (int i = start; i < end; i++) {
                    plain.elementSeparator(i == 0, nesting + 1);
                    if (!plainElement.write(plain, i, nesting + 1)) {
                        if (bytes == null) {
                            bytes = new ByteArrayBuilder(1 << 16);
                        }
                        plain.writeTo(bytes);
                        T value = values.get(i);
                        bytes.write(render(nesting + 1, g -> element.write(g, value)));
                    }
                }
                if (bytes == null) {
                    return new Piece(plain.buffer(), plain.length(), true);
                }
                plain.writeTo(bytes);
                spare.add(plain.buffer());
                return Piece.of(bytes.toByteArray());
            });
        }
        raw("\n" + indent(nesting) + "]");
    }

    private void value(int nesting, GraphJsonWriter.Body body) throws IOException {
        submit(() -> Piece.of(render(nesting, body)));
    }

    private void field(int nesting, String name, boolean first) throws IOException {
        raw((first ? "\n" : ",\n") + indent(nesting) + "\"" + name + "\": ");
    }

    private void raw(String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        Piece piece = Piece.of(bytes);
        submit(() -> piece);
    }

    private void submit(Callable<Piece> task) throws IOException {
        drain(window);
        pending.add(pool.submit(task));
    }

    /** Writes finished pieces in order until at most {@code keep} are pending. */
    private void drain(int keep) throws IOException {
        while (pending.size() > keep || (!pending.isEmpty() && pending.peek().isDone())) {
            Piece piece = Futures.get(pending.poll(), "writing the graph");
            out.write(piece.bytes(), 0, piece.length());
            if (piece.reuse()) {
                spare.add(piece.bytes());
            }
        }
    }

    /** One or more root values rendered as if they stood at the given nesting. */
    private static byte[] render(int nesting, GraphJsonWriter.Body body) throws IOException {
        ByteArrayBuilder bytes = new ByteArrayBuilder(1 << 16);
        try (JsonGenerator g = GraphJsonWriter.factory().createGenerator(bytes, JsonEncoding.UTF8)) {
            g.setPrettyPrinter(new SerdePrettyPrinter(nesting));
            body.write(g);
        }
        return bytes.toByteArray();
    }

    private static String indent(int nesting) {
        return "  ".repeat(nesting);
    }

}
