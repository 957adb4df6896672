package io.tracegraph.application;

import java.io.IOException;
import java.io.InputStream;

/** A set of traces to import, pushed one at a time (files, directories, archive entries...). */
public interface TraceBatch {
    /** Receives the traces of a batch. */
    interface Sink {
        /** One trace; the stream is valid only during the call. */
        void trace(String name, InputStream in) throws IOException;

        /** An input that could not be read at all, with a one-line reason. */
        void unreadable(String name, String reason);
    }

    /** Pushes every trace of the batch to the sink, in order. */
    void forEach(Sink sink) throws IOException;
}
