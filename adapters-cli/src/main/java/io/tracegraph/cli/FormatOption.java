package io.tracegraph.cli;

import io.tracegraph.cli.render.ColorMode;
import io.tracegraph.cli.render.Format;
import io.tracegraph.cli.render.Rendering;
import io.tracegraph.cli.render.Screen;
import java.util.Map;
import picocli.CommandLine.Option;

/** The {@code --format}, {@code --wide} and {@code --color} options of every listing command. */
final class FormatOption {
    @Option(names = "--format", paramLabel = "FORMAT", converter = FormatConverter.class,
            description = "table, csv, json or markdown (default: table on a terminal, json otherwise).")
    Format format;

    @Option(names = "--wide", description = "On a terminal: every column, whole, however wide the table gets.")
    boolean wide;

    @Option(names = "--color", paramLabel = "WHEN", converter = ColorMode.Converter.class, defaultValue = "auto",
            description = "Colour verdicts: auto (on a terminal, unless NO_COLOR is set), always or never "
                    + "(default: ${DEFAULT-VALUE}).")
    ColorMode color = ColorMode.AUTO;

    /** The format asked for, else (when the user named none) a table for a person and JSON for a script. */
    Format chosen(CliIo io) {
        if (format != null) {
            return format;
        }
        return io.terminal() ? Format.TABLE : Format.JSON;
    }

    /** The format, and the screen the output goes to ({@code COLUMNS} and {@code NO_COLOR} from {@code env}). */
    Rendering rendering(CliIo io, Map<String, String> env) {
        return new Rendering(chosen(io), Screen.of(io.terminal(), env, color), wide);
    }

    /** Whether the user named a format. */
    boolean named() {
        return format != null;
    }
}
