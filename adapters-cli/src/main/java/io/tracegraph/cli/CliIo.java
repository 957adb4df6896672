package io.tracegraph.cli;

import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The process's standard streams as the commands see them: raw standard output for JSON, a
 * writer for text, standard error for the one-line errors, and whether a person is watching.
 */
public record CliIo(OutputStream stdout, PrintWriter out, PrintWriter err, boolean terminal) {
    public CliIo {
        Objects.requireNonNull(stdout, "stdout");
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(err, "err");
    }

    public static CliIo of(OutputStream stdout, OutputStream stderr, boolean terminal) {
        return new CliIo(stdout, new PrintWriter(new OutputStreamWriter(stdout, StandardCharsets.UTF_8), true),
                new PrintWriter(new OutputStreamWriter(stderr, StandardCharsets.UTF_8), true), terminal);
    }

    static CliIo system() {
        return of(System.out, System.err, System.console() != null);
    }

    /** Prints {@code error: MESSAGE} on standard error, as one line whatever the message holds. */
    public void error(String message) {
        err.println("error: " + oneLine(message));
        err.flush();
    }

    /**
     * {@code text} made safe for one terminal line: line breaks and other control characters (an
     * escape sequence in a hostile span id, say) and Unicode's bidirectional and line-separator
     * controls are shown as backslash escapes ({@code \n}, {@code \r}, a u-escape for the others),
     * never obeyed. Tabs stay.
     */
    static String oneLine(String text) {
        if (text == null) {
            return "null";
        }
        StringBuilder out = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean unsafe = c != '\t' && (Character.isISOControl(c) || c >= '\u202a' && c <= '\u202e'
                    || c >= '\u2066' && c <= '\u2069' || c == '\u2028' || c == '\u2029' || c == '\u200e'
                    || c == '\u200f' || c == '\u061c');
            if (unsafe && out == null) {
                out = new StringBuilder(text.length() + 16).append(text, 0, i);
            }
            if (out != null) {
                if (!unsafe) {
                    out.append(c);
                } else if (c == '\n') {
                    out.append("\\n");
                } else if (c == '\r') {
                    out.append("\\r");
                } else {
                    out.append(String.format("\\u%04x", (int) c));
                }
            }
        }
        return out == null ? text : out.toString();
    }
}
