package io.tracegraph.domain.graph;

import static io.tracegraph.domain.task.Tasks.join;

import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;
import java.util.concurrent.CompletableFuture;

/**
 * An immutable list still being computed on another thread: the first read waits for it (a
 * failure is thrown as the computation threw it). The graph builder hands the edges over this way,
 * so that what reads the nodes first (the graph writer writes them before the edges) starts while
 * the edges are still being sorted.
 */
final class PendingList<E> extends AbstractList<E> implements RandomAccess {
    private final CompletableFuture<List<E>> future;
    /** The list once taken from the future (immutable, so a racy read sees it whole or not at all). */
    private List<E> value;

    PendingList(CompletableFuture<List<E>> future) {
        this.future = future;
    }

    private List<E> list() {
        List<E> v = value;
        if (v == null) {
            v = join(future);
            value = v;
        }
        return v;
    }

    @Override
    public E get(int index) {
        return list().get(index);
    }

    @Override
    public int size() {
        return list().size();
    }
}
