package io.tracegraph.application;

import io.tracegraph.domain.run.ImportOutcome;

/** Hears about an import as it goes (for a progress bar); called from several threads. */
public interface ImportProgress {
    ImportProgress NONE = (name, outcome, bytes) -> { };

    /** One input is done: what became of it and how many bytes it had. */
    void done(String name, ImportOutcome outcome, long bytes);
}
