package io.tracegraph.domain.graph;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The semantic path of every node: the names from the root down, joined by {@code /} (for example
 * {@code loss/Encoder::forward/matmul}), which matches the same span or op across runs whatever
 * their ids, together with the node's depth (root = 0) and a 64-bit hash of the full path.
 *
 * <p>The hash is exact and stable across versions: {@code h(root) = mix(SEED, name)},
 * {@code h(node) = mix(h(parent), name)}. The text is kept whole up to {@link #MAX_PATH_CHARS}
 * characters; a longer one (trees thousands of levels deep) keeps its last components behind a
 * {@code …/} prefix, so that storage stays linear in the number of nodes.
 */
public final class SemanticPaths {
    /** Longest path text kept whole. */
    public static final int MAX_PATH_CHARS = 1000;
    static final String ELLIPSIS = "\u2026/";
    private static final long SEED = 0x7472616365677261L;

    private final int[] depth;
    private final String[] path;
    private final long[] hash;

    private SemanticPaths(int[] depth, String[] path, long[] hash) {
        this.depth = depth;
        this.path = path;
        this.hash = hash;
    }

    /** Paths of every node of the graph, in node order; linear in the number of nodes. */
    public static SemanticPaths of(List<GraphNode> nodes) {
        int n = nodes.size();
        Map<String, Integer> index = new HashMap<>(n * 2);
        for (int i = 0; i < n; i++) {
            index.putIfAbsent(nodes.get(i).id(), i);
        }
        int[] parent = new int[n];
        int[] firstChild = new int[n];
        int[] nextSibling = new int[n];
        Arrays.fill(firstChild, -1);
        for (int i = n - 1; i >= 0; i--) {
            String parentId = nodes.get(i).parentId();
            Integer p = parentId == null ? null : index.get(parentId);
            parent[i] = p == null || p == i ? -1 : p;
            if (parent[i] >= 0) {
                nextSibling[i] = firstChild[parent[i]];
                firstChild[parent[i]] = i;
            }
        }
        int[] depth = new int[n];
        String[] path = new String[n];
        long[] hash = new long[n];
        boolean[] done = new boolean[n];
        int[] queue = new int[n];
        for (int root = 0; root < n; root++) {
            if (parent[root] >= 0) {
                continue;
            }
            int tail = 0;
            queue[tail++] = root;
            set(root, -1, nodes, depth, path, hash, done);
            for (int head = 0; head < tail; head++) {
                int i = queue[head];
                for (int c = firstChild[i]; c >= 0; c = nextSibling[c]) {
                    if (!done[c]) {
                        set(c, i, nodes, depth, path, hash, done);
                        queue[tail++] = c;
                    }
                }
            }
        }
        for (int i = 0; i < n; i++) {
            if (!done[i]) {
                // Only in a graph with a parent cycle, which the builder never produces.
                set(i, -1, nodes, depth, path, hash, done);
            }
        }
        return new SemanticPaths(depth, path, hash);
    }

    private static void set(int i, int parent, List<GraphNode> nodes, int[] depth, String[] path, long[] hash,
            boolean[] done) {
        String name = nodes.get(i).name();
        if (parent < 0) {
            depth[i] = 0;
            path[i] = clip(name);
            hash[i] = mix(SEED, name);
        } else {
            depth[i] = depth[parent] + 1;
            path[i] = join(path[parent], name);
            hash[i] = mix(hash[parent], name);
        }
        done[i] = true;
    }

    public int size() {
        return depth.length;
    }

    public int depth(int node) {
        return depth[node];
    }

    public String path(int node) {
        return path[node];
    }

    public long hash(int node) {
        return hash[node];
    }

    /** The hash of a full path given as its components, root first. */
    public static long hashOf(List<String> names) {
        long h = SEED;
        for (String name : names) {
            h = mix(h, name);
        }
        return h;
    }

    private static String join(String parentPath, String name) {
        if (parentPath.length() + 1 + name.length() <= MAX_PATH_CHARS) {
            return parentPath + "/" + name;
        }
        return clip(parentPath + "/" + name);
    }

    /** Keeps the last components that fit behind the ellipsis. */
    private static String clip(String full) {
        if (full.length() <= MAX_PATH_CHARS) {
            return full;
        }
        int budget = MAX_PATH_CHARS - ELLIPSIS.length();
        int from = full.length() - budget;
        int slash = full.indexOf('/', from);
        String tail = slash >= 0 && slash + 1 < full.length() ? full.substring(slash + 1) : full.substring(from);
        if (tail.startsWith(ELLIPSIS)) {
            return tail;
        }
        return ELLIPSIS + tail;
    }

    private static long mix(long parentHash, String name) {
        long h = 0xcbf29ce484222325L;
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        return fmix(parentHash * 0x9E3779B97F4A7C15L + h);
    }

    private static long fmix(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }
}
