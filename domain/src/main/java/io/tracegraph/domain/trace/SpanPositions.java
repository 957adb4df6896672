package io.tracegraph.domain.trace;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * The position of each span in a document's list by its id (a later duplicate takes the id), as
 * the health checks and the graph builder look spans up. Readers that number their spans (the
 * PyTorch reader's ids are the position zero-padded to one width: {@code 0000}, {@code 0001}, ...)
 * get a map that reads the position from the id's digits: no hash map of millions of entries to
 * fill, box and collect. Any other ids get a {@link HashMap}. Both answer every lookup alike.
 */
public final class SpanPositions {
    private SpanPositions() {
    }

    /** Span id → position; read-only. */
    public static Map<String, Integer> byId(List<SpanRecord> spans) {
        int n = spans.size();
        if (n > 0 && numbered(spans)) {
            return new Numbered(spans, spans.get(0).id().length());
        }
        Map<String, Integer> index = new HashMap<>(n * 2);
        for (int i = 0; i < n; i++) {
            index.put(spans.get(i).id(), i);
        }
        return index;
    }

    /** Whether every span's id is its position in decimal digits, zero-padded to one width. */
    private static boolean numbered(List<SpanRecord> spans) {
        int n = spans.size();
        int width = spans.get(0).id().length();
        if (width == 0 || width > 9 || Integer.toString(n - 1).length() > width) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (position(spans.get(i).id(), width) != i) {
                return false;
            }
        }
        return true;
    }

    /** The number an id of {@code width} decimal digits spells, or -1. */
    private static int position(String id, int width) {
        if (id.length() != width) {
            return -1;
        }
        int v = 0;
        for (int k = 0; k < width; k++) {
            char c = id.charAt(k);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    /** Ids that are their positions: a lookup parses the id. */
    private static final class Numbered extends AbstractMap<String, Integer> {
        private final List<SpanRecord> spans;
        private final int width;

        Numbered(List<SpanRecord> spans, int width) {
            this.spans = spans;
            this.width = width;
        }

        @Override
        public Integer get(Object key) {
            if (!(key instanceof String id)) {
                return null;
            }
            int p = position(id, width);
            return p >= 0 && p < spans.size() ? p : null;
        }

        @Override
        public boolean containsKey(Object key) {
            return get(key) != null;
        }

        @Override
        public int size() {
            return spans.size();
        }

        @Override
        public Set<String> keySet() {
            return new AbstractSet<>() {
                @Override
                public boolean contains(Object o) {
                    return containsKey(o);
                }

                @Override
                public Iterator<String> iterator() {
                    return new Positions<>(spans.size()) {
                        @Override
                        String at(int i) {
                            return spans.get(i).id();
                        }
                    };
                }

                @Override
                public int size() {
                    return spans.size();
                }
            };
        }

        @Override
        public Set<Entry<String, Integer>> entrySet() {
            return new AbstractSet<>() {
                @Override
                public Iterator<Entry<String, Integer>> iterator() {
                    return new Positions<>(spans.size()) {
                        @Override
                        Entry<String, Integer> at(int i) {
                            return new SimpleImmutableEntry<>(spans.get(i).id(), i);
                        }
                    };
                }

                @Override
                public int size() {
                    return spans.size();
                }
            };
        }
    }

    private abstract static class Positions<T> implements Iterator<T> {
        private final int n;
        private int next;

        Positions(int n) {
            this.n = n;
        }

        abstract T at(int i);

        @Override
        public boolean hasNext() {
            return next < n;
        }

        @Override
        public T next() {
            if (next >= n) {
                throw new NoSuchElementException();
            }
            return at(next++);
        }
    }
}
