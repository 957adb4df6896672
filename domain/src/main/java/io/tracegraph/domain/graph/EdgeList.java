package io.tracegraph.domain.graph;

import static io.tracegraph.domain.task.Tasks.join;

import java.util.AbstractList;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;
import java.util.concurrent.CompletableFuture;

/**
 * The edges of a built graph, stored column-wise (one array per member) instead of one
 * {@link GraphEdge} per edge: a 1M-op graph has ~3M edges, which as records were 3M objects for
 * the collector to copy and a list of them copied once more. Read as an immutable list of
 * {@link GraphEdge}s (each made on access), or member by member by index ({@link #from(int)}, ...),
 * as the graph writer does.
 *
 * <p>The graph builder hands the edges over while they may still be sorting on another thread:
 * the first read waits for them (a failure is thrown as the computation threw it), so that what
 * reads the nodes first (the graph writer writes them before the edges) starts meanwhile.
 */
public final class EdgeList extends AbstractList<GraphEdge> implements RandomAccess {
    private static final GraphEdgeKind[] KINDS = GraphEdgeKind.values();

    private final CompletableFuture<Columns> future;
    /** The columns once taken from the future (final fields: a racy read sees them whole or not at all). */
    private Columns value;

    /**
     * The edges' columns, in edge order: the first {@code size} entries of each array (the arrays
     * may be longer); {@code kinds} holds ordinals.
     */
    static final class Columns {
        final int size;
        final String[] from;
        final String[] to;
        final byte[] kinds;
        final long[] durations;
        final String[] labels;

        Columns(int size, String[] from, String[] to, byte[] kinds, long[] durations, String[] labels) {
            if (size < 0 || size > from.length || size > to.length || size > kinds.length || size > durations.length
                    || size > labels.length) {
                throw new IllegalArgumentException("columns shorter than " + size);
            }
            this.size = size;
            this.from = from;
            this.to = to;
            this.kinds = kinds;
            this.durations = durations;
            this.labels = labels;
        }
    }

    EdgeList(CompletableFuture<Columns> future) {
        this.future = Objects.requireNonNull(future, "future");
    }

    /**
     * The edges as columns: the list itself when it is an {@code EdgeList} (a built graph's), else
     * its edges copied into columns (a graph read back or made by hand), so that a reader of many
     * edges goes by column either way, without an edge object per read.
     */
    public static EdgeList of(List<GraphEdge> edges) {
        if (edges instanceof EdgeList list) {
            return list;
        }
        int size = edges.size();
        String[] from = new String[size];
        String[] to = new String[size];
        byte[] kinds = new byte[size];
        long[] durations = new long[size];
        String[] labels = new String[size];
        for (int i = 0; i < size; i++) {
            GraphEdge e = edges.get(i);
            from[i] = e.from();
            to[i] = e.to();
            kinds[i] = (byte) e.kind().ordinal();
            durations[i] = e.durationNs();
            labels[i] = e.label();
        }
        return new EdgeList(CompletableFuture.completedFuture(new Columns(size, from, to, kinds, durations, labels)));
    }

    private Columns columns() {
        Columns c = value;
        if (c == null) {
            c = join(future);
            value = c;
        }
        return c;
    }

    @Override
    public GraphEdge get(int index) {
        Columns c = columns();
        Objects.checkIndex(index, c.size);
        return new GraphEdge(c.from[index], c.to[index], KINDS[c.kinds[index]], c.durations[index], c.labels[index]);
    }

    /** The columns, once {@code index} is known to be an edge's. */
    private Columns at(int index) {
        Columns c = columns();
        Objects.checkIndex(index, c.size);
        return c;
    }

    @Override
    public int size() {
        return columns().size;
    }

    /** The {@link GraphEdge#from()} of the edge at {@code index}. */
    public String from(int index) {
        return at(index).from[index];
    }

    /** The {@link GraphEdge#to()} of the edge at {@code index}. */
    public String to(int index) {
        return at(index).to[index];
    }

    /** The {@link GraphEdge#kind()} of the edge at {@code index}. */
    public GraphEdgeKind kind(int index) {
        return KINDS[at(index).kinds[index]];
    }

    /** The {@link GraphEdge#durationNs()} of the edge at {@code index}. */
    public long durationNs(int index) {
        return at(index).durations[index];
    }

    /** The {@link GraphEdge#label()} of the edge at {@code index} ({@code null} when absent). */
    public String label(int index) {
        return at(index).labels[index];
    }
}
