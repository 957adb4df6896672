package io.tracegraph.domain.trace;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * The few renderings of the original's (Rust) text that its messages show: {@code {:?}} of a
 * string and of a float, and {@code str::trim}. Kept in one place so every message quotes alike.
 */
public final class RustText {
    private RustText() {
    }

    /** Rust's {@code {:?}} quoting of a string: double quotes, {@code \"}, {@code \\}, {@code \n}, ... */
    public static String debugQuote(String s) {
        StringBuilder out = new StringBuilder(s.length() + 2).append('"');
        s.codePoints().forEach(cp -> {
            switch (cp) {
                case '"': out.append("\\\""); break;
                case '\\': out.append("\\\\"); break;
                case '\n': out.append("\\n"); break;
                case '\r': out.append("\\r"); break;
                case '\t': out.append("\\t"); break;
                case 0: out.append("\\0"); break;
                default:
                    if (Character.isISOControl(cp)) {
                        out.append("\\u{").append(Integer.toHexString(cp)).append('}');
                    } else {
                        out.appendCodePoint(cp);
                    }
            }
        });
        return out.append('"').toString();
    }

    /** {@code str::trim}: strips the Unicode White_Space set from both ends. */
    public static String trim(String s) {
        return StorageBytes.unicodeTrim(s);
    }

    /** Whether {@code s} is empty after {@link #trim}. */
    public static boolean isBlank(String s) {
        return trim(s).isEmpty();
    }

    /** Rust's {@code {:?}} of an {@code Option<f64>}: {@code None} or {@code Some(<f64 debug>)}. */
    public static String debugOption(Double value) {
        return value == null ? "None" : "Some(" + debugFloat(value) + ")";
    }

    /**
     * Rust's {@code {:?}} of an {@code f64}: the shortest decimal that reads back as the same
     * value, in plain notation with at least one fractional digit when 1e-4 <= |x| < 1e16 (and for
     * zero), otherwise in exponent notation ({@code 1e-7}, {@code 1.5e16}).
     */
    public static String debugFloat(double x) {
        if (Double.isNaN(x)) {
            return "NaN";
        }
        if (Double.isInfinite(x)) {
            return x > 0 ? "inf" : "-inf";
        }
        if (x == 0) {
            return (Double.doubleToRawLongBits(x) < 0 ? "-" : "") + "0.0";
        }
        BigDecimal shortest = shortest(x);
        double abs = Math.abs(x);
        if (abs >= 1e-4 && abs < 1e16) {
            String plain = shortest.toPlainString();
            return plain.indexOf('.') < 0 ? plain + ".0" : plain;
        }
        BigDecimal unscaled = new BigDecimal(shortest.unscaledValue());
        String digits = unscaled.abs().toPlainString();
        int exponent = digits.length() - 1 - shortest.scale();
        String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
        return (x < 0 ? "-" : "") + mantissa + "e" + exponent;
    }

    private static BigDecimal shortest(double x) {
        BigDecimal exact = new BigDecimal(x);
        for (int digits = 1; digits <= 17; digits++) {
            BigDecimal candidate = exact.round(new MathContext(digits, RoundingMode.HALF_EVEN));
            if (candidate.doubleValue() == x) {
                return candidate.stripTrailingZeros();
            }
        }
        return exact.round(new MathContext(17, RoundingMode.HALF_EVEN)).stripTrailingZeros();
    }
}
