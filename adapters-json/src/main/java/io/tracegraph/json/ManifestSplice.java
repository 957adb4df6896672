package io.tracegraph.json;

import io.tracegraph.domain.trace.ExpectedGradient;
import io.tracegraph.domain.trace.FamilyExpectation;
import io.tracegraph.domain.trace.GradientFamily;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The gradient manifest of a trace/9+ meta line ({@code capture_contract.gradient_contract.expected},
 * one entry per trainable parameter: 100k entries and 8 MB for a big model, and the {@code families}
 * after it, one per layer), read straight from the line's bytes, and the line with empty arrays in
 * their place for {@link RecordDecoder} to read the rest. Read by Jackson, the manifest was the
 * only thing of a build that made the parser's and the record decoder's methods hot: the JIT
 * compiled them (~0.2 s of C2's CPU on a 1M-op trace/10 build) while they ran slowly for one line,
 * and never needed them again.
 *
 * <p>Only the producer's own spelling is read here: entries {@code {"root":…,"key":…,"family":…}}
 * and families {@code {"family":…,"expectation":…,"min_present":…}} right after them, without
 * spaces, their strings printable ASCII without escapes, the expectation one of its spellings and
 * the minimum plain digits (the families are left in the line when spelled otherwise). Anything
 * else, or a line where the decoder does not meet the empty arrays at {@link #arrayOffset()} and
 * {@link #familiesOffset()} as those very members, is read by Jackson as written (the caller's
 * fallback), so every value and every error stays Jackson's.
 */
final class ManifestSplice {
    /** Shorter meta lines are read by Jackson alone: the splice would save little. */
    static final int MIN_LINE_BYTES = 1 << 16;
    private static final byte[] META = ascii("{\"kind\":\"meta\"");
    private static final byte[] MEMBER = ascii("\"expected\":[{\"root\":\"");
    private static final byte[] ROOT = ascii("{\"root\":\"");
    private static final byte[] KEY = ascii("\",\"key\":\"");
    private static final byte[] FAMILY = ascii("\",\"family\":\"");
    private static final byte[] FAMILIES = ascii(",\"families\":[{\"family\":\"");
    private static final byte[] FAMILY_START = ascii("{\"family\":\"");
    private static final byte[] EXPECTATION = ascii("\",\"expectation\":\"");
    private static final byte[] MIN_PRESENT = ascii("\",\"min_present\":");
    private static final byte[][] EXPECTATIONS = {ascii("active"), ascii("inactive"), ascii("data_conditional")};
    private static final FamilyExpectation[] EXPECTATION_VALUES = {FamilyExpectation.ACTIVE,
        FamilyExpectation.INACTIVE, FamilyExpectation.DATA_CONDITIONAL};

    private final byte[] line;
    private final int arrayOffset;
    /** Where the emptied families' array begins in {@link #line}, or -1 when they are left in the line. */
    private final int familiesOffset;
    private final List<ExpectedGradient> expected;
    /** The families, or {@code null} when they are left in the line. */
    private final List<GradientFamily> families;
    private boolean taken;
    private boolean familiesTaken;

    private ManifestSplice(byte[] line, int arrayOffset, int familiesOffset, List<ExpectedGradient> expected,
            List<GradientFamily> families) {
        this.line = line;
        this.arrayOffset = arrayOffset;
        this.familiesOffset = familiesOffset;
        this.expected = expected;
        this.families = families;
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
        // The families, when they follow in the producer's spelling: from their '[' to after their ']'.
        List<GradientFamily> families = null;
        int familiesOpen = close + FAMILIES.length - FAMILY_START.length - 1;
        int familiesClose = familiesOpen;
        if (startsWith(buf, close, end, FAMILIES)) {
            reader.pos = familiesOpen + 1;
            families = reader.families();
            familiesClose = families == null ? familiesOpen : reader.pos;
        }
        int cut = (close - open - 2) + (families == null ? 0 : familiesClose - familiesOpen - 2);
        byte[] line = new byte[length - cut];
        int head = open - offset;
        System.arraycopy(buf, offset, line, 0, head);
        line[head] = '[';
        line[head + 1] = ']';
        int at = head + 2;
        int familiesAt = -1;
        if (families != null) {
            System.arraycopy(buf, close, line, at, familiesOpen - close);
            at += familiesOpen - close;
            familiesAt = at;
            line[at] = '[';
            line[at + 1] = ']';
            at += 2;
            close = familiesClose;
        }
        System.arraycopy(buf, close, line, at, end - close);
        return new ManifestSplice(line, head, familiesAt, Collections.unmodifiableList(expected),
                families == null ? null : Collections.unmodifiableList(families));
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

    /** Where the emptied families' array begins in {@link #line()}, or -1 when they are left in the line. */
    int familiesOffset() {
        return familiesOffset;
    }

    /** The families, for the decoder that met their emptied array where they were. */
    List<GradientFamily> takeFamilies() {
        familiesTaken = true;
        return families;
    }

    /** Whether the decoder took all that was cut out: when not, the line must be read as written. */
    boolean taken() {
        return taken && (families == null || familiesTaken);
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
        @SuppressWarnings("unchecked")
        List<ExpectedGradient> entries() {
            return (List<ExpectedGradient>) elements(true);
        }

        /** The families, or {@code null} when they are not spelled as the producer writes them. */
        @SuppressWarnings("unchecked")
        List<GradientFamily> families() {
            return (List<GradientFamily>) elements(false);
        }

        /**
         * The entries ({@code entries}) or families up to the array's ']' (read past), or {@code null}
         * when one is not spelled so. (Told by a flag, not a Supplier: a lambda's own method was one
         * more compilation for C2 to make.)
         */
        private List<?> elements(boolean entries) {
            List<Object> elements = new ArrayList<>();
            while (true) {
                Object next = entries ? entry() : family();
                if (next == null || pos >= end) {
                    return null;
                }
                elements.add(next);
                byte c = b[pos++];
                if (c == ']') {
                    return elements;
                }
                if (c != ',') {
                    return null;
                }
            }
        }

        private GradientFamily family() {
            if (!literal(FAMILY_START)) {
                return null;
            }
            int nameStart = pos;
            int nameEnd = plain();
            if (nameEnd < 0 || !literal(EXPECTATION)) {
                return null;
            }
            int expectation = -1;
            for (int k = 0; k < EXPECTATIONS.length && expectation < 0; k++) {
                if (startsWith(b, pos, end, EXPECTATIONS[k]) && pos + EXPECTATIONS[k].length < end
                        && b[pos + EXPECTATIONS[k].length] == '"') {
                    expectation = k;
                }
            }
            if (expectation < 0) {
                return null;
            }
            pos += EXPECTATIONS[expectation].length;
            if (!literal(MIN_PRESENT)) {
                return null;
            }
            long minPresent = digits();
            if (minPresent < 0 || pos >= end || b[pos] != '}') {
                return null;
            }
            pos++;
            return new GradientFamily(text(nameStart, nameEnd), EXPECTATION_VALUES[expectation], minPresent);
        }

        /** A number of plain digits without a leading zero (at most 18: no overflow), or -1. */
        private long digits() {
            int start = pos;
            long value = 0;
            while (pos < end && b[pos] >= '0' && b[pos] <= '9' && pos - start < 18) {
                value = value * 10 + (b[pos] - '0');
                pos++;
            }
            int count = pos - start;
            if (count == 0 || (count > 1 && b[start] == '0') || (pos < end && b[pos] >= '0' && b[pos] <= '9')) {
                return -1;
            }
            return value;
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
        return end - at >= text.length && Arrays.equals(buf, at, at + text.length, text, 0, text.length);
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
