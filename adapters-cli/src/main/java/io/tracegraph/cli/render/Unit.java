package io.tracegraph.cli.render;

import java.util.Locale;

/**
 * What the numbers of a column or fact measure, which decides how a person sees them. The JSON and
 * CSV names of listings end with their unit ({@code self_time_ns}, {@code peak_bytes},
 * {@code total_ms}, {@code change_percent}), so {@link #ofName} reads it from there; a listing can
 * also say it (the columns of a memory timeline are named by category).
 */
public enum Unit {
    /** Nanoseconds: {@code 1.23 ms}. */
    NANOSECONDS,
    /** Milliseconds: {@code 1.23 s}. */
    MILLISECONDS,
    /** Bytes: {@code 199 MiB}. */
    BYTES,
    /** A relative change in percent, signed: {@code +12.3%}. */
    CHANGE_PERCENT,
    /** A percentage: {@code 5.0%}. */
    PERCENT,
    /** A ratio: {@code 1.23×}. */
    RATIO,
    /** A semantic path, shortened at a boundary. */
    PATH,
    /** An identifier (run, span, tensor): never reformatted, cut at its end when short of width. */
    ID,
    /** Free text (names, messages): cut at its end when short of width. */
    TEXT,
    /** Anything else: integers plain, other numbers with three significant digits. */
    PLAIN;

    private static final java.util.Set<String> CATEGORIES = java.util.Set.of("activation", "gradient", "optimizer",
            "other", "parameter");

    /** The unit a listing's field name ends with (see the class comment); {@link #PLAIN} when none. */
    public static Unit ofName(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        if (n.equals("path")) {
            return PATH;
        }
        if (n.endsWith("_per_ns")) {
            return PLAIN;
        }
        if (n.endsWith("_percent")) {
            return n.startsWith("threshold") ? PERCENT : CHANGE_PERCENT;
        }
        if (n.endsWith("_ratio") || n.equals("ratio")) {
            return RATIO;
        }
        if (n.endsWith("_ns")) {
            return NANOSECONDS;
        }
        if (n.equals("total_ms") || n.endsWith("_ms") || n.startsWith("total_ms_")) {
            return MILLISECONDS;
        }
        // The memory timeline names a column of bytes by each category.
        if (n.equals("bytes") || n.endsWith("_bytes") || n.startsWith("bytes_") || n.contains("_bytes_")
                || CATEGORIES.contains(n)) {
            return BYTES;
        }
        if (n.equals("id") || n.endsWith("_id") || n.equals("from") || n.equals("to") || n.equals("base")
                || n.equals("candidate")) {
            return ID;
        }
        if (n.equals("name") || n.endsWith("_name") || n.equals("message") || n.equals("reason") || n.equals("label")
                || n.equals("entrypoint") || n.equals("tags") || n.equals("notes") || n.equals("note")
                || n.equals("source") || n.equals("key") || n.equals("root")) {
            return TEXT;
        }
        return PLAIN;
    }

    /** Whether a value of this unit is a change, shown with its sign (a name ending {@code _delta}). */
    static boolean isChange(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        return n.endsWith("_delta") || n.contains("_delta_");
    }

    /** {@code value} for a person: numbers in this unit, text as it is, {@code null} as nothing. */
    public String human(Object value, boolean change) {
        if (value == null) {
            return "";
        }
        if (value instanceof Boolean b) {
            return b ? "yes" : "no";
        }
        if (!(value instanceof Number number)) {
            return value.toString();
        }
        double d = number.doubleValue();
        switch (this) {
            case NANOSECONDS:
                return change ? HumanUnits.durationChange(d) : HumanUnits.duration(d);
            case MILLISECONDS:
                return change ? HumanUnits.durationChange(d * 1e6) : HumanUnits.durationMs(d);
            case BYTES:
                return change ? HumanUnits.bytesChange(d) : HumanUnits.bytes(d);
            case CHANGE_PERCENT:
                return HumanUnits.change(d);
            case PERCENT:
                return HumanUnits.percent(d);
            case RATIO:
                return HumanUnits.ratio(d);
            default:
                if (number instanceof Long || number instanceof Integer) {
                    return HumanUnits.count(number.longValue());
                }
                return HumanUnits.count(d);
        }
    }

    /** Whether the column is aligned to the right (numbers). */
    boolean numeric() {
        return this != PATH && this != ID && this != TEXT;
    }

    /**
     * A field name as a person reads it: words, not snake case, without the unit the values now
     * carry ({@code self_time_ns} is {@code self time}, {@code total_ms} is {@code total},
     * {@code bytes_change_percent} is {@code bytes change}).
     */
    public static String label(String name) {
        String n = name;
        for (String suffix : new String[] {"_ns", "_ms", "_percent"}) {
            // A rate keeps its unit: bytes_per_ns is "bytes per ns".
            if (n.endsWith(suffix) && n.length() > suffix.length() && !n.endsWith("_per" + suffix)) {
                n = n.substring(0, n.length() - suffix.length());
                break;
            }
        }
        n = n.replace("_ms_", "_").replace("_ns_", "_");
        return n.replace('_', ' ');
    }
}
