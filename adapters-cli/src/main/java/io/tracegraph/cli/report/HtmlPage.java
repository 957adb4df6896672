package io.tracegraph.cli.report;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Properties;

/**
 * One self-contained HTML page: the charting library (uPlot, from its webjar on the class path),
 * the report's own style and script, and the report's data as one JSON value, all inline. The page
 * loads nothing: its Content-Security-Policy forbids every fetch, so a mistake shows as a console
 * error instead of a request.
 *
 * <p>Trace names are untrusted. They only ever travel inside the JSON, whose {@code <}, {@code >},
 * {@code &} and non-ASCII characters are written as backslash-u escapes, so no text in the data can
 * close the script element; the script puts them into the page as text nodes only.
 */
final class HtmlPage {
    private static final String UPLOT = "org.webjars.npm/uplot";
    private static final String RESOURCES = "/io/tracegraph/cli/report/";
    private static final JsonFactory FACTORY = new JsonFactoryBuilder()
            .enable(JsonWriteFeature.ESCAPE_NON_ASCII)
            .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
            .characterEscapes(new HtmlSafeEscapes())
            .build();

    /** Writes the report's data as one JSON value. */
    @FunctionalInterface
    interface Data {
        void write(JsonGenerator g) throws IOException;
    }

    private HtmlPage() {
    }

    /** Writes the page; {@code data} writes the one JSON value the script reads. */
    static void write(OutputStream out, Data data) throws IOException {
        String uplotVersion = uplotVersion();
        String uplotDir = "/META-INF/resources/webjars/uplot/" + uplotVersion + "/dist/";
        out.write(("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                + "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                + "script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:\">\n"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                + "<meta name=\"generator\" content=\"tracegraph\">\n"
                + "<title>tracegraph report</title>\n<link rel=\"icon\" href=\"data:,\">\n<style>\n")
                .getBytes(StandardCharsets.UTF_8));
        out.write(inline(uplotDir + "uPlot.min.css"));
        out.write('\n');
        out.write(inline(RESOURCES + "report.css"));
        out.write(("</style>\n</head>\n<body>\n<noscript>This report is drawn by JavaScript; please enable it."
                + "</noscript>\n<main id=\"app\"></main>\n<script type=\"application/json\" id=\"report-data\">")
                .getBytes(StandardCharsets.UTF_8));
        try (JsonGenerator g = FACTORY.createGenerator(out, JsonEncoding.UTF8)) {
            data.write(g);
        }
        out.write(("</script>\n<script>\n/* uPlot " + uplotVersion + ", MIT License, Copyright (c) 2022 Leon Sorokin */\n")
                .getBytes(StandardCharsets.UTF_8));
        out.write(inline(uplotDir + "uPlot.iife.min.js"));
        out.write("\n</script>\n<script>\n".getBytes(StandardCharsets.UTF_8));
        out.write(inline(RESOURCES + "report.js"));
        out.write("\n</script>\n</body>\n</html>\n".getBytes(StandardCharsets.UTF_8));
    }

    /** The version of the uPlot webjar on the class path (from its Maven properties). */
    static String uplotVersion() {
        Properties properties = new Properties();
        try (InputStream in = resource("/META-INF/maven/" + UPLOT + "/pom.properties")) {
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return properties.getProperty("version");
    }

    /** A script or style to inline: one that could end its element early would be our bug, not the user's. */
    static byte[] inline(String name) throws IOException {
        try (InputStream in = resource(name)) {
            byte[] bytes = in.readAllBytes();
            String text = new String(bytes, StandardCharsets.UTF_8).toLowerCase(Locale.ROOT);
            if (text.contains("</script") || text.contains("</style") || text.contains("<!--")) {
                throw new IllegalStateException(name + " cannot be inlined: it contains an HTML end tag or comment");
            }
            return bytes;
        }
    }

    private static InputStream resource(String name) {
        InputStream in = HtmlPage.class.getResourceAsStream(name);
        if (in == null) {
            throw new IllegalStateException("missing from the class path: " + name);
        }
        return in;
    }

    /** JSON escapes that keep the data inert inside an HTML script element. */
    private static final class HtmlSafeEscapes extends CharacterEscapes {
        private static final long serialVersionUID = 1L;
        private final int[] ascii;

        HtmlSafeEscapes() {
            ascii = standardAsciiEscapesForJSON();
            ascii['<'] = ESCAPE_STANDARD;
            ascii['>'] = ESCAPE_STANDARD;
            ascii['&'] = ESCAPE_STANDARD;
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return ascii;
        }

        @Override
        public SerializableString getEscapeSequence(int ch) {
            return null;
        }
    }
}
