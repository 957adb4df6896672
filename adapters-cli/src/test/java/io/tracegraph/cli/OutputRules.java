package io.tracegraph.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.tracegraph.cli.render.TextWidth;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The rules issue 14 sets for what listings print, checked on real output: on a terminal, no line
 * longer than its width, paths shortened at a boundary, numbers in their units; in every format,
 * no number with more than six significant decimals, no decimal comma, no {@code .0} on a byte or
 * count (nor on anything in JSON and CSV, whose integers are written as integers).
 */
final class OutputRules {
    private static final JsonFactory JSON = new JsonFactory();
    /** ISO-8601 instants (trace timestamps, import times), whose fractions are seconds, not our numbers. */
    private static final Pattern INSTANT = Pattern.compile("\\d{4}-\\d{2}-\\d{2}[T ][0-9:.]+(Z|[+-]\\d{2}(:?\\d{2})?)?");
    private static final Pattern DECIMAL = Pattern.compile("(?<![\\w.])-?\\d+\\.(\\d+)(?![\\w.])");
    private static final Pattern DECIMAL_COMMA = Pattern.compile("(?<![\\w,])\\d+,\\d+(?![\\w,])");
    private static final Pattern POINT_ZERO = Pattern.compile("(?<![\\w.])-?\\d+\\.0(?![\\d%])");
    private static final Pattern LIST = Pattern.compile("\\[[^\\]]*\\]");
    private static final Pattern RAW_NUMBER = Pattern.compile("(?<![\\w/.:#-])\\d{5,}(?![\\w/.:-])");

    private OutputRules() {
    }

    /** A terminal's output: fits {@code width}, paths cut at a boundary, no raw nanoseconds or bytes. */
    static void fitsTheTerminal(String label, String out, int width) {
        fitsTheTerminal(label, out, width, true);
    }

    /** As {@link #fitsTheTerminal(String, String, int)}; {@code units}: whether the columns are ours (not SQL's). */
    static void fitsTheTerminal(String label, String out, int width, boolean units) {
        assertThat(out).as(label).isNotEmpty();
        for (String line : out.split("\n", -1)) {
            assertThat(TextWidth.of(line)).as("%s, %d columns: %s", label, width, line).isLessThanOrEqualTo(width);
            assertThat(line).as("%s: no trailing blanks", label).isEqualTo(line.stripTrailing());
            int cut = line.indexOf('…');
            while (cut >= 0) {
                boolean atBoundary = cut + 1 >= line.length() || line.charAt(cut + 1) == '/'
                        || line.charAt(cut + 1) == ' ' || line.charAt(cut + 1) == ')';
                assertThat(atBoundary).as("%s: cut at a boundary: %s", label, line).isTrue();
                cut = line.indexOf('…', cut + 1);
            }
            if (units) {
                assertThat(line).as("%s: field names are words, units are on the values: %s", label, line)
                        .doesNotContain("_ns ", "_bytes ", "_ms ", "_percent ");
            }
        }
        Matcher raw = RAW_NUMBER.matcher(LIST.matcher(INSTANT.matcher(out).replaceAll("T")).replaceAll("[]"));
        if (units && raw.find()) {
            fail("%s: a raw number (%s) where a person reads units:%n%s", label, raw.group(), out);
        }
        numbersInText(label, out, true);
    }

    /** Text for people or a pipe's table: the number rules on every number in it. */
    static void numbersInText(String label, String out, boolean forPeople) {
        String text = LIST.matcher(INSTANT.matcher(out).replaceAll("T")).replaceAll("[]");
        Matcher decimal = DECIMAL.matcher(text);
        while (decimal.find()) {
            String digits = decimal.group(1).replaceFirst("^0+", "");
            assertThat(digits.length()).as("%s: more than six significant decimals in %s", label, decimal.group())
                    .isLessThanOrEqualTo(6);
        }
        Matcher comma = DECIMAL_COMMA.matcher(text);
        if (comma.find()) {
            fail("%s: a decimal comma (%s) in:%n%s", label, comma.group(), out);
        }
        Matcher zero = POINT_ZERO.matcher(text);
        if (zero.find()) {
            fail("%s: a trailing .0 (%s) in:%n%s", label, zero.group(), out);
        }
    }

    /** JSON: every number token by the rules; none written with a trailing {@code .0} or a comma. */
    static void numbersInJson(String label, String out) {
        try (JsonParser p = JSON.createParser(out)) {
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                if (t == JsonToken.VALUE_NUMBER_FLOAT) {
                    String text = p.getText();
                    assertThat(text).as("%s: %s", label, p.currentName()).doesNotEndWith(".0");
                    String mantissa = text.replaceFirst("[eE].*", "");
                    String fraction = mantissa.contains(".") ? mantissa.substring(mantissa.indexOf('.') + 1) : "";
                    assertThat(fraction.replaceFirst("^0+", "").length()).as("%s: %s = %s", label, p.currentName(), text)
                            .isLessThanOrEqualTo(6);
                } else if (t == JsonToken.VALUE_STRING && DECIMAL_COMMA.matcher(LIST.matcher(p.getText())
                        .replaceAll("[]")).matches()) {
                    fail("%s: a number with a decimal comma as a string: %s = %s", label, p.currentName(), p.getText());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(label, e);
        }
    }

    /** CSV (RFC 4180): every cell that is a number by the rules; no cell that is one with a decimal comma. */
    static void numbersInCsv(String label, String out) {
        for (String line : out.split("\r\n")) {
            for (String cell : cells(line)) {
                if (cell.matches("-?\\d+,\\d+")) {
                    fail("%s: a decimal comma in a cell: %s", label, cell);
                }
                if (cell.matches("-?\\d+\\.\\d+([eE][-+]?\\d+)?")) {
                    assertThat(cell).as(label).doesNotEndWith(".0");
                    String fraction = cell.replaceFirst("[eE].*", "").replaceFirst(".*\\.", "");
                    assertThat(fraction.replaceFirst("^0+", "").length()).as("%s: %s", label, cell)
                            .isLessThanOrEqualTo(6);
                }
            }
        }
    }

    private static List<String> cells(String line) {
        List<String> cells = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    cell.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    cell.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                cells.add(cell.toString());
                cell.setLength(0);
            } else {
                cell.append(c);
            }
        }
        cells.add(cell.toString());
        return cells;
    }
}
