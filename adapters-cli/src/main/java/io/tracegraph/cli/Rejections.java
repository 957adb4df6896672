package io.tracegraph.cli;

import io.tracegraph.application.HealthResult;
import io.tracegraph.application.TraceResult;

/** The one-line messages for rejected traces; every rejection exits with {@link ExitCode#REJECTED}. */
final class Rejections {
    private Rejections() {
    }

    static int report(CliIo io, TraceResult result) {
        if (result instanceof TraceResult.Malformed malformed) {
            io.error(malformed.problem().render());
        } else if (result instanceof TraceResult.Untrusted untrusted) {
            io.error(untrusted.message());
        } else {
            throw new IllegalArgumentException("not a rejection: " + result);
        }
        io.err().flush();
        return ExitCode.REJECTED;
    }

    static int report(CliIo io, HealthResult.Malformed malformed) {
        io.error(malformed.problem().render());
        io.err().flush();
        return ExitCode.REJECTED;
    }
}
