package io.tracegraph.cli.render;

import java.util.Locale;
import java.util.Map;
import picocli.CommandLine;

/** The {@code --color} choice: colour on terminals only, always, or never. */
public enum ColorMode {
    AUTO, ALWAYS, NEVER;

    /**
     * Whether output gets colour: {@code always} gives it, {@code never} does not, and {@code auto}
     * gives it on a terminal unless {@code NO_COLOR} is set to anything but the empty string
     * (no-color.org) or {@code TERM} is {@code dumb}.
     */
    public boolean enabled(boolean terminal, Map<String, String> env) {
        switch (this) {
            case ALWAYS:
                return true;
            case NEVER:
                return false;
            default:
                String noColor = env.get("NO_COLOR");
                return terminal && (noColor == null || noColor.isEmpty()) && !"dumb".equals(env.get("TERM"));
        }
    }

    /** Reads {@code auto}, {@code always} and {@code never}; anything else is a usage error naming them. */
    public static final class Converter implements CommandLine.ITypeConverter<ColorMode> {
        @Override
        public ColorMode convert(String value) {
            try {
                return ColorMode.valueOf(value.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException("'" + value + "' is not a colour mode (expected "
                        + "auto, always or never)");
            }
        }
    }
}
