package io.tracegraph.domain.trace;

import java.util.Locale;

/** Storage size derivation for op and tensor records that do not state it (spec 2.3). */
public final class StorageBytes {
    private StorageBytes() {
    }

    /** Element count times dtype size, saturating; 0 for an unknown dtype or a zero dimension. */
    public static long derive(Shape shape, String dtype) {
        long elements = shape.elementCount();
        if (elements == 0) {
            return 0;
        }
        return Saturating.mul(elements, dtypeSize(dtype));
    }

    /** Bytes per element; 0 when unknown. Trims Unicode white space and lower-cases ASCII first. */
    public static long dtypeSize(String dtype) {
        String normalized = unicodeTrim(dtype).toLowerCase(Locale.ROOT);
        switch (normalized) {
            case "u8": case "i8": case "bool": case "f8":
                return 1;
            case "u16": case "i16": case "f16": case "bf16":
                return 2;
            case "u32": case "i32": case "f32":
                return 4;
            case "u64": case "i64": case "f64":
                return 8;
            default:
                return 0;
        }
    }

    /** Rust's {@code str::trim}: strips the Unicode White_Space set from both ends. */
    static String unicodeTrim(String s) {
        int start = 0;
        int end = s.length();
        while (start < end && isWhiteSpace(s.charAt(start))) {
            start++;
        }
        while (end > start && isWhiteSpace(s.charAt(end - 1))) {
            end--;
        }
        return s.substring(start, end);
    }

    private static boolean isWhiteSpace(char c) {
        return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680
                || (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F
                || c == 0x205F || c == 0x3000;
    }
}
