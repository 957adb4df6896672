package io.tracegraph.application;

import io.tracegraph.domain.run.BundleIdentity;
import java.io.IOException;
import java.io.InputStream;

/** A set of traces to import, pushed one at a time (files, directories, archive entries, bundles...). */
public interface TraceBatch {
    /** Receives the traces of a batch. */
    interface Sink {
        /** One trace; the stream is valid only during the call. */
        void trace(String name, InputStream in) throws IOException;

        /**
         * One trace that came in a candle-graph bundle whose files were all verified against its
         * {@code bundle.json} before this call; the stream is valid only during the call. A sink that
         * ignores where a trace came from need not override this: it receives it as {@link #trace}.
         */
        default void trace(String name, InputStream in, BundleIdentity bundle) throws IOException {
            trace(name, in);
        }

        /** An input that could not be read at all, with a one-line reason. */
        void unreadable(String name, String reason);
    }

    /** Pushes every trace of the batch to the sink, in order. */
    void forEach(Sink sink) throws IOException;
}
