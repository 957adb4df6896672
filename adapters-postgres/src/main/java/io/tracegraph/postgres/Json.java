package io.tracegraph.postgres;

import java.util.Map;

/** The little JSON the store writes into jsonb columns: flat objects of strings and numbers. */
final class Json {
    private Json() {
    }

    static String object(Map<String, String> entries) {
        StringBuilder json = new StringBuilder("{");
        entries.forEach((k, v) -> {
            if (json.length() > 1) {
                json.append(',');
            }
            json.append(string(k)).append(':').append(string(v));
        });
        return json.append('}').toString();
    }

    /** Pairs of name and value (a String, a Number or null), in order. */
    static String object(Object[][] pairs) {
        StringBuilder json = new StringBuilder("{");
        for (Object[] pair : pairs) {
            if (json.length() > 1) {
                json.append(',');
            }
            json.append(string((String) pair[0])).append(':');
            Object v = pair[1];
            json.append(v == null ? "null" : v instanceof Number ? v.toString() : string(v.toString()));
        }
        return json.append('}').toString();
    }

    static String string(String s) {
        StringBuilder out = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"': out.append("\\\""); break;
                case '\\': out.append("\\\\"); break;
                case '\n': out.append("\\n"); break;
                case '\r': out.append("\\r"); break;
                case '\t': out.append("\\t"); break;
                case 0: out.append("\\ufffd"); break;
                default:
                    if (c < 0x20 || Character.isSurrogate(c) && !validPair(s, i)) {
                        out.append(String.format("\\u%04x", Character.isSurrogate(c) ? 0xfffd : (int) c));
                    } else {
                        out.append(c);
                    }
            }
        }
        return out.append('"').toString();
    }

    private static boolean validPair(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
        }
        return i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
    }
}
