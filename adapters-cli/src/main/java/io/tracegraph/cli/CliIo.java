package io.tracegraph.cli;

import io.tracegraph.cli.render.ReportRenderer;
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

    /** {@code text} made safe for one terminal line, as {@link ReportRenderer#oneLine} says. */
    static String oneLine(String text) {
        return ReportRenderer.oneLine(text);
    }
}
