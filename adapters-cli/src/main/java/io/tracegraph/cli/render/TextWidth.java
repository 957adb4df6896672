package io.tracegraph.cli.render;

/**
 * How many terminal columns text takes, and text cut to a number of them: at the end
 * ({@code Attention::for…}), at the start, or for a semantic path at a path boundary from the left
 * ({@code …/Attention::forward/softmax}), so that the leaf, which names the span, stays.
 */
public final class TextWidth {
    /** The mark of text left out. */
    public static final String ELLIPSIS = "…";

    private TextWidth() {
    }

    /**
     * Columns {@code text} takes on a terminal: combining marks, format characters and escape
     * sequences (the colours of {@link Style}) none, East Asian wide and full-width characters (and
     * most emoji) two, every other code point one.
     */
    public static int of(String text) {
        int width = 0;
        for (int i = 0; i < text.length(); ) {
            if (text.charAt(i) == '\u001b' && i + 1 < text.length() && text.charAt(i + 1) == '[') {
                // A colour (SGR) sequence of our own Style takes no column.
                int end = i + 2;
                while (end < text.length() && (text.charAt(end) < '@' || text.charAt(end) > '~')) {
                    end++;
                }
                i = end + 1;
                continue;
            }
            int cp = text.codePointAt(i);
            width += columns(cp);
            i += Character.charCount(cp);
        }
        return width;
    }

    static int columns(int cp) {
        int type = Character.getType(cp);
        if (type == Character.NON_SPACING_MARK || type == Character.ENCLOSING_MARK || type == Character.FORMAT
                || cp == 0x200b) {
            return 0;
        }
        boolean wide = cp >= 0x1100 && cp <= 0x115f || cp >= 0x2e80 && cp <= 0xa4cf && cp != 0x303f
                || cp >= 0xac00 && cp <= 0xd7a3 || cp >= 0xf900 && cp <= 0xfaff || cp >= 0xfe30 && cp <= 0xfe4f
                || cp >= 0xff00 && cp <= 0xff60 || cp >= 0xffe0 && cp <= 0xffe6 || cp >= 0x1f300 && cp <= 0x1f64f
                || cp >= 0x1f900 && cp <= 0x1f9ff || cp >= 0x20000 && cp <= 0x3fffd;
        return wide ? 2 : 1;
    }

    /** {@code text} padded with spaces to {@code width} columns, on the right or (numbers) on the left. */
    public static String pad(String text, int width, boolean right) {
        int fill = width - of(text);
        if (fill <= 0) {
            return text;
        }
        return right ? " ".repeat(fill) + text : text + " ".repeat(fill);
    }

