package io.tracegraph.json;

import io.tracegraph.domain.trace.ExpectedGradient;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The gradient manifest of a trace/9+ meta line ({@code capture_contract.gradient_contract.expected},
 * one entry per trainable parameter: 100k entries and 8 MB for a big model), read straight from the
 * line's bytes, and the line with an empty array in its place for {@link RecordDecoder} to read the
 * rest. Read by Jackson, the manifest was the only thing of a build that made the parser's and the
 * record decoder's methods hot: the JIT compiled them (~0.2 s of C2's CPU on a 1M-op trace/10
 * build) while they ran slowly for one line, and never needed them again.
 *
 * <p>Only the producer's own spelling is read here: entries {@code {"root":…,"key":…,"family":…}}
 * without spaces, their strings printable ASCII without escapes. Anything else, or a line where
 * the decoder does not meet the empty array at {@link #arrayOffset()} as that very member, is read
 * by Jackson as written (the caller's fallback), so every value and every error stays Jackson's.
 */
final class ManifestSplice {
    /** Shorter meta lines are read by Jackson alone: the splice would save little. */
    static final int MIN_LINE_BYTES = 1 << 16;
    private static final byte[] META = ascii("{\"kind\":\"meta\"");
    private static final byte[] MEMBER = ascii("\"expected\":[{\"root\":\"");
    private static final byte[] ROOT = ascii("{\"root\":\"");
    private static final byte[] KEY = ascii("\",\"key\":\"");
    private static final byte[] FAMILY = ascii("\",\"family\":\"");

    private final byte[] line;
    private final int arrayOffset;
    private final List<ExpectedGradient> expected;
    private boolean taken;

    private ManifestSplice(byte[] line, int arrayOffset, List<ExpectedGradient> expected) {
        this.line = line;
        this.arrayOffset = arrayOffset;
        this.expected = expected;
    }

    /**
     * The splice of the meta line in {@code buf[offset, offset + length)}, or {@code null} when it
     * is no meta line, shorter than {@link #MIN_LINE_BYTES}, or its manifest is not spelled as the
     * producer writes it.
     */
    static ManifestSplice of(byte[] buf, int offset, int length) {
        int end = offset + length;
        if (length < MIN_LINE_BYTES || !startsWith(buf, offset, end, META)) {
            return null;
        }
        int member = indexOf(buf, offset, end, MEMBER);
        if (member < 0) {
            return null;
        }
        int open = member + MEMBER.length - ROOT.length - 1;    // the array's '['
        Reader reader = new Reader(buf, open + 1, end);
        List<ExpectedGradient> expected = reader.entries();
        if (expected == null) {
            return null;
        }
        int close = reader.pos;    // after the array's ']'
        byte[] line = new byte[length - (close - open) + 2];
        int head = open - offset;
        System.arraycopy(buf, offset, line, 0, head);
        line[head] = '[';
        line[head + 1] = ']';
        System.arraycopy(buf, close, line, head + 2, end - close);
        return new ManifestSplice(line, head, Collections.unmodifiableList(expected));
    }

    /** The line with the manifest's array emptied. */
    byte[] line() {
        return line;
    }

    /** Where the emptied array begins in {@link #line()}. */
    int arrayOffset() {
        return arrayOffset;
    }

    /** The manifest's entries, for the decoder that met the emptied array where the manifest was. */
    List<ExpectedGradient> take() {
        taken = true;
        return expected;
    }

    /** Whether the decoder took the entries: when not, the line must be read as written. */
    boolean taken() {
        return taken;
    }

    /** Reads entries from just after the array's '[' to just after its ']'. */
    private static final class Reader {
        private final byte[] b;
        private final int end;
        int pos;
        /** The previous entry's root and family: a manifest lists a root's and a family's entries together. */
        private String root = "";
        private String family = "";

        Reader(byte[] b, int pos, int end) {
            this.b = b;
            this.pos = pos;
            this.end = end;
        }

        /** The entries, or {@code null} when they are not spelled as the producer writes them. */
        List<ExpectedGradient> entries() {
            List<ExpectedGradient> entries = new ArrayList<>();
            while (true) {
                ExpectedGradient entry = entry();
                if (entry == null) {
                    return null;
                }
                entries.add(entry);
                if (pos >= end) {
                    return null;
                }
                byte c = b[pos++];
                if (c == ']') {
                    return entries;
                }
                if (c != ',') {
                    return null;
                }
            }
        }

        private ExpectedGradient entry() {
            if (!literal(ROOT)) {
                return null;
            }
            int rootStart = pos;
            int rootEnd = plain();
            if (rootEnd < 0 || !literal(KEY)) {
                return null;
            }
            int keyStart = pos;
            int keyEnd = plain();
            if (keyEnd < 0 || !literal(FAMILY)) {
                return null;
            }
            int familyStart = pos;
            int familyEnd = plain();
            if (familyEnd < 0 || pos + 1 >= end || b[pos] != '"' || b[pos + 1] != '}') {
                return null;
            }
            pos += 2;
            root = same(root, rootStart, rootEnd) ? root : text(rootStart, rootEnd);
            family = same(family, familyStart, familyEnd) ? family : text(familyStart, familyEnd);
            return new ExpectedGradient(root, text(keyStart, keyEnd), family);
        }

        /** The end of a string's content of printable ASCII without escapes (at its closing quote), or -1. */
        private int plain() {
            for (int i = pos; i < end; i++) {
                byte c = b[i];
                if (c == '"') {
                    pos = i;
                    return i;
                }
                if (c < 0x20 || c == '\\' || c == 0x7F) {    // negative: a non-ASCII byte
                    return -1;
                }
            }
            return -1;
        }

        private boolean literal(byte[] text) {
            if (!startsWith(b, pos, end, text)) {
                return false;
            }
            pos += text.length;
            return true;
        }

        private boolean same(String s, int start, int stop) {
            if (s.length() != stop - start) {
                return false;
            }
            for (int i = 0; i < s.length(); i++) {
                if (s.charAt(i) != b[start + i]) {
                    return false;
                }
            }
            return true;
        }

        private String text(int start, int stop) {
            return new String(b, start, stop - start, StandardCharsets.ISO_8859_1);
        }
    }

    private static boolean startsWith(byte[] buf, int at, int end, byte[] text) {
        if (end - at < text.length) {
            return false;
        }
        for (int i = 0; i < text.length; i++) {
            if (buf[at + i] != text[i]) {
                return false;
            }
        }
        return true;
    }

    private static int indexOf(byte[] buf, int from, int end, byte[] text) {
        byte first = text[0];
        for (int i = from, last = end - text.length; i <= last; i++) {
            if (buf[i] == first && startsWith(buf, i, end, text)) {
                return i;
            }
        }
        return -1;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
