package io.tracegraph.application;

import io.tracegraph.domain.run.RunRef;
import java.util.Objects;
import java.util.Optional;

/**
 * Use case: which run a reference names: a trace file, or a stored run by its run_id, an
 * unambiguous prefix of one, {@code latest} or {@code latest~N}.
 */
public final class ResolveRun {
    /**
     * @param reference  what the person typed
     * @param traceNames whether a name with a trace file's suffix means a trace file even when no
     *                   such file exists (else only an existing file does)
     */
    public record Command(String reference, boolean traceNames) {
        public Command {
            Objects.requireNonNull(reference, "reference");
        }
    }

    /** What a reference names. */
    public sealed interface Resolved {
        /** A stored run. */
        record Stored(RunRef run) implements Resolved {
        }

        /** A trace file, to read and build without the store. */
        record TraceFile(TraceInput input) implements Resolved {
        }
    }

    private final RunSources sources;

    public ResolveRun(RunSources sources) {
        this.sources = Objects.requireNonNull(sources, "sources");
    }

    public Outcome<Resolved> resolve(Command command) {
        LocalTraces files = sources.files();
        Optional<TraceInput> file = command.traceNames() ? files.named(command.reference())
                : files.existing(command.reference());
        if (file.isPresent()) {
            return Outcome.done(new Resolved.TraceFile(file.get()));
        }
        try {
            return Outcome.done(new Resolved.Stored(sources.resolve(command.reference())));
        } catch (RunSources.Rejection e) {
            return Outcome.rejected(e.getMessage());
        }
    }
}