    /** {@code text} in at most {@code width} columns, its end replaced by {@code …} when cut. */
    public static String clipEnd(String text, int width) {
        if (of(text) <= width) {
            return text;
        }
        if (width <= 0) {
            return "";
        }
        StringBuilder kept = new StringBuilder();
        int used = 0;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            int w = columns(cp);
            if (used + w > width - 1) {
                break;
            }
            kept.appendCodePoint(cp);
            used += w;
            i += Character.charCount(cp);
        }
        return kept.append(ELLIPSIS).toString();
    }

    /** {@code text} in at most {@code width} columns, its start replaced by {@code …} when cut. */
    public static String clipStart(String text, int width) {
        if (of(text) <= width) {
            return text;
        }
        if (width <= 0) {
            return "";
        }
        int used = 0;
        int from = text.length();
        while (from > 0) {
            int cp = text.codePointBefore(from);
            int w = columns(cp);
            if (used + w > width - 1) {
                break;
            }
            used += w;
            from -= Character.charCount(cp);
        }
        return ELLIPSIS + text.substring(from);
    }

    /**
     * A semantic path ({@code a/b/c}) in at most {@code width} columns: whole when it fits, else its
     * longest tail that starts at a component and fits behind {@code …/}; when not even the leaf
     * fits, the leaf's beginning behind {@code …/}, cut at its end ({@code …/AdamW::update[emb…}).
     */
    public static String shortenPath(String path, int width) {
        if (of(path) <= width) {
            return path;
        }
        int slash = path.indexOf('/');
        while (slash >= 0) {
            String tail = path.substring(slash + 1);
            if (!tail.isEmpty() && of(tail) + 2 <= width) {
                return ELLIPSIS + "/" + tail;
            }
            slash = path.indexOf('/', slash + 1);
        }
        if (width < 4) {
            return clipEnd(path, width);
        }
        return ELLIPSIS + "/" + clipEnd(path.substring(path.lastIndexOf('/') + 1), width - 2);
    }

    /**
     * Each of {@code paths} shortened as {@link #shortenPath} does, except where two different
     * paths would then read the same ({@code …/attn/softmax} for two layers): each of those keeps,
     * behind the tail, the nearest component that tells it apart from the others
     * ({@code …/layer_1/…/attn/softmax}), the tail giving way down to the leaf, when that fits.
     */
    public static java.util.List<String> shortenPaths(java.util.List<String> paths, int width) {
        java.util.List<String> shown = new java.util.ArrayList<>(paths.size());
        java.util.Map<String, java.util.List<Integer>> readers = new java.util.HashMap<>();
        for (int i = 0; i < paths.size(); i++) {
            String s = shortenPath(paths.get(i), width);
            shown.add(s);
            readers.computeIfAbsent(s, k -> new java.util.ArrayList<>()).add(i);
        }
        for (java.util.List<Integer> same : readers.values()) {
            if (same.stream().map(paths::get).distinct().count() < 2) {
                continue;
            }
            java.util.List<String[]> parts = new java.util.ArrayList<>();
            for (int i : same) {
                parts.add(paths.get(i).split("/", -1));
            }
            java.util.List<String> told = new java.util.ArrayList<>(same.size());
            for (int m = 0; m < same.size(); m++) {
                told.add(toldApart(parts, m, shown.get(same.get(m)), width));
            }
            // Each that now reads differently from every other path of its group shows so; the rest as before.
            for (int m = 0; m < same.size(); m++) {
                boolean alone = true;
                for (int o = 0; o < same.size() && alone; o++) {
                    alone = !told.get(o).equals(told.get(m)) || paths.get(same.get(o)).equals(paths.get(same.get(m)));
                }
                if (alone) {
                    shown.set(same.get(m), told.get(m));
                }
            }
        }
        return shown;
    }

    /** Path {@code m} of {@code parts} with its nearest distinguishing component kept, or {@code fallback}. */
    private static String toldApart(java.util.List<String[]> parts, int m, String fallback, int width) {
        String[] own = parts.get(m);
        for (int fromEnd = 1; fromEnd < own.length; fromEnd++) {
            String component = own[own.length - 1 - fromEnd];
            boolean distinct = true;
            for (int o = 0; o < parts.size() && distinct; o++) {
                String[] other = parts.get(o);
                distinct = java.util.Arrays.equals(other, own) || other.length <= fromEnd
                        || !other[other.length - 1 - fromEnd].equals(component);
            }
            if (!distinct) {
                continue;
            }
            int at = own.length - 1 - fromEnd;
            String head = at == 0 ? component : ELLIPSIS + "/" + component;
            // The longest tail that fits behind it, down to the leaf alone. The leaf's own parent has
            // none: had …/parent/leaf fitted, shortenPath would already show it.
            for (int tailFrom = at + 2; tailFrom < own.length; tailFrom++) {
                String tail = String.join("/", java.util.Arrays.asList(own).subList(tailFrom, own.length));
                String candidate = head + "/" + ELLIPSIS + "/" + tail;
                if (of(candidate) <= width) {
                    return candidate;
                }
            }
            return fallback;
        }
        return fallback;
    }

    /**
     * {@code text} broken into lines of at most {@code width} columns at spaces; a word longer
     * than the width is cut with {@code …}. Later lines start with {@code indent}.
     */
    public static java.util.List<String> wrap(String text, int width, String indent) {
        java.util.List<String> lines = new java.util.ArrayList<>();
        int leading = 0;
        while (leading < text.length() && text.charAt(leading) == ' ') {
            leading++;
        }
        StringBuilder line = new StringBuilder(text.substring(0, Math.min(leading, Math.max(0, width - 1))));
        int used = line.length();
        int start = used;
        for (String word : text.substring(leading).split(" ")) {
            if (word.isEmpty()) {
                continue;
            }
            int w = of(word);
            int lead = lines.isEmpty() ? start : of(indent);
            if (used > 0 && used + 1 + w > width) {
                lines.add(line.toString());
                line.setLength(0);
                line.append(indent);
                used = of(indent);
                lead = used;
            }
            if (used > lead) {
                line.append(' ');
                used++;
            }
            String fitted = clipEnd(word, Math.max(1, width - used));
            line.append(fitted);
            used += of(fitted);
        }
        if (used > start || lines.isEmpty()) {
            lines.add(line.toString());
        }
        return lines;
    }
}
