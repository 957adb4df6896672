package io.tracegraph.cli.render;

import io.tracegraph.domain.compare.Verdict;

/**
 * The one vocabulary of verdicts, in the CLI's tables, JSON, CSV, Markdown and the HTML reports:
 * a time is {@code slower}, {@code faster}, {@code unchanged} or {@code inconclusive}; a size
 * (bytes, memory peak) is {@code bigger}, {@code smaller}, {@code unchanged} or
 * {@code inconclusive}. Regressions are red, improvements green, inconclusive dim.
 */
public final class VerdictWords {
    /** What a verdict is about. */
    public enum Quantity { TIME, SIZE }

    private VerdictWords() {
    }

    /** The verdict about a time. */
    public static String time(Verdict verdict) {
        return word(verdict, Quantity.TIME);
    }

    /** The verdict about a size. */
    public static String size(Verdict verdict) {
        return word(verdict, Quantity.SIZE);
    }

    public static String word(Verdict verdict, Quantity quantity) {
        switch (verdict) {
            case SLOWER:
                return quantity == Quantity.TIME ? "slower" : "bigger";
            case FASTER:
                return quantity == Quantity.TIME ? "faster" : "smaller";
            case UNCHANGED:
                return "unchanged";
            default:
                return "inconclusive";
        }
    }

    /** How a verdict looks on a colour terminal. */
    public static Style style(Verdict verdict) {
        switch (verdict) {
            case SLOWER:
                return Style.BAD;
            case FASTER:
                return Style.GOOD;
            case INCONCLUSIVE:
                return Style.DIM;
            default:
                return Style.PLAIN;
        }
    }

    /** How a verdict already spelled as a word looks: a regression red, an improvement green, inconclusive dim. */
    public static Style styleOfWord(String word) {
        switch (word) {
            case "slower":
            case "bigger":
                return Style.BAD;
            case "faster":
            case "smaller":
                return Style.GOOD;
            case "inconclusive":
                return Style.DIM;
            default:
                return Style.PLAIN;
        }
    }
}
