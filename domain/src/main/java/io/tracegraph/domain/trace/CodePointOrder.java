package io.tracegraph.domain.trace;

import java.util.Comparator;

/**
 * Orders strings by Unicode code point, which equals the byte order of their UTF-8 encoding (the
 * order of the original's sorts). {@link String#compareTo} compares UTF-16 units and disagrees for
 * supplementary characters versus U+E000..U+FFFF.
 */
public final class CodePointOrder {
    public static final Comparator<String> COMPARATOR = CodePointOrder::compare;

    private CodePointOrder() {
    }

    public static int compare(String left, String right) {
        int n = Math.min(left.length(), right.length());
        for (int i = 0; i < n; i++) {
            char a = left.charAt(i);
            char b = right.charAt(i);
            if (a != b) {
                if (a >= Character.MIN_SURROGATE && b >= Character.MIN_SURROGATE) {
                    return fix(a) - fix(b);
                }
                return a - b;
            }
        }
        return left.length() - right.length();
    }

    /** Moves surrogates above U+E000..U+FFFF, which is where the code points they encode sort. */
    private static int fix(char c) {
        return c >= 0xE000 ? c - 0x800 : c + 0x2000;
    }
}
