package io.tracegraph.application;

import java.util.Optional;

/**
 * Trace files on this machine that a person names where a stored run could be meant: the
 * outgoing port through which use cases tell a file from a run reference and open it.
 */
public interface LocalTraces {
    /** The trace file {@code reference} names when it is an existing regular file (links followed). */
    Optional<TraceInput> existing(String reference);

    /**
     * The trace file {@code reference} names when it is an existing regular file, or when its name
     * is a trace file's ({@code .jsonl}, {@code .json}, either with {@code .gz}) even though no such
     * file exists, so that a mistyped file name is not looked up as a run.
     */
    Optional<TraceInput> named(String reference);
}
