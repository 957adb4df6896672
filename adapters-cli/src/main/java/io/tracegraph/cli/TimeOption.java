package io.tracegraph.cli;

import io.tracegraph.domain.graph.TimeBasis;
import java.util.Locale;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The {@code --time host|device} option: which time a question is asked of (docs/decisions.md,
 * "Host time and device time"). Host time by default; device time is the kernel time attributed to
 * the nodes (summed over their devices), and a run without any is rejected in one line.
 */
final class TimeOption {
    @Option(names = "--time", paramLabel = "TIME", converter = TimeOption.Converter.class, defaultValue = "host",
            description = "host: the spans' and ops' host time (default); device: their device time, the kernels, "
                    + "memcpys and memsets attributed to them, summed over devices.")
    TimeBasis time = TimeBasis.HOST;

    /** Reads {@code host} and {@code device}. */
    static final class Converter implements CommandLine.ITypeConverter<TimeBasis> {
        @Override
        public TimeBasis convert(String value) {
            for (TimeBasis t : TimeBasis.values()) {
                if (t.wire().equals(value.toLowerCase(Locale.ROOT))) {
                    return t;
                }
            }
            throw new CommandLine.TypeConversionException("unknown time '" + value + "' (expected host or device)");
        }
    }
}
